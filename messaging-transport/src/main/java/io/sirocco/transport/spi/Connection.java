package io.sirocco.transport.spi;

import io.sirocco.transport.flow.FlowControl;
import io.sirocco.transport.orb.OutgoingRingBuffer;
import io.sirocco.transport.orb.RingSignals;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The core's state for one remote node: the outgoing ring buffer, flow control for both directions, two attachment
 * slots a transport uses for its channels, and one the coordinator keeps its parsing state in (typed as
 * {@code Object} so that this SPI class does not depend on the incoming path that depends on it). Created by the core only (one per node at a
 * time); a closed connection is never reopened, the next send creates a new one.
 *
 * <p>Threads: producers use the ring (see {@link OutgoingRingBuffer}); the transport owns the attachments and the
 * ring's consumer side; the coordinator thread alone owns {@link #receiveAttachment()} (a plain field:
 * written and read by that one thread only). {@code closed} is volatile: set
 * once by the core, read by everyone. The interest word is an atomic bit set a transport may use as its
 * interest-queue entry.
 */
public final class Connection
{
    private final int nodeId;
    private final OutgoingRingBuffer ring;
    private final FlowControl flowControl;
    private final RingSignals signals;
    private final AtomicInteger interest = new AtomicInteger();
    private volatile Object outgoingAttachment;
    private volatile Object incomingAttachment;
    private volatile boolean outgoingOpen;
    private volatile boolean incomingOpen;
    private volatile boolean closed;
    private volatile String closeReason;
    private volatile long lastUsedNs;
    private volatile String peerDescription;
    private CompletableFuture<Void> connecting;
    private Object receiveAttachment;

    public Connection(final int nodeId, final OutgoingRingBuffer ring, final FlowControl flowControl, final RingSignals signals)
    {
        this.nodeId = nodeId;
        this.ring = ring;
        this.flowControl = flowControl;
        this.signals = signals;
        this.lastUsedNs = System.nanoTime();
    }

    public int nodeId()
    {
        return nodeId;
    }

    /** Paper operation 2 reads from here: the transport pulls committed bytes and frees what it sent. */
    public OutgoingRingBuffer outgoingRingBuffer()
    {
        return ring;
    }

    public FlowControl flowControl()
    {
        return flowControl;
    }

    public RingSignals signals()
    {
        return signals;
    }

    /** Coordinator thread only: its per-connection parsing state, or null before the first buffer. */
    public Object receiveAttachment()
    {
        return receiveAttachment;
    }

    /** Coordinator thread only. */
    public void receiveAttachment(final Object attachment)
    {
        receiveAttachment = attachment;
    }

    /**
     * Sets interest bits; returns true if the word was zero before, i.e. the caller must enqueue this connection
     * for the transport thread (the paper's interest queue: an entry is queued once, however many bits pile up).
     */
    public boolean addInterest(final int bits)
    {
        final int current = interest.get();
        if ((current & bits) == bits)
        {
            return false; // already pending: no lock, no queue operation
        }
        return interest.getAndUpdate(v -> v | bits) == 0;
    }

    /** Transport thread: takes and clears all pending interest bits. */
    public int takeInterest()
    {
        return interest.getAndSet(0);
    }

    public Object outgoingAttachment()
    {
        return outgoingAttachment;
    }

    public void outgoingAttachment(final Object attachment)
    {
        outgoingAttachment = attachment;
    }

    public Object incomingAttachment()
    {
        return incomingAttachment;
    }

    public void incomingAttachment(final Object attachment)
    {
        incomingAttachment = attachment;
    }

    public boolean outgoingOpen()
    {
        return outgoingOpen;
    }

    public void outgoingOpen(final boolean open)
    {
        outgoingOpen = open;
    }

    public boolean incomingOpen()
    {
        return incomingOpen;
    }

    public void incomingOpen(final boolean open)
    {
        incomingOpen = open;
    }

    public boolean isClosed()
    {
        return closed;
    }

    public String closeReason()
    {
        return closeReason;
    }

    /** Core only: marks the connection closed once; false if it was already. */
    public synchronized boolean markClosed(final String reason)
    {
        if (closed)
        {
            return false;
        }
        closeReason = reason;
        closed = true;
        ring.close();
        return true;
    }

    /** Core only, under the core's per-node lock: the outgoing connect in progress, or null. */
    public CompletableFuture<Void> connecting()
    {
        return connecting;
    }

    public void connecting(final CompletableFuture<Void> future)
    {
        connecting = future;
    }

    /** The transport's description of the peer (e.g. its socket address), for log lines; may be null. */
    public String peerDescription()
    {
        return peerDescription;
    }

    public void peerDescription(final String description)
    {
        peerDescription = description;
    }

    public long lastUsedNs()
    {
        return lastUsedNs;
    }

    public void touch(final long nowNs)
    {
        lastUsedNs = nowNs;
    }

    @Override
    public String toString()
    {
        return "connection to node " + nodeId;
    }
}
