package io.sirocco.pubsub.rtps.reliability;

import io.sirocco.pubsub.rtps.wire.NumberSetView;

/**
 * A reliable writer's view of one remote reader (DDSI-RTPS 2.5, 8.4.9.2): what it acknowledged and what it asked
 * for again in its latest ACKNACK. ACKNACKs whose count is not above the last one are stale and ignored, as the
 * spec requires.
 *
 * <p>Not thread-safe: owned by the RTPS agent.
 */
public final class ReaderProxy
{
    private final int[] requested = new int[SequenceWindow.BITS / 32];
    private long acknowledgedBelow = 1;
    private long requestedBase = 1;
    private int requestedBits;
    private int lastCount = Integer.MIN_VALUE;
    private boolean answeredHeartbeat;

    /** An ACKNACK taken as a HEARTBEAT's answer (see {@link #answeredHeartbeat()}); false when it was stale. */
    public boolean onAckNack(final NumberSetView set, final int count)
    {
        return onAckNack(set, count, true);
    }

    /** An ACKNACK with its FINAL flag {@code isFinal}; returns false when it was stale (ignored). */
    public boolean onAckNack(final NumberSetView set, final int count, final boolean isFinal)
    {
        if (lastCount != Integer.MIN_VALUE && count - lastCount <= 0)
        {
            return false;
        }
        answeredHeartbeat |= isFinal || lastCount != Integer.MIN_VALUE;
        lastCount = count;
        acknowledgedBelow = Math.max(acknowledgedBelow, set.base());
        requestedBase = set.base();
        requestedBits = set.numBits();
        java.util.Arrays.fill(requested, 0);
        for (int i = 0; i < requestedBits; i++)
        {
            if (set.bit(i))
            {
                requested[i >>> 5] |= 0x8000_0000 >>> (i & 31);
            }
        }
        return true;
    }

    /** Whether this reader sent any ACKNACK yet (it knows the writer: DATA reaches it now). */
    public boolean hasAcked()
    {
        return lastCount != Integer.MIN_VALUE;
    }

    /**
     * Whether this reader has answered one of the writer's HEARTBEATs, so that it knows the writer's sequence numbers
     * and takes its next DATA. A reader may send a first, pre-emptive ACKNACK as soon as it matches, before any
     * HEARTBEAT (Cyclone does, without the FINAL flag, to ask for one); that one does not count: a reader that has
     * seen no HEARTBEAT yet drops DATA, and Cyclone takes the first HEARTBEAT's range as history it does not want, so
     * a change sent before would be lost. An answer is a FINAL ACKNACK or any ACKNACK after the first.
     */
    public boolean answeredHeartbeat()
    {
        return answeredHeartbeat;
    }

    /** Every change below this is acknowledged: the writer may drop it from its history for this reader. */
    public long acknowledgedBelow()
    {
        return acknowledgedBelow;
    }

    /** The first requested number at or above {@code from}, or -1; each is returned until a new ACKNACK. */
    public long nextRequested(final long from)
    {
        for (long sn = Math.max(from, requestedBase); sn < requestedBase + requestedBits; sn++)
        {
            final int i = (int) (sn - requestedBase);
            if ((requested[i >>> 5] & (0x8000_0000 >>> (i & 31))) != 0)
            {
                return sn;
            }
        }
        return -1;
    }

    /** Clears the requests once they were resent (a new ACKNACK brings any still missing). */
    public void requestsServed()
    {
        requestedBits = 0;
    }
}
