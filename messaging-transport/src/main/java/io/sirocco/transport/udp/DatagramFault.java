package io.sirocco.transport.udp;

import java.net.InetSocketAddress;

/**
 * A fault a {@link UdpChannel} injects into its own traffic, for tests of the protocols above it (retransmission,
 * reordering tolerance): it is asked about every datagram sent and received, and a datagram it drops is silently
 * lost, as the network would lose it. Implementations are called from the sending threads and the receiving agent
 * at once, so they must be thread-safe.
 */
@FunctionalInterface
public interface DatagramFault
{
    /** No fault: every datagram goes through. */
    DatagramFault NONE = (outbound, length, peer) -> false;

    /** Whether to lose this datagram of {@code length} bytes, sent to ({@code outbound}) or received from peer. */
    boolean drop(boolean outbound, int length, InetSocketAddress peer);
}
