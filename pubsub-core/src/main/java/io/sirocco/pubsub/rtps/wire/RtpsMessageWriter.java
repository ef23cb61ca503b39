package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/**
 * Builds one RTPS datagram in a caller's buffer: the header, then submessages appended one by one, every one little
 * endian (E flag set) and padded to a multiple of 4. Each append returns false and writes nothing when the
 * submessage does not fit before the buffer's capacity, so a sender can flush and start a new datagram.
 *
 * <p>Allocation-free. Not thread-safe: one writer per sending thread, reused for every datagram.
 */
public final class RtpsMessageWriter
{
    /**
     * The vendor id Sirocco puts in its headers. 0x01xx ids are assigned by the OMG; until one is, Sirocco uses an
     * id from the experimental range that no registered vendor holds.
     */
    public static final int VENDOR_ID = 0x01ff;
    /** The protocol version Sirocco speaks: 2.5 (Cyclone 0.10 announces 2.1 and accepts 2.x). */
    public static final int VERSION_MAJOR = 2;
    public static final int VERSION_MINOR = 5;

    private static final int SUBMESSAGE_HEADER = 4;

    private final long prefixHigh;
    private final int prefixLow;
    private ByteBuffer buffer;
    private int position;

    /** A writer for the participant with GuidPrefix {@code prefixHigh}(8 bytes)+{@code prefixLow}(4 bytes). */
    public RtpsMessageWriter(final long prefixHigh, final int prefixLow)
    {
        this.prefixHigh = prefixHigh;
        this.prefixLow = prefixLow;
    }

    /** Starts a datagram at index 0 of {@code target} (at least 20 bytes), writing the header. */
    public RtpsMessageWriter begin(final ByteBuffer target)
    {
        this.buffer = target;
        target.put(0, (byte) 'R').put(1, (byte) 'T').put(2, (byte) 'P').put(3, (byte) 'S');
        target.put(4, (byte) VERSION_MAJOR).put(5, (byte) VERSION_MINOR);
        target.put(6, (byte) (VENDOR_ID >>> 8)).put(7, (byte) VENDOR_ID);
        WireBytes.putInt64Be(target, 8, prefixHigh);
        WireBytes.putInt32Be(target, 16, prefixLow);
        position = RtpsMessageReader.HEADER_LENGTH;
        return this;
    }

    /** Bytes written so far (the datagram's length). */
    public int length()
    {
        return position;
    }

    /** Whether only the header was written. */
    public boolean isEmpty()
    {
        return position == RtpsMessageReader.HEADER_LENGTH;
    }

    public boolean infoDestination(final long destHigh, final int destLow)
    {
        if (!fits(12))
        {
            return false;
        }
        final int body = header(SubmessageKind.INFO_DST, 0, 12);
        WireBytes.putInt64Be(buffer, body, destHigh);
        WireBytes.putInt32Be(buffer, body + 8, destLow);
        return true;
    }

    /** INFO_TS with an RTPS Time_t: seconds in the high 32 bits, 2^-32 s fraction in the low 32. */
    public boolean infoTimestamp(final long rtpsTime)
    {
        if (!fits(8))
        {
            return false;
        }
        final int body = header(SubmessageKind.INFO_TS, 0, 8);
        WireBytes.putInt32Le(buffer, body, (int) (rtpsTime >> 32));
        WireBytes.putInt32Le(buffer, body + 4, (int) rtpsTime);
        return true;
    }

    /**
     * DATA carrying {@code payload[payloadOffset, +payloadLength)} (encapsulation header first), as data or, when
     * {@code keyOnly}, as the serialized key. The inline QoS holds the KeyHash when {@code keyHash} is not null and
     * the StatusInfo when {@code statusInfo} is not 0; with neither there is none.
     */
    public boolean data(final int readerId, final int writerId, final long sn, final byte[] keyHash,
        final int statusInfo, final ByteBuffer payload, final int payloadOffset, final int payloadLength,
        final boolean keyOnly)
    {
        final int qosLength = inlineQosLength(keyHash, statusInfo);
        final int bodyLength = 20 + qosLength + pad4(payloadLength);
        if (!fits(bodyLength))
        {
            return false;
        }
        int flags = qosLength > 0 ? SubmessageKind.FLAG_INLINE_QOS : 0;
        if (payloadLength > 0)
        {
            flags |= keyOnly ? SubmessageKind.FLAG_KEY : SubmessageKind.FLAG_DATA;
        }
        final int body = header(SubmessageKind.DATA, flags, bodyLength);
        entityHeader(body, 16, readerId, writerId, sn);
        final int at = writeInlineQos(body + 20, keyHash, statusInfo);
        copyPadded(payload, payloadOffset, payloadLength, at);
        return true;
    }

