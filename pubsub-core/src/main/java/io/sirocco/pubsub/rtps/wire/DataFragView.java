package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/**
 * One DATA_FRAG submessage (DDSI-RTPS 2.5, 9.4.5.4): fragments {@code fragmentStartingNum ..
 * fragmentStartingNum + fragmentsInSubmessage - 1} (1-based) of a sample of {@code sampleSize} bytes cut in
 * {@code fragmentSize} pieces. The fragment bytes checked here are exactly the ones the numbers claim (the last
 * fragment may be short), so a reassembler can copy {@link #fragmentBytes()} to {@code (start - 1) * size} without
 * checking again. A view valid only inside the handler call; reused, confined to the receive loop's thread.
 */
public final class DataFragView
{
    private static final int FIXED_LENGTH = 32;

    private final InlineQos inlineQos = new InlineQos();
    private ByteBuffer buffer;
    private int flags;
    private int readerId;
    private int writerId;
    private long sequenceNumber;
    private long fragmentStartingNum;
    private int fragmentsInSubmessage;
    private int fragmentSize;
    private long sampleSize;
    private int payloadOffset;
    private int fragmentBytes;

    MalformedReason wrap(final ByteBuffer b, final int start, final int length, final int flags)
    {
        if (length < FIXED_LENGTH)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        final boolean little = (flags & SubmessageKind.FLAG_LITTLE_ENDIAN) != 0;
        final int end = start + length;
        final int qosStart = start + 4 + WireBytes.uint16(b, start + 2, little);
        if (qosStart < start + FIXED_LENGTH || qosStart > end)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        this.buffer = b;
        this.flags = flags;
        this.readerId = WireBytes.int32Be(b, start + 4);
        this.writerId = WireBytes.int32Be(b, start + 8);
        this.sequenceNumber = WireBytes.sequenceNumber(b, start + 12, little);
        this.fragmentStartingNum = WireBytes.uint32(b, start + 20, little);
        this.fragmentsInSubmessage = WireBytes.uint16(b, start + 24, little);
        this.fragmentSize = WireBytes.uint16(b, start + 26, little);
        this.sampleSize = WireBytes.uint32(b, start + 28, little);
        if (sequenceNumber < 1)
        {
            return MalformedReason.BAD_SEQUENCE_NUMBER;
        }
        final MalformedReason numbers = checkNumbers();
        if (numbers != null)
        {
            return numbers;
        }
        final MalformedReason qos = Payloads.inlineQos(inlineQos, b, qosStart, end, flags);
        if (qos != null)
        {
            return qos;
        }
        payloadOffset = inlineQos.end();
        final long offsetInSample = (fragmentStartingNum - 1) * fragmentSize;
        final long expected = Math.min((long) fragmentsInSubmessage * fragmentSize, sampleSize - offsetInSample);
        if (end - payloadOffset < expected)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        fragmentBytes = (int) expected;
        return null;
    }

    private MalformedReason checkNumbers()
    {
        if (fragmentStartingNum < 1 || fragmentsInSubmessage < 1 || fragmentSize < 1 || sampleSize < 1
            || (fragmentStartingNum - 1) * fragmentSize >= sampleSize)
        {
            return MalformedReason.BAD_FRAGMENT;
        }
        return null;
    }

    public int flags()
    {
        return flags;
    }

    public int readerId()
    {
        return readerId;
    }

    public int writerId()
    {
        return writerId;
    }

    public long sequenceNumber()
    {
        return sequenceNumber;
    }

    /** True when the fragments are of the serialized key (K flag), not of the data. */
    public boolean hasKey()
    {
        return (flags & SubmessageKind.FLAG_FRAG_KEY) != 0;
    }

    /** 1-based number of the first fragment carried. */
    public long fragmentStartingNum()
    {
        return fragmentStartingNum;
    }

    public int fragmentsInSubmessage()
    {
        return fragmentsInSubmessage;
    }

    public int fragmentSize()
    {
        return fragmentSize;
    }

    public long sampleSize()
    {
        return sampleSize;
    }

    /** How many fragments the whole sample has. */
    public long totalFragments()
    {
        return (sampleSize + fragmentSize - 1) / fragmentSize;
    }

    /** The length of this fragment's inline QoS (parameters and sentinel); 0 when it has none. */
    public int inlineQosLength()
    {
        return inlineQos.end() - inlineQos.offset();
    }

    /** Copies this fragment's inline QoS into {@code to} so that it ends just before {@code endAt}. */
    public void copyInlineQos(final ByteBuffer to, final int endAt)
    {
        final int length = inlineQosLength();
        to.put(endAt - length, buffer, inlineQos.offset(), length);
    }

    /** Whether the fixed part and the inline QoS are little endian (E flag). */
    public boolean isLittleEndian()
    {
        return (flags & SubmessageKind.FLAG_LITTLE_ENDIAN) != 0;
    }

    public InlineQos inlineQos()
    {
        return inlineQos;
    }

    public ByteBuffer buffer()
    {
        return buffer;
    }

    public int payloadOffset()
    {
        return payloadOffset;
    }

    /** The number of sample bytes this submessage carries, from {@code (fragmentStartingNum - 1) * fragmentSize}. */
    public int fragmentBytes()
    {
        return fragmentBytes;
    }
}
