package io.sirocco.pubsub.rtps.reliability;

import java.nio.ByteBuffer;

import io.sirocco.pubsub.rtps.wire.DataFragView;
import io.sirocco.pubsub.rtps.wire.DataView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;
import io.sirocco.pubsub.rtps.wire.SubmessageKind;

/**
 * Reassembles the DATA_FRAG fragments of one remote writer's samples (DDSI-RTPS 2.5, 8.3.7.3) into whole DATA
 * submessages. Fragments may come in any order, twice, or never: each sample in progress has a slot with a buffer, a
 * bitmap of the fragments it got and the context of its first fragment; once every fragment is there the slot's
 * bytes are viewed as one DATA (the fixed part written in front of the inline QoS and the payload) and the slot is
 * free again.
 *
 * <p>Memory is bounded: at most {@code slots} samples in progress, whose buffers together stay within
 * {@code maxBytes} (so no sample larger than that is taken). When no slot is free, or the buffers would grow past the
 * bound, the sample that got a fragment least recently is dropped: a reliable writer resends it on request, and a
 * best-effort one's lost samples cannot clog the slots. Fragment numbers and sizes that disagree with the sample's
 * first fragment are counted and ignored, as are samples of more than {@link #MAX_FRAGMENTS} fragments. Buffers are reused, so a steady stream allocates nothing.
 *
 * <p>Not thread-safe: owned by the RTPS agent, like every reliability state of a participant.
 */
public final class FragmentAssembler
{
    /** The largest inline QoS kept with a sample; a larger one is dropped with its sample. */
    static final int MAX_INLINE_QOS = 516;
    /** Where the payload starts in a slot's buffer: the DATA's fixed part and inline QoS go in front of it. */
    private static final int PAYLOAD_AT = 20 + MAX_INLINE_QOS;
    /** The most fragments a sample may have: bounds each slot's bitmap (8 KiB) whatever the sizes claimed. */
    static final int MAX_FRAGMENTS = 65_536;
    private static final long EMPTY = 0; // sequence numbers start at 1

    private final Slot[] slots;
    private final long maxBytes;
    private final DataView assembled = new DataView();
    private ReceiveContext assembledContext;
    private long tick;
    private long rejected;

    /** An assembler of up to {@code slots} samples in progress whose buffers total at most {@code maxBytes}. */
    public FragmentAssembler(final int slots, final long maxBytes)
    {
        this.slots = new Slot[slots];
        for (int i = 0; i < slots; i++)
        {
            this.slots[i] = new Slot();
        }
        this.maxBytes = maxBytes;
    }

    /**
     * Takes a fragment; returns the whole sample, as a DATA view valid until the next call, when this fragment
     * completed it, else null. {@code context} is kept (copied) from the sample's first fragment to arrive.
     */
    public DataView onFragment(final ReceiveContext context, final DataFragView fragment)
    {
        final long sn = fragment.sequenceNumber();
        Slot slot = find(sn);
        if (slot == null)
        {
            slot = start(context, fragment);
            if (slot == null)
            {
                return null;
            }
        }
        else if (slot.sampleSize != fragment.sampleSize() || slot.fragmentSize != fragment.fragmentSize())
        {
            rejected++;
            return null;
        }
        slot.lastUsed = ++tick;
        if (fragment.inlineQosLength() > 0 && slot.qosLength == 0)
        {
            if (fragment.inlineQosLength() > MAX_INLINE_QOS)
            {
                rejected++;
                slot.clear();
                return null;
            }
            fragment.copyInlineQos(slot.buffer, PAYLOAD_AT);
            slot.qosLength = fragment.inlineQosLength();
            slot.little = fragment.isLittleEndian();
        }
        final int first = (int) fragment.fragmentStartingNum() - 1;
        slot.buffer.put(PAYLOAD_AT + first * slot.fragmentSize, fragment.buffer(), fragment.payloadOffset(),
            fragment.fragmentBytes());
        final int count = (fragment.fragmentBytes() + slot.fragmentSize - 1) / slot.fragmentSize;
        for (int i = first; i < first + count; i++)
        {
            slot.mark(i);
        }
        return slot.received == slot.totalFragments ? complete(slot) : null;
    }

