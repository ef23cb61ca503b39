package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/**
 * GAP (DDSI-RTPS 2.5, 9.4.5.6): the sequence numbers {@code gapStart .. gapList.base - 1} and the set bits of
 * {@code gapList} are irrelevant to the reader. The optional group fields of 2.4+ (G flag) are not read. Reused,
 * confined to the receive loop's thread.
 */
public final class GapView
{
    private final NumberSetView gapList = new NumberSetView();
    private int readerId;
    private int writerId;
    private long gapStart;

    MalformedReason wrap(final ByteBuffer b, final int start, final int length, final int flags)
    {
        if (length < 16)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        final boolean little = (flags & SubmessageKind.FLAG_LITTLE_ENDIAN) != 0;
        this.readerId = WireBytes.int32Be(b, start);
        this.writerId = WireBytes.int32Be(b, start + 4);
        this.gapStart = WireBytes.sequenceNumber(b, start + 8, little);
        if (gapStart < 1)
        {
            return MalformedReason.BAD_SEQUENCE_NUMBER;
        }
        return gapList.wrapSequenceSet(b, start + 16, start + length, little, gapStart);
    }

    public int readerId()
    {
        return readerId;
    }

    public int writerId()
    {
        return writerId;
    }

    public long gapStart()
    {
        return gapStart;
    }

    public NumberSetView gapList()
    {
        return gapList;
    }

    /** Whether {@code sn} is declared irrelevant by this GAP. */
    public boolean covers(final long sn)
    {
        return (sn >= gapStart && sn < gapList.base()) || gapList.contains(sn);
    }
}
