package io.sirocco.transport.nio;

import io.sirocco.transport.spi.Connection;

/**
 * The handshake state towards one remote node: which socket is bound to the node's connection, and whether this
 * node's own connect is in flight. Every field is guarded by this object's monitor; a connector that lost a
 * crossed connect waits on it until the accepted socket is bound ({@code notifyAll} on bind).
 *
 * <p>The rule against crossed simultaneous connects, applied when a hello arrives from node {@code p} at node
 * {@code n} (see {@link NioTransport}):
 * <ul>
 *   <li>a socket is bound and open: reject if the hello is stale, i.e. from the same incarnation with a generation
 *       older than the bound one (the peer sent it before it learned of the bound socket: the losing half of a
 *       crossed connect); accept otherwise (the peer restarted, or closed the old socket and reconnects);</li>
 *   <li>this node is connecting to {@code p} itself: the socket opened by the lower node id wins, so accept if
 *       {@code p < n}, reject otherwise (the peer applies the same rule to this node's hello);</li>
 *   <li>otherwise accept.</li>
 * </ul>
 * No frame is written on a socket before its accepting reply, so a rejected socket never carries data: nothing is
 * lost or duplicated, and each side ends up with exactly one socket and one connection object.
 */
final class PeerLink
{
    NioChannel bound;
    long peerIncarnation;
    long generation;
    boolean connecting;

    /** Holding the monitor: true if {@code connection} has its open socket. */
    boolean boundTo(final Connection connection)
    {
        return bound != null && bound.connection == connection && !bound.failed && !connection.isClosed();
    }

    /** Holding the monitor: true if some open socket is bound. */
    boolean boundOpen()
    {
        return bound != null && !bound.failed && !bound.connection.isClosed();
    }
}
