package io.sirocco.pubsub.rtps.reliability;

import io.sirocco.pubsub.rtps.wire.GapView;

/**
 * A reliable reader's view of one remote writer (DDSI-RTPS 2.5, 8.4.10.4): which changes came or were declared
 * irrelevant, what the writer last said it has, and the ACKNACK that asks for the rest. Duplicates are recognised,
 * so a retransmission is delivered once.
 *
 * <p>Not thread-safe: owned by the RTPS agent, like every reliability state of a participant.
 */
public final class WriterProxy
{
    private final SequenceWindow window = new SequenceWindow();
    private long lastAvailable;
    private int lastHeartbeatCount = Integer.MIN_VALUE;
    private int ackNackCount;

    /** A DATA (or a whole reassembled DATA_FRAG) with {@code sn}: true when it is new, false for a duplicate. */
    public boolean onData(final long sn)
    {
        lastAvailable = Math.max(lastAvailable, sn);
        return window.settle(sn);
    }

    /** A GAP: {@code gapStart .. gapList.base - 1} and the bitmap's numbers are irrelevant. */
    public void onGap(final GapView gap)
    {
        for (long sn = Math.max(gap.gapStart(), window.base()); sn < gap.gapList().base(); sn++)
        {
            if (!window.settle(sn) && sn - window.base() >= SequenceWindow.BITS)
            {
                break; // beyond the window: the writer's next GAP or HEARTBEAT covers it again
            }
        }
        for (int i = 0; i < gap.gapList().numBits(); i++)
        {
            if (gap.gapList().bit(i))
            {
                window.settle(gap.gapList().base() + i);
            }
        }
    }

    /**
     * A HEARTBEAT: changes below {@code firstSN} are gone from the writer (irrelevant now), {@code lastSN} is its
     * newest. Returns false for a stale or repeated heartbeat (count not above the last one), which needs no answer.
     */
    public boolean onHeartbeat(final long firstSN, final long lastSN, final int count)
    {
        if (count - lastHeartbeatCount <= 0 && lastHeartbeatCount != Integer.MIN_VALUE)
        {
            return false;
        }
        lastHeartbeatCount = count;
        window.settleBelow(firstSN);
        lastAvailable = Math.max(lastAvailable, lastSN);
        return true;
    }

    /** Everything below this was received or is irrelevant: an ACKNACK's base. */
    public long ackBase()
    {
        return window.base();
    }

    /**
     * Fills {@code bitmap} (8 ints) with the numbers from {@link #ackBase()} that the writer has and this reader
     * misses, and returns the bitmap's length in bits (0 when nothing is missing: a pure acknowledgement).
     */
    public int missing(final int[] bitmap)
    {
        final long base = window.base();
        final int numBits = (int) Math.max(0, Math.min(SequenceWindow.BITS, lastAvailable - base + 1));
        java.util.Arrays.fill(bitmap, 0);
        for (int i = 0; i < numBits; i++)
        {
            if (!window.isSettled(base + i))
            {
                bitmap[i >>> 5] |= 0x8000_0000 >>> (i & 31);
            }
        }
        return numBits;
    }

    /** The count for the next ACKNACK (strictly increasing, as the writer requires). */
    public int nextAckNackCount()
    {
        return ++ackNackCount;
    }

    /** Whether the reader has everything the writer announced. */
    public boolean isComplete()
    {
        return window.base() > lastAvailable;
    }
}