    /** The context of the first fragment of the sample {@link #onFragment} last completed (valid as long). */
    public ReceiveContext assembledContext()
    {
        return assembledContext;
    }

    /** Drops the samples in progress below {@code sn} (settled: delivered, or declared irrelevant). */
    public void dropBelow(final long sn)
    {
        for (final Slot s : slots)
        {
            if (s.sn != EMPTY && s.sn < sn)
            {
                s.clear();
            }
        }
    }

    /** Drops the sample {@code sn} if it is in progress. */
    public void drop(final long sn)
    {
        final Slot s = find(sn);
        if (s != null)
        {
            s.clear();
        }
    }

    /** Whether some fragments of {@code sn}, not all, came. */
    public boolean isInProgress(final long sn)
    {
        return find(sn) != null;
    }

    /** The lowest sample in progress at or above {@code from}, or -1. */
    public long nextInProgress(final long from)
    {
        long best = -1;
        for (final Slot s : slots)
        {
            if (s.sn != EMPTY && s.sn >= from && (best < 0 || s.sn < best))
            {
                best = s.sn;
            }
        }
        return best;
    }

    /**
     * Fills {@code bitmap} (8 ints, MSB first) with the fragments sample {@code sn} misses, from the first missing
     * one (returned by {@link #missingBase(long)}) over at most 256 fragments; returns the bitmap's length in bits, 0
     * when {@code sn} is not in progress.
     */
    public int missingFragments(final long sn, final int[] bitmap)
    {
        java.util.Arrays.fill(bitmap, 0);
        final Slot s = find(sn);
        if (s == null)
        {
            return 0;
        }
        final int base = s.firstMissing();
        int numBits = 0;
        for (int i = 0; i < SequenceWindow.BITS && base + i < s.totalFragments; i++)
        {
            if (!s.has(base + i))
            {
                bitmap[i >>> 5] |= 0x8000_0000 >>> (i & 31);
                numBits = i + 1;
            }
        }
        return numBits;
    }

    /** The 1-based number of the first fragment sample {@code sn} misses (the NACK_FRAG base); 1 if not in progress. */
    public int missingBase(final long sn)
    {
        final Slot s = find(sn);
        return s == null ? 1 : s.firstMissing() + 1;
    }

    /** How many samples are in progress. */
    public int inProgress()
    {
        int n = 0;
        for (final Slot s : slots)
        {
            n += s.sn != EMPTY ? 1 : 0;
        }
        return n;
    }

    /** The bytes the slots' buffers hold now (at most the bound given). */
    public long bufferedBytes()
    {
        long total = 0;
        for (final Slot s : slots)
        {
            total += s.buffer == null ? 0 : s.buffer.capacity();
        }
        return total;
    }

    /** Fragments ignored so far: sizes that disagree with their sample's, samples too large or without room. */
    public long rejected()
    {
        return rejected;
    }

    private Slot find(final long sn)
    {
        if (sn == EMPTY)
        {
            return null;
        }
        for (final Slot s : slots)
        {
            if (s.sn == sn)
            {
                return s;
            }
        }
        return null;
    }

    /** A slot for the new sample of {@code fragment}, its buffer large enough; null when it cannot be taken. */
    private Slot start(final ReceiveContext context, final DataFragView fragment)
    {
        final long needed = PAYLOAD_AT + fragment.sampleSize();
        if (needed > maxBytes || fragment.sampleSize() < 4 || fragment.totalFragments() > MAX_FRAGMENTS)
        {
            rejected++;
            return null;
        }
        Slot slot = leastRecent(true);
        if (slot.sn != EMPTY)
        {
            slot.clear(); // every slot busy: the sample that waited longest goes
        }
        if (slot.buffer == null || slot.buffer.capacity() < needed)
        {
            // a power of two (within the bound), so that samples of varying sizes reuse the buffers
            final long size = Math.min(maxBytes, Long.highestOneBit(needed - 1) << 1);
            slot.buffer = null;
            makeRoom(size);
            slot.buffer = ByteBuffer.allocate((int) size);
        }
        slot.begin(fragment, context);
        return slot;
    }