    /**
     * DATA_FRAG carrying {@code fragmentCount} fragments of {@code fragmentSize} bytes from 1-based
     * {@code fragmentStart} of a {@code sampleSize}-byte sample; {@code payload[payloadOffset, +payloadLength)}
     * are those fragments' bytes. The KeyHash, when given, goes in the inline QoS.
     */
    public boolean dataFrag(final int readerId, final int writerId, final long sn, final int fragmentStart,
        final int fragmentCount, final int fragmentSize, final int sampleSize, final byte[] keyHash,
        final ByteBuffer payload, final int payloadOffset, final int payloadLength)
    {
        final int qosLength = inlineQosLength(keyHash, 0);
        final int bodyLength = 32 + qosLength + pad4(payloadLength);
        if (!fits(bodyLength))
        {
            return false;
        }
        final int body = header(SubmessageKind.DATA_FRAG, qosLength > 0 ? SubmessageKind.FLAG_INLINE_QOS : 0,
            bodyLength);
        entityHeader(body, 28, readerId, writerId, sn);
        WireBytes.putInt32Le(buffer, body + 20, fragmentStart);
        WireBytes.putUint16Le(buffer, body + 24, fragmentCount);
        WireBytes.putUint16Le(buffer, body + 26, fragmentSize);
        WireBytes.putInt32Le(buffer, body + 28, sampleSize);
        final int at = writeInlineQos(body + 32, keyHash, 0);
        copyPadded(payload, payloadOffset, payloadLength, at);
        return true;
    }

    public boolean heartbeat(final int readerId, final int writerId, final long firstSN, final long lastSN,
        final int count, final boolean isFinal, final boolean liveliness)
    {
        if (!fits(28))
        {
            return false;
        }
        final int flags = (isFinal ? SubmessageKind.FLAG_FINAL : 0) | (liveliness ? SubmessageKind.FLAG_LIVELINESS : 0);
        final int body = header(SubmessageKind.HEARTBEAT, flags, 28);
        WireBytes.putInt32Be(buffer, body, readerId);
        WireBytes.putInt32Be(buffer, body + 4, writerId);
        WireBytes.putSequenceNumberLe(buffer, body + 8, firstSN);
        WireBytes.putSequenceNumberLe(buffer, body + 16, lastSN);
        WireBytes.putInt32Le(buffer, body + 24, count);
        return true;
    }

    public boolean heartbeatFrag(final int readerId, final int writerId, final long sn, final int lastFragmentNum,
        final int count)
    {
        if (!fits(24))
        {
            return false;
        }
        final int body = header(SubmessageKind.HEARTBEAT_FRAG, 0, 24);
        WireBytes.putInt32Be(buffer, body, readerId);
        WireBytes.putInt32Be(buffer, body + 4, writerId);
        WireBytes.putSequenceNumberLe(buffer, body + 8, sn);
        WireBytes.putInt32Le(buffer, body + 16, lastFragmentNum);
        WireBytes.putInt32Le(buffer, body + 20, count);
        return true;
    }

    /**
     * ACKNACK: everything below {@code base} is acknowledged; {@code bitmap} (numBits bits, MSB first, one int per
     * 32) names the sequence numbers from {@code base} asked for again.
     */
    public boolean ackNack(final int readerId, final int writerId, final long base, final int numBits,
        final int[] bitmap, final int count, final boolean isFinal)
    {
        final int words = words(numBits);
        final int bodyLength = 8 + 12 + 4 * words + 4;
        if (!fits(bodyLength))
        {
            return false;
        }
        final int body = header(SubmessageKind.ACKNACK, isFinal ? SubmessageKind.FLAG_FINAL : 0, bodyLength);
        WireBytes.putInt32Be(buffer, body, readerId);
        WireBytes.putInt32Be(buffer, body + 4, writerId);
        WireBytes.putSequenceNumberLe(buffer, body + 8, base);
        final int end = bitmap(body + 16, numBits, bitmap);
        WireBytes.putInt32Le(buffer, end, count);
        return true;
    }

