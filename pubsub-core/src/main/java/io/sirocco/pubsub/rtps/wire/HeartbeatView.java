package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/**
 * HEARTBEAT (DDSI-RTPS 2.5, 9.4.5.7): the writer has {@code firstSN..lastSN} available; {@code lastSN = firstSN - 1}
 * announces an empty history. HEARTBEAT_FRAG (9.4.5.8) says fragments up to {@code lastFragmentNum} of one
 * sample are available; it shares this view ({@link #isFragment()}). Reused, confined to the receive loop's thread.
 */
public final class HeartbeatView
{
    private int flags;
    private boolean fragment;
    private int readerId;
    private int writerId;
    private long firstSN;
    private long lastSN;
    private long lastFragmentNum;
    private int count;

    MalformedReason wrap(final ByteBuffer b, final int start, final int length, final int flags)
    {
        if (length < 28)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        final boolean little = (flags & SubmessageKind.FLAG_LITTLE_ENDIAN) != 0;
        this.flags = flags;
        this.fragment = false;
        this.readerId = WireBytes.int32Be(b, start);
        this.writerId = WireBytes.int32Be(b, start + 4);
        this.firstSN = WireBytes.sequenceNumber(b, start + 8, little);
        this.lastSN = WireBytes.sequenceNumber(b, start + 16, little);
        this.count = WireBytes.int32(b, start + 24, little);
        if (firstSN < 1 || lastSN < firstSN - 1)
        {
            return MalformedReason.BAD_SEQUENCE_NUMBER;
        }
        return null;
    }

    MalformedReason wrapFragment(final ByteBuffer b, final int start, final int length, final int flags)
    {
        if (length < 24)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        final boolean little = (flags & SubmessageKind.FLAG_LITTLE_ENDIAN) != 0;
        this.flags = flags;
        this.fragment = true;
        this.readerId = WireBytes.int32Be(b, start);
        this.writerId = WireBytes.int32Be(b, start + 4);
        this.firstSN = WireBytes.sequenceNumber(b, start + 8, little);
        this.lastSN = firstSN;
        this.lastFragmentNum = WireBytes.uint32(b, start + 16, little);
        this.count = WireBytes.int32(b, start + 20, little);
        if (firstSN < 1)
        {
            return MalformedReason.BAD_SEQUENCE_NUMBER;
        }
        return lastFragmentNum < 1 ? MalformedReason.BAD_FRAGMENT : null;
    }

    /** True for HEARTBEAT_FRAG: {@link #firstSN()} is the sample, {@link #lastFragmentNum()} its last fragment. */
    public boolean isFragment()
    {
        return fragment;
    }

    public boolean isFinal()
    {
        return !fragment && (flags & SubmessageKind.FLAG_FINAL) != 0;
    }

    public boolean isLiveliness()
    {
        return !fragment && (flags & SubmessageKind.FLAG_LIVELINESS) != 0;
    }

    public int readerId()
    {
        return readerId;
    }

    public int writerId()
    {
        return writerId;
    }

    public long firstSN()
    {
        return firstSN;
    }

    public long lastSN()
    {
        return lastSN;
    }

    public long lastFragmentNum()
    {
        return lastFragmentNum;
    }

    public int count()
    {
        return count;
    }
}
