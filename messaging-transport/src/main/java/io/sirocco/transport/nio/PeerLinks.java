package io.sirocco.transport.nio;

import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.sirocco.transport.NodeIds;
import io.sirocco.transport.spi.Connection;

/**
 * The {@link PeerLink} of every node (created on first use) and the binding of a handshaken socket to its
 * connection. Thread-safe: the array is an {@link AtomicReferenceArray} filled by CAS; a link's fields are guarded by
 * the link's monitor, and {@link #bind} and {@link #unbind} are called or take it; binding notifies a connector that
 * waits for the peer's socket.
 */
final class PeerLinks
{
    private final AtomicReferenceArray<PeerLink> links = new AtomicReferenceArray<>(NodeIds.COUNT);

    PeerLink link(final int nodeId)
    {
        final PeerLink existing = links.get(nodeId);
        if (existing != null)
        {
            return existing;
        }
        final PeerLink created = new PeerLink();
        return links.compareAndSet(nodeId, null, created) ? created : links.get(nodeId);
    }

    /** Holding the link's monitor: binds a handshaken socket to the connection. */
    static NioChannel bind(final PeerLink link, final SocketChannel channel, final Connection connection,
        final String peer, final long peerIncarnation, final long generation)
    {
        final NioChannel bound = new NioChannel(channel, connection, peer);
        link.bound = bound;
        link.peerIncarnation = peerIncarnation;
        link.generation = generation;
        connection.peerDescription(peer);
        connection.incomingAttachment(bound);
        connection.outgoingAttachment(bound);
        connection.incomingOpen(true);
        link.notifyAll();
        return bound;
    }

    /** The connection closes: its node's link forgets the channel if it is the bound one, and waiters wake. */
    void unbind(final Connection connection, final NioChannel channel)
    {
        final PeerLink link = links.get(connection.nodeId());
        if (link != null)
        {
            synchronized (link)
            {
                if (link.bound == channel)
                {
                    link.bound = null;
                }
                link.notifyAll();
            }
        }
    }
}
