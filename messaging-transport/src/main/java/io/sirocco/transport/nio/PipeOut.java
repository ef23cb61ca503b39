package io.sirocco.transport.nio;

import io.sirocco.transport.spi.Connection;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The outgoing direction of a connection: the socket this node opened to the peer. Data flows out of the ring
 * into it; its otherwise unused back direction carries the peer's flow-control credits (one byte each). The key is
 * set and changed by the selector thread only; the channel is written by whoever holds the ring's consumer lock.
 */
final class PipeOut
{
    final SocketChannel channel;
    final Connection connection;
    final ByteBuffer credits = ByteBuffer.allocateDirect(64);
    final String peer;
    SelectionKey key;
    volatile boolean failed;

    PipeOut(final SocketChannel channel, final Connection connection, final String peer)
    {
        this.channel = channel;
        this.connection = connection;
        this.peer = peer;
    }
}
