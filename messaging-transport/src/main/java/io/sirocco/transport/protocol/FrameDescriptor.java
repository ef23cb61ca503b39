package io.sirocco.transport.protocol;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The layout of one frame on a connection's byte stream (little-endian):
 * <pre>
 *   0       1       2       3       4               8              12
 *   +-------+-------+-------+-------+---------------+---------------+--------------------+
 *   | magic | flags | type  |subtype|  request id   |payload length | payload ...        |
 *   +-------+-------+-------+-------+---------------+---------------+--------------------+
 *   flags: bits 0-1 kind (0 message, 1 request, 2 response, 3 padding), bit 2 ordered,
 *          bit 3 fragment, bit 4 first fragment, bit 5 last fragment, bits 6-7 zero.
 * </pre>
 * A message too large for one frame in the ring travels as fragment frames with the same header fields; the first
 * fragment's payload starts with the total payload length (an int). A padding frame is skipped by the receiver: it
 * replaces a frame whose export failed. A padding frame of type {@link #CREDIT_TYPE} with no payload is a
 * <b>credit frame</b>: its request-id field carries flow-control credits (in thresholds) for the opposite direction
 * of the same connection; the receiver applies them and delivers nothing. The TCP handshake that precedes the frames
 * is {@link io.sirocco.transport.protocol.HandshakeDescriptor}'s.
 */
public final class FrameDescriptor
{
    public static final int HEADER_LENGTH = 12;
    public static final byte MAGIC = (byte)0x5C;

    public static final int MAGIC_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int TYPE_OFFSET = 2;
    public static final int SUBTYPE_OFFSET = 3;
    public static final int REQUEST_ID_OFFSET = 4;
    public static final int PAYLOAD_LENGTH_OFFSET = 8;

    public static final int KIND_MASK = 0x3;
    public static final int KIND_MESSAGE = 0;
    public static final int KIND_REQUEST = 1;
    public static final int KIND_RESPONSE = 2;
    public static final int KIND_PADDING = 3;
    public static final int FLAG_ORDERED = 1 << 2;
    public static final int FLAG_FRAGMENT = 1 << 3;
    public static final int FLAG_FIRST = 1 << 4;
    public static final int FLAG_LAST = 1 << 5;
    public static final int FLAGS_RESERVED = 0xC0;

    /** The type byte of a credit frame (a padding frame with no payload, credits in the request-id field). */
    public static final int CREDIT_TYPE = 0xFF;

    public static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfChar CHAR = ValueLayout.JAVA_CHAR_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private FrameDescriptor()
    {
    }

    public static void writeHeader(
        final MemorySegment segment, final long offset, final int flags, final int type, final int subtype,
        final int requestId, final int payloadLength)
    {
        segment.set(ValueLayout.JAVA_BYTE, offset + MAGIC_OFFSET, MAGIC);
        segment.set(ValueLayout.JAVA_BYTE, offset + FLAGS_OFFSET, (byte)flags);
        segment.set(ValueLayout.JAVA_BYTE, offset + TYPE_OFFSET, (byte)type);
        segment.set(ValueLayout.JAVA_BYTE, offset + SUBTYPE_OFFSET, (byte)subtype);
        segment.set(INT, offset + REQUEST_ID_OFFSET, requestId);
        segment.set(INT, offset + PAYLOAD_LENGTH_OFFSET, payloadLength);
    }

    /** Writes a credit frame carrying {@code credits} thresholds at {@code offset}. */
    public static void writeCreditFrame(final MemorySegment segment, final long offset, final int credits)
    {
        writeHeader(segment, offset, KIND_PADDING, CREDIT_TYPE, 0, credits, 0);
    }

    public static int kind(final int flags)
    {
        return flags & KIND_MASK;
    }
}
