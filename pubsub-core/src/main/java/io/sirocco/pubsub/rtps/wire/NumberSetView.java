package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/**
 * A SequenceNumberSet or FragmentNumberSet (DDSI-RTPS 2.5, 9.4.2.6/9.4.2.8): a base, {@code numBits} (at most
 * 256) and {@code ceil(numBits/32)} uint32 words, most significant bit first; bit {@code i} stands for
 * {@code base + i}. A view over the received bytes; confined to the receive loop's thread.
 */
public final class NumberSetView
{
    /** The largest bitmap the spec allows. */
    public static final int MAX_BITS = 256;

    private ByteBuffer buffer;
    private boolean little;
    private long base;
    private int numBits;
    private int bitmapOffset;
    private int end;

    /** A SequenceNumberSet at {@code offset}: base is a SequenceNumber_t, at least {@code minBase}. */
    MalformedReason wrapSequenceSet(final ByteBuffer b, final int offset, final int limit, final boolean little,
        final long minBase)
    {
        if (limit - offset < 12)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        return wrapBits(b, offset + 8, limit, little, WireBytes.sequenceNumber(b, offset, little), minBase);
    }

    /** A FragmentNumberSet at {@code offset}: base is a uint32, at least 1. */
    MalformedReason wrapFragmentSet(final ByteBuffer b, final int offset, final int limit, final boolean little)
    {
        if (limit - offset < 8)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        return wrapBits(b, offset + 4, limit, little, WireBytes.uint32(b, offset, little), 1);
    }

    private MalformedReason wrapBits(final ByteBuffer b, final int numBitsOffset, final int limit,
        final boolean little, final long base, final long minBase)
    {
        final long bits = WireBytes.uint32(b, numBitsOffset, little);
        if (base < minBase || bits > MAX_BITS)
        {
            return MalformedReason.BAD_NUMBER_SET;
        }
        final int words = (int) ((bits + 31) >>> 5);
        if (limit - numBitsOffset - 4 < words * 4)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        this.buffer = b;
        this.little = little;
        this.base = base;
        this.numBits = (int) bits;
        this.bitmapOffset = numBitsOffset + 4;
        this.end = bitmapOffset + words * 4;
        return null;
    }

    public long base()
    {
        return base;
    }

    public int numBits()
    {
        return numBits;
    }

    /** Whether bit {@code i} (0 &le; i &lt; numBits) is set, i.e. {@code base + i} is in the set. */
    public boolean bit(final int i)
    {
        if (i < 0 || i >= numBits)
        {
            return false;
        }
        final int word = WireBytes.int32(buffer, bitmapOffset + ((i >>> 5) << 2), little);
        return (word & (0x8000_0000 >>> (i & 31))) != 0;
    }

    /** Whether {@code n} is in the set. */
    public boolean contains(final long n)
    {
        final long i = n - base;
        return i >= 0 && i < numBits && bit((int) i);
    }

    /** The offset just past the bitmap. */
    int end()
    {
        return end;
    }
}
