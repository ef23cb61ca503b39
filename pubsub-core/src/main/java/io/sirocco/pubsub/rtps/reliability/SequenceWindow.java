package io.sirocco.pubsub.rtps.reliability;

/**
 * The sequence numbers settled (received, or declared irrelevant by GAP or HEARTBEAT) from a base on: everything
 * below {@link #base()} is settled, and a 256-bit window records which of {@code base .. base + 255} are. Settling
 * the base slides the window past every settled number. Allocation-free; not thread-safe (one per remote writer,
 * owned by the RTPS agent).
 */
final class SequenceWindow
{
    /** The window's width, the largest bitmap an ACKNACK can carry. */
    static final int BITS = 256;

    private final long[] words = new long[BITS / 64];
    private long base = 1;

    long base()
    {
        return base;
    }

    /** Whether {@code sn} is settled. */
    boolean isSettled(final long sn)
    {
        if (sn < base)
        {
            return true;
        }
        final long i = sn - base;
        return i < BITS && (words[(int) (i >>> 6)] & (1L << (i & 63))) != 0;
    }

    /**
     * Settles {@code sn}. Returns false when it was settled already, or lies beyond the window (it will be asked
     * for again once the window reaches it).
     */
    boolean settle(final long sn)
    {
        if (isSettled(sn) || sn - base >= BITS)
        {
            return false;
        }
        final long i = sn - base;
        words[(int) (i >>> 6)] |= 1L << (i & 63);
        slide();
        return true;
    }

    /** Settles everything below {@code sn} (a GAP's range, or a HEARTBEAT's firstSN). */
    void settleBelow(final long sn)
    {
        if (sn <= base)
        {
            return;
        }
        shiftDown(sn - base);
        base = sn;
        slide();
    }

    /** Moves the base past the settled numbers at its front. */
    private void slide()
    {
        long run = 0;
        while (run < BITS && (words[(int) (run >>> 6)] & (1L << (run & 63))) != 0)
        {
            run++;
        }
        if (run > 0)
        {
            shiftDown(run);
            base += run;
        }
    }

    /** Drops the first {@code n} bits of the window (bit i becomes bit i - n). */
    private void shiftDown(final long n)
    {
        if (n >= BITS)
        {
            java.util.Arrays.fill(words, 0);
            return;
        }
        final int wordShift = (int) (n >>> 6);
        final int bitShift = (int) (n & 63);
        for (int w = 0; w < words.length; w++)
        {
            final int from = w + wordShift;
            final long low = from < words.length ? words[from] : 0;
            final long high = from + 1 < words.length ? words[from + 1] : 0;
            words[w] = bitShift == 0 ? low : (low >>> bitShift) | (high << (64 - bitShift));
        }
    }
}
