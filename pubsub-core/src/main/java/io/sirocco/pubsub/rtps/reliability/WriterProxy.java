package io.sirocco.pubsub.rtps.reliability;

import io.sirocco.pubsub.rtps.wire.DataFragView;
import io.sirocco.pubsub.rtps.wire.DataView;
import io.sirocco.pubsub.rtps.wire.GapView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;

/**
 * A reliable reader's view of one remote writer (DDSI-RTPS 2.5, 8.4.10.4): which changes came or were declared
 * irrelevant, what the writer last said it has, and the ACKNACK that asks for the rest. Samples are delivered in
 * sequence order, each once: one that arrives ahead of a missing number is held (a copy, in a {@link ReorderBuffer})
 * until the missing one comes or a GAP or a HEARTBEAT's firstSN declares it irrelevant; duplicates are dropped.
 * Invariant between calls: every number below {@code nextToDeliver} was delivered or is irrelevant, and
 * {@code nextToDeliver} equals the window's base (the held samples lie above it, within the window).
 *
 * <p>Not thread-safe: owned by the RTPS agent, like every reliability state of a participant.
 */
public final class WriterProxy
{
    /** How many sequence numbers from {@link #ackBase()} an ACKNACK covers. */
    public static final int WINDOW = SequenceWindow.BITS;
    /** Samples in reassembly at once per remote writer (see {@link FragmentAssembler}). */
    public static final int FRAGMENTED_SAMPLES = 32;
    /** Bytes of reassembly buffers per remote writer: also the largest fragmented sample taken. */
    public static final long FRAGMENT_BYTES = 8L << 20;

    private final FragmentAssembler fragments = new FragmentAssembler(FRAGMENTED_SAMPLES, FRAGMENT_BYTES);
    private final SequenceWindow window = new SequenceWindow();
    private final ReorderBuffer held = new ReorderBuffer();
    private final InOrderListener listener;
    private long nextToDeliver = 1;
    private long lastAvailable;
    private int lastHeartbeatCount = Integer.MIN_VALUE;
    private int ackNackCount;
    private int nackFragCount;

    /** A proxy that delivers the remote writer's samples to {@code listener}, in order. */
    public WriterProxy(final InOrderListener listener)
    {
        this.listener = listener;
    }

    /**
     * A DATA (or a whole reassembled DATA_FRAG): delivers it now when it is the next in order (and then every held
     * one it makes contiguous), holds a copy when it comes ahead of a missing number, drops it when it is a
     * duplicate or beyond the window (the writer sends it again once the window reaches it). Returns false when
     * dropped.
     */
    public boolean onData(final ReceiveContext context, final DataView data)
    {
        final long sn = data.sequenceNumber();
        lastAvailable = Math.max(lastAvailable, sn);
        if (!window.settle(sn))
        {
            return false;
        }
        if (sn == nextToDeliver)
        {
            nextToDeliver++;
            listener.onSample(context, data);
        }
        else
        {
            held.hold(sn, context, data);
        }
        deliverUpToBase();
        return true;
    }

    /**
     * A DATA_FRAG: its fragments join the sample's others; the sample, once whole, goes on as a DATA
     * ({@link #onData}). Fragments of settled samples, or of samples beyond the window, are dropped (false).
     */
    public boolean onDataFrag(final ReceiveContext context, final DataFragView fragment)
    {
        final long sn = fragment.sequenceNumber();
        lastAvailable = Math.max(lastAvailable, sn);
        if (window.isSettled(sn) || sn - window.base() >= SequenceWindow.BITS)
        {
            return false;
        }
        final DataView whole = fragments.onFragment(context, fragment);
        return whole == null || onData(fragments.assembledContext(), whole);
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
        deliverUpToBase();
        dropSettledFragments();
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
        deliverUpToBase();
        dropSettledFragments();
        lastAvailable = Math.max(lastAvailable, lastSN);
        return true;
    }

    /** Samples being reassembled that became irrelevant will not be completed: their buffers are freed. */
    private void dropSettledFragments()
    {
        fragments.dropBelow(window.base());
        for (long sn = fragments.nextInProgress(window.base()); sn > 0; sn = fragments.nextInProgress(sn + 1))
        {
            if (window.isSettled(sn))
            {
                fragments.drop(sn);
            }
        }
    }

    /** How many samples are held, waiting for a missing one before them. */
    public int heldCount()
    {
        return held.held();
    }

    /**
     * Delivers the held samples below the window's base, in order: the numbers between them were delivered or are
     * irrelevant now. Only the last window's worth of numbers can be held, so a far jump of the base (a HEARTBEAT
     * whose firstSN is far ahead) looks at no more than 256 slots.
     */
    private void deliverUpToBase()
    {
        final long base = window.base();
        final long end = Math.min(base, nextToDeliver + SequenceWindow.BITS);
        for (long sn = nextToDeliver; sn < end; sn++)
        {
            held.release(sn, listener);
        }
        nextToDeliver = Math.max(nextToDeliver, base);
    }

    /** Everything below this was received or is irrelevant: an ACKNACK's base. */
    public long ackBase()
    {
        return window.base();
    }

    /**
     * Fills {@code bitmap} (8 ints) with the numbers from {@link #ackBase()} that the writer has and this reader
     * misses, and returns the bitmap's length in bits (0 when nothing is missing: a pure acknowledgement). Samples
     * of which some fragments came are left out: {@link #missingFragments} asks for their missing fragments alone.
     */
    public int missing(final int[] bitmap)
    {
        final long base = window.base();
        final int numBits = (int) Math.max(0, Math.min(SequenceWindow.BITS, lastAvailable - base + 1));
        java.util.Arrays.fill(bitmap, 0);
        for (int i = 0; i < numBits; i++)
        {
            if (!window.isSettled(base + i) && !fragments.isInProgress(base + i))
            {
                bitmap[i >>> 5] |= 0x8000_0000 >>> (i & 31);
            }
        }
        return numBits;
    }

    /** The next sample at or above {@code from} of which some fragments came but not all, or -1. */
    public long nextPartial(final long from)
    {
        return fragments.nextInProgress(from);
    }

    /**
     * Fills {@code bitmap} (8 ints) with the fragments sample {@code sn} misses from {@link #missingFragmentBase};
     * returns the bitmap's length in bits: a NACK_FRAG's fragmentNumberState.
     */
    public int missingFragments(final long sn, final int[] bitmap)
    {
        return fragments.missingFragments(sn, bitmap);
    }

    /** The first fragment (1-based) sample {@code sn} misses. */
    public int missingFragmentBase(final long sn)
    {
        return fragments.missingBase(sn);
    }

    /** The count for the next NACK_FRAG (strictly increasing). */
    public int nextNackFragCount()
    {
        return ++nackFragCount;
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
