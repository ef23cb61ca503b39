package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/**
 * ACKNACK (DDSI-RTPS 2.5, 9.4.5.2): the reader has everything below {@code readerSNState.base} and asks again for
 * the set bits; and NACK_FRAG (9.4.5.5): the reader misses the set fragments of one sample. One view for both
 * ({@link #isFragment()}). Reused, confined to the receive loop's thread.
 */
public final class AckNackView
{
    private final NumberSetView set = new NumberSetView();
    private int flags;
    private boolean fragment;
    private int readerId;
    private int writerId;
    private long writerSN;
    private int count;

    MalformedReason wrap(final ByteBuffer b, final int start, final int length, final int flags)
    {
        final boolean little = (flags & SubmessageKind.FLAG_LITTLE_ENDIAN) != 0;
        final int end = start + length;
        if (length < 8)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        this.flags = flags;
        this.fragment = false;
        this.readerId = WireBytes.int32Be(b, start);
        this.writerId = WireBytes.int32Be(b, start + 4);
        this.writerSN = 0;
        final MalformedReason r = set.wrapSequenceSet(b, start + 8, end, little, 1);
        return r != null ? r : readCount(b, end, little);
    }

    MalformedReason wrapNackFrag(final ByteBuffer b, final int start, final int length, final int flags)
    {
        final boolean little = (flags & SubmessageKind.FLAG_LITTLE_ENDIAN) != 0;
        final int end = start + length;
        if (length < 16)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        this.flags = flags;
        this.fragment = true;
        this.readerId = WireBytes.int32Be(b, start);
        this.writerId = WireBytes.int32Be(b, start + 4);
        this.writerSN = WireBytes.sequenceNumber(b, start + 8, little);
        if (writerSN < 1)
        {
            return MalformedReason.BAD_SEQUENCE_NUMBER;
        }
        final MalformedReason r = set.wrapFragmentSet(b, start + 16, end, little);
        return r != null ? r : readCount(b, end, little);
    }

    private MalformedReason readCount(final ByteBuffer b, final int end, final boolean little)
    {
        if (end - set.end() < 4)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        count = WireBytes.int32(b, set.end(), little);
        return null;
    }

    /** True for NACK_FRAG: {@link #set()} holds fragment numbers of sample {@link #writerSN()}. */
    public boolean isFragment()
    {
        return fragment;
    }

    public boolean isFinal()
    {
        return !fragment && (flags & SubmessageKind.FLAG_FINAL) != 0;
    }

    public int readerId()
    {
        return readerId;
    }

    public int writerId()
    {
        return writerId;
    }

    /** NACK_FRAG only: the sample whose fragments are asked for. */
    public long writerSN()
    {
        return writerSN;
    }

    /** ACKNACK: readerSNState; NACK_FRAG: fragmentNumberState. */
    public NumberSetView set()
    {
        return set;
    }

    public int count()
    {
        return count;
    }
}
