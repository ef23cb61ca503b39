package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/**
 * One DATA submessage (DDSI-RTPS 2.5, 9.4.5.3): reader and writer EntityIds, the writer's sequence number, the
 * inline QoS (KeyHash, StatusInfo) and the serialized payload, which starts with its 4-byte encapsulation header
 * (representation id, options). EntityIds are octet arrays, read big-endian. A view over the received bytes, valid
 * only inside the handler call; reused, confined to the receive loop's thread.
 */
public final class DataView
{
    private static final int FIXED_LENGTH = 20;

    private final InlineQos inlineQos = new InlineQos();
    private ByteBuffer buffer;
    private int flags;
    private int readerId;
    private int writerId;
    private long sequenceNumber;
    private int payloadOffset;
    private int payloadLength;
    private int start;
    private int length;

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
        this.start = start;
        this.length = length;
        this.flags = flags;
        this.readerId = WireBytes.int32Be(b, start + 4);
        this.writerId = WireBytes.int32Be(b, start + 8);
        this.sequenceNumber = WireBytes.sequenceNumber(b, start + 12, little);
        if (sequenceNumber < 1)
        {
            return MalformedReason.BAD_SEQUENCE_NUMBER;
        }
        final MalformedReason qos = Payloads.inlineQos(inlineQos, b, qosStart, end, flags);
        if (qos != null)
        {
            return qos;
        }
        final boolean data = (flags & SubmessageKind.FLAG_DATA) != 0;
        final boolean key = (flags & SubmessageKind.FLAG_KEY) != 0;
        payloadOffset = inlineQos.end();
        payloadLength = data || key ? end - payloadOffset : 0;
        if ((data && key) || ((data || key) && payloadLength < Payloads.ENCAPSULATION_HEADER))
        {
            return MalformedReason.BAD_PAYLOAD;
        }
        return null;
    }

    /**
     * Copies this submessage's body into {@code to} at the same offset modulo 8 (so the payload's alignment is
     * kept), growing {@code to} only when it is too small; returns the buffer holding the copy. With
     * {@link #rewrap(ByteBuffer, int)} this keeps a sample past the handler call.
     */
    public ByteBuffer copyTo(final ByteBuffer to)
    {
        final int offset = start & 7;
        final ByteBuffer target = to != null && to.capacity() >= offset + length ? to
            : ByteBuffer.allocate(Math.max(offset + length, to == null ? 0 : to.capacity() * 2));
        target.put(offset, buffer, start, length);
        return target;
    }

    /** Where {@link #copyTo(ByteBuffer)} puts the body in its copy. */
    public int copyOffset()
    {
        return start & 7;
    }

    /** The length of the submessage body that {@link #copyTo(ByteBuffer)} copies. */
    public int bodyLength()
    {
        return length;
    }

    /**
     * Views a copy that {@link #copyTo(ByteBuffer)} made of a valid DATA, given its {@link #copyOffset()},
     * {@link #bodyLength()} and {@link #flags()}, as if it were received again.
     */
    public void rewrap(final ByteBuffer b, final int offset, final int bodyLength, final int dataFlags)
    {
        final MalformedReason reason = wrap(b, offset, bodyLength, dataFlags);
        if (reason != null)
        {
            throw new IllegalStateException("a copy of a valid DATA is malformed: " + reason);
        }
    }

    /**
     * Views the DATA body at {@code b[start, +length)} with submessage {@code dataFlags}, as if it were received
     * (a sample rebuilt from DATA_FRAG fragments); false, and the view unusable, when it is malformed.
     */
    public boolean wrapBody(final ByteBuffer b, final int start, final int length, final int dataFlags)
    {
        return wrap(b, start, length, dataFlags) == null;
    }

    /**
     * Writes the fixed part of a DATA body (20 bytes: extra flags, octetsToInlineQos, reader and writer EntityIds,
     * sequence number) at {@code b[start]} in the byte order of {@code little}, for {@link #wrapBody}.
     */
    public static void writeFixedPart(final ByteBuffer b, final int start, final boolean little, final int readerId,
        final int writerId, final long sn)
    {
        b.putShort(start, (short) 0);
        b.put(start + 2, (byte) (little ? 16 : 0));
        b.put(start + 3, (byte) (little ? 0 : 16));
        WireBytes.putInt32Be(b, start + 4, readerId);
        WireBytes.putInt32Be(b, start + 8, writerId);
        if (little)
        {
            WireBytes.putSequenceNumberLe(b, start + 12, sn);
        }
        else
        {
            WireBytes.putInt64Be(b, start + 12, sn);
        }
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

    /** True when the payload is the serialized data (D flag). */
    public boolean hasData()
    {
        return (flags & SubmessageKind.FLAG_DATA) != 0;
    }

    /** True when the payload is the serialized key only (K flag), as for a dispose or unregister. */
    public boolean hasKey()
    {
        return (flags & SubmessageKind.FLAG_KEY) != 0;
    }

    public InlineQos inlineQos()
    {
        return inlineQos;
    }

    public ByteBuffer buffer()
    {
        return buffer;
    }

    /** Offset of the serialized payload (its encapsulation header first); meaningful when it has data or key. */
    public int payloadOffset()
    {
        return payloadOffset;
    }

    /** Length of the serialized payload, including the encapsulation header and any trailing padding; 0 if none. */
    public int payloadLength()
    {
        return payloadLength;
    }

    /** The representation id of the payload's encapsulation (CDR_LE is 0x0001, PL_CDR_LE 0x0003, ...); -1 if none. */
    public int representation()
    {
        return payloadLength == 0 ? -1 : WireBytes.uint16(buffer, payloadOffset, false);
    }
}