    /** NACK_FRAG: the set bits from 1-based fragment {@code base} of sample {@code sn} are missing. */
    public boolean nackFrag(final int readerId, final int writerId, final long sn, final int base, final int numBits,
        final int[] bitmap, final int count)
    {
        final int bodyLength = 16 + 8 + 4 * words(numBits) + 4;
        if (!fits(bodyLength))
        {
            return false;
        }
        final int body = header(SubmessageKind.NACK_FRAG, 0, bodyLength);
        WireBytes.putInt32Be(buffer, body, readerId);
        WireBytes.putInt32Be(buffer, body + 4, writerId);
        WireBytes.putSequenceNumberLe(buffer, body + 8, sn);
        WireBytes.putInt32Le(buffer, body + 16, base);
        final int end = bitmap(body + 20, numBits, bitmap);
        WireBytes.putInt32Le(buffer, end, count);
        return true;
    }

    /** GAP: {@code gapStart .. base - 1} and the set bits from {@code base} are irrelevant. */
    public boolean gap(final int readerId, final int writerId, final long gapStart, final long base,
        final int numBits, final int[] bitmap)
    {
        final int bodyLength = 16 + 12 + 4 * words(numBits);
        if (!fits(bodyLength))
        {
            return false;
        }
        final int body = header(SubmessageKind.GAP, 0, bodyLength);
        WireBytes.putInt32Be(buffer, body, readerId);
        WireBytes.putInt32Be(buffer, body + 4, writerId);
        WireBytes.putSequenceNumberLe(buffer, body + 8, gapStart);
        WireBytes.putSequenceNumberLe(buffer, body + 16, base);
        bitmap(body + 24, numBits, bitmap);
        return true;
    }

    private boolean fits(final int bodyLength)
    {
        return bodyLength <= 0xffff && buffer.capacity() - position >= SUBMESSAGE_HEADER + bodyLength;
    }

    /** Writes a submessage header with the E flag and returns the offset of its body. */
    private int header(final int id, final int flags, final int bodyLength)
    {
        buffer.put(position, (byte) id);
        buffer.put(position + 1, (byte) (flags | SubmessageKind.FLAG_LITTLE_ENDIAN));
        WireBytes.putUint16Le(buffer, position + 2, bodyLength);
        final int body = position + SUBMESSAGE_HEADER;
        position = body + bodyLength;
        return body;
    }

    private void entityHeader(final int body, final int octetsToInlineQos, final int readerId, final int writerId,
        final long sn)
    {
        WireBytes.putUint16Le(buffer, body, 0);
        WireBytes.putUint16Le(buffer, body + 2, octetsToInlineQos);
        WireBytes.putInt32Be(buffer, body + 4, readerId);
        WireBytes.putInt32Be(buffer, body + 8, writerId);
        WireBytes.putSequenceNumberLe(buffer, body + 12, sn);
    }

    private static int inlineQosLength(final byte[] keyHash, final int statusInfo)
    {
        if (keyHash == null && statusInfo == 0)
        {
            return 0;
        }
        return (keyHash != null ? 20 : 0) + (statusInfo != 0 ? 8 : 0) + 4;
    }

    private int writeInlineQos(final int at, final byte[] keyHash, final int statusInfo)
    {
        if (keyHash == null && statusInfo == 0)
        {
            return at;
        }
        int p = at;
        if (keyHash != null)
        {
            WireBytes.putUint16Le(buffer, p, ParameterId.KEY_HASH);
            WireBytes.putUint16Le(buffer, p + 2, 16);
            buffer.put(p + 4, keyHash, 0, 16);
            p += 20;
        }
        if (statusInfo != 0)
        {
            WireBytes.putUint16Le(buffer, p, ParameterId.STATUS_INFO);
            WireBytes.putUint16Le(buffer, p + 2, 4);
            WireBytes.putInt32Be(buffer, p + 4, statusInfo);
            p += 8;
        }
        WireBytes.putUint16Le(buffer, p, ParameterId.SENTINEL);
        WireBytes.putUint16Le(buffer, p + 2, 0);
        return p + 4;
    }

    private void copyPadded(final ByteBuffer src, final int offset, final int length, final int at)
    {
        if (length > 0)
        {
            buffer.put(at, src, offset, length);
        }
        for (int i = at + length; i < at + pad4(length); i++)
        {
            buffer.put(i, (byte) 0);
        }
    }

    private int bitmap(final int at, final int numBits, final int[] bitmap)
    {
        WireBytes.putInt32Le(buffer, at, numBits);
        final int words = words(numBits);
        for (int i = 0; i < words; i++)
        {
            WireBytes.putInt32Le(buffer, at + 4 + 4 * i, bitmap[i]);
        }
        return at + 4 + 4 * words;
    }

    private static int words(final int numBits)
    {
        return (numBits + 31) >>> 5;
    }

    private static int pad4(final int n)
    {
        return (n + 3) & ~3;
    }
}
