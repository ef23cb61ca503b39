package io.sirocco.transport.nio;

import io.sirocco.transport.protocol.HandshakeDescriptor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * An accepted socket whose handshake hello has not been read in full yet. It reads at most the hello's bytes, so
 * frames that follow stay in the socket for the connection. It must complete its hello before {@code deadlineNs}
 * ({@link PendingHandshakes} closes it otherwise). Selector loop's leader only.
 */
final class PendingAccept
{
    final SocketChannel channel;
    final SelectionKey key;
    final String peer;
    final long deadlineNs;
    final ByteBuffer hello = ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    /** The hello was answered (the socket is bound or rejected) or the socket dropped: no deadline applies. */
    boolean done;

    PendingAccept(final SocketChannel channel, final SelectionKey key, final String peer, final long deadlineNs)
    {
        this.channel = channel;
        this.key = key;
        this.peer = peer;
        this.deadlineNs = deadlineNs;
    }

    /** Closes the socket and forgets its key. */
    void drop()
    {
        done = true;
        key.cancel();
        NioChannel.closeQuietly(channel);
    }
}
