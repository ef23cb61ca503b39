package io.sirocco.transport.nio;

import io.sirocco.transport.protocol.HandshakeDescriptor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * An accepted socket whose handshake hello has not been read in full yet. It reads at most the hello's bytes, so
 * frames that follow stay in the socket for the connection. Selector thread only.
 */
final class PendingAccept
{
    final SocketChannel channel;
    final SelectionKey key;
    final String peer;
    final ByteBuffer hello = ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN);

    PendingAccept(final SocketChannel channel, final SelectionKey key, final String peer)
    {
        this.channel = channel;
        this.key = key;
        this.peer = peer;
    }
}
