package io.sirocco.transport;

import java.util.concurrent.atomic.AtomicLong;

/** Counters of one node's transport; written by transport threads, readable from any thread. */
public final class TransportStatistics
{
    final AtomicLong connectionsOpened = new AtomicLong();
    final AtomicLong connectionsClosed = new AtomicLong();
    final AtomicLong protocolErrors = new AtomicLong();
    final AtomicLong handlerErrors = new AtomicLong();
    final AtomicLong handshakesDropped = new AtomicLong();
    final AtomicLong acceptFailures = new AtomicLong();
    final AtomicLong nodeIdClaimsRejected = new AtomicLong();
    final AtomicLong ringBytesAllocated = new AtomicLong();
    // Written by the NIO selector thread that leads the loop only (single writer: lazySet of get + 1).
    final AtomicLong selectorSpinPolls = new AtomicLong();
    final AtomicLong selectorBlockingSelects = new AtomicLong();

    public long connectionsOpened() { return connectionsOpened.get(); }
    public long connectionsClosed() { return connectionsClosed.get(); }
    /** Connections closed because the peer sent bad input. */
    public long protocolErrors() { return protocolErrors.get(); }
    /** Exceptions thrown by application handlers (logged, connection kept). */
    public long handlerErrors() { return handlerErrors.get(); }

    /** Accepted sockets closed because their hello did not complete in time, or too many were incomplete. */
    public long handshakesDropped() { return handshakesDropped.get(); }
    /** Failed {@code accept} calls (e.g. at the fd limit); each pauses accepting for a while. */
    public long acceptFailures() { return acceptFailures.get(); }
    /** Hellos rejected because their node id is bound to another open socket (a spoof, or a restart not yet seen). */
    public long nodeIdClaimsRejected() { return nodeIdClaimsRejected.get(); }
    /**
     * Native bytes allocated for outgoing ring buffers since the start (a ring is allocated on a connection's first
     * send, not when a peer's hello is accepted; it is freed by the garbage collector after the connection closes).
     */
    public long ringBytesAllocated() { return ringBytesAllocated.get(); }

    /** Non-blocking polls the NIO selector made inside its spin window ({@code sirocco.transport.selector.spin.ns}). */
    public long selectorSpinPolls() { return selectorSpinPolls.get(); }
    /** Blocking {@code select} calls of the NIO selector (it found nothing to do and its spin window was closed). */
    public long selectorBlockingSelects() { return selectorBlockingSelects.get(); }

    /** The selector thread that leads the loop only. */
    public void selectorSpinPoll() { selectorSpinPolls.lazySet(selectorSpinPolls.get() + 1); }
    /** The selector thread that leads the loop only. */
    public void selectorBlockingSelect() { selectorBlockingSelects.lazySet(selectorBlockingSelects.get() + 1); }

    public void connectionOpened() { connectionsOpened.incrementAndGet(); }
    public void connectionClosed() { connectionsClosed.incrementAndGet(); }
    public void protocolError() { protocolErrors.incrementAndGet(); }
    public void handlerError() { handlerErrors.incrementAndGet(); }
    public void handshakeDropped() { handshakesDropped.incrementAndGet(); }
    public void acceptFailure() { acceptFailures.incrementAndGet(); }
    public void nodeIdClaimRejected() { nodeIdClaimsRejected.incrementAndGet(); }
    public void ringAllocated(final long bytes) { ringBytesAllocated.addAndGet(bytes); }

    @Override
    public String toString()
    {
        return "connectionsOpened=" + connectionsOpened() + " connectionsClosed=" + connectionsClosed() +
            " protocolErrors=" + protocolErrors() + " handlerErrors=" + handlerErrors() +
            " handshakesDropped=" + handshakesDropped() + " acceptFailures=" + acceptFailures() +
            " nodeIdClaimsRejected=" + nodeIdClaimsRejected() + " ringBytesAllocated=" + ringBytesAllocated() +
            " selectorSpinPolls=" + selectorSpinPolls() + " selectorBlockingSelects=" + selectorBlockingSelects();
    }
}