    /** Frees idle buffers, then the least recent samples' buffers, until {@code needed} more bytes fit the bound. */
    private void makeRoom(final long needed)
    {
        while (bufferedBytes() + needed > maxBytes)
        {
            final Slot victim = leastRecent(false);
            if (victim == null)
            {
                return; // only the new slot remains, and needed <= maxBytes
            }
            victim.clear();
            victim.buffer = null;
        }
    }

    /**
     * The free slot (with the largest buffer) or, when none is free and {@code anySlot}, the least recently used;
     * with {@code anySlot} false, the free slot holding a buffer, else the least recent busy one with a buffer.
     */
    private Slot leastRecent(final boolean anySlot)
    {
        Slot best = null;
        for (final Slot s : slots)
        {
            if (!anySlot && s.buffer == null)
            {
                continue;
            }
            if (best == null || rank(s) < rank(best))
            {
                best = s;
            }
        }
        return best;
    }

    /** Free slots first (larger buffers before smaller), then busy ones by their last fragment's arrival. */
    private static long rank(final Slot s)
    {
        if (s.sn == EMPTY)
        {
            return Long.MIN_VALUE + (Integer.MAX_VALUE - (s.buffer == null ? 0 : s.buffer.capacity()));
        }
        return s.lastUsed;
    }

    private DataView complete(final Slot slot)
    {
        final int bodyStart = PAYLOAD_AT - slot.qosLength - 20;
        DataView.writeFixedPart(slot.buffer, bodyStart, slot.little, slot.readerId, slot.writerId, slot.sn);
        int flags = slot.key ? SubmessageKind.FLAG_KEY : SubmessageKind.FLAG_DATA;
        flags |= slot.little ? SubmessageKind.FLAG_LITTLE_ENDIAN : 0;
        flags |= slot.qosLength > 0 ? SubmessageKind.FLAG_INLINE_QOS : 0;
        final boolean valid = assembled.wrapBody(slot.buffer, bodyStart, 20 + slot.qosLength + slot.sampleSize,
            flags);
        slot.clear();
        assembledContext = slot.context;
        if (!valid)
        {
            rejected++;
            return null;
        }
        return assembled;
    }

    /** One sample in progress: its numbers, the fragments it got, its bytes (payload at {@link #PAYLOAD_AT}). */
    private static final class Slot
    {
        final ReceiveContext context = new ReceiveContext();
        long sn = EMPTY;
        int sampleSize;
        int fragmentSize;
        int totalFragments;
        int received;
        int qosLength;
        boolean little = true;
        boolean key;
        int readerId;
        int writerId;
        long lastUsed;
        long[] got = new long[1];
        ByteBuffer buffer;

        void begin(final DataFragView f, final ReceiveContext from)
        {
            sn = f.sequenceNumber();
            sampleSize = (int) f.sampleSize();
            fragmentSize = f.fragmentSize();
            totalFragments = (int) f.totalFragments();
            received = 0;
            qosLength = 0;
            little = f.isLittleEndian();
            key = f.hasKey();
            readerId = f.readerId();
            writerId = f.writerId();
            final int words = (totalFragments + 63) >>> 6;
            if (got.length < words)
            {
                got = new long[words];
            }
            java.util.Arrays.fill(got, 0, words, 0);
            context.copyFrom(from);
        }

        void mark(final int fragment)
        {
            final long bit = 1L << (fragment & 63);
            if ((got[fragment >>> 6] & bit) == 0)
            {
                got[fragment >>> 6] |= bit;
                received++;
            }
        }

        boolean has(final int fragment)
        {
            return (got[fragment >>> 6] & (1L << (fragment & 63))) != 0;
        }

        int firstMissing()
        {
            int i = 0;
            while (i < totalFragments && has(i))
            {
                i++;
            }
            return i;
        }

        void clear()
        {
            sn = EMPTY;
        }
    }
}
