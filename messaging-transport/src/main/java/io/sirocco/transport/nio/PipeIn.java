package io.sirocco.transport.nio;

import io.sirocco.transport.protocol.FrameDescriptor;
import io.sirocco.transport.spi.Connection;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The incoming direction of a connection: a socket the peer opened to us. It starts with the peer's handshake
 * (magic and node id); after it, data flows in, and our credits flow back on its back direction. Selector thread
 * only.
 */
final class PipeIn
{
    final SocketChannel channel;
    final SelectionKey key;
    final ByteBuffer hello = ByteBuffer.allocate(FrameDescriptor.HELLO_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    final ByteBuffer credit = ByteBuffer.allocateDirect(1);
    final String peer;
    Connection connection;

    PipeIn(final SocketChannel channel, final SelectionKey key, final String peer)
    {
        this.channel = channel;
        this.key = key;
        this.peer = peer;
    }
}
