package io.sirocco.pubsub.durability;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import io.sirocco.pubsub.bus.BusMessage;

/**
 * The layout of one durable sample in the log: the bus header fields a reader needs to take the sample as if the
 * writer had sent it, then the serialized payload. The log entry's own key is the history slot
 * ({@link DurableZoneWriter}) and its sequence the writer's sequence number.
 *
 * <pre>
 *  0      1      9             17       25       33
 *  | kind | seq  | sourceTimeNs | keyHi  | keyLo  | payload ... |
 * </pre>
 *
 * A stateless descriptor (offsets and static accessors); little-endian.
 */
public final class SampleEnvelope
{
    public static final int KIND = 0;
    public static final int SEQ = 1;
    public static final int SOURCE_TIME = 9;
    public static final int KEY_HI = 17;
    public static final int KEY_LO = 25;
    public static final int HEADER_BYTES = 33;

    private SampleEnvelope()
    {
    }

    public static void writeHeader(final ByteBuffer to, final int kind, final long seq, final long sourceTimeNs,
        final long keyHi, final long keyLo)
    {
        to.order(ByteOrder.LITTLE_ENDIAN).put(KIND, (byte)kind).putLong(SEQ, seq).putLong(SOURCE_TIME, sourceTimeNs)
            .putLong(KEY_HI, keyHi).putLong(KEY_LO, keyLo);
    }

    /** A message's header (with {@code kind}) and payload as an envelope (a new array). */
    public static byte[] of(final BusMessage message, final int kind)
    {
        final byte[] envelope = new byte[HEADER_BYTES + message.payloadLength()];
        writeHeader(ByteBuffer.wrap(envelope), kind, message.seq(), message.sourceTimeNs(),
            message.keyHashHi(), message.keyHashLo());
        System.arraycopy(message.payload(), 0, envelope, HEADER_BYTES, message.payloadLength());
        return envelope;
    }

    /** Fills {@code message} (header and payload) from an envelope of {@code writerGuid}. */
    public static void toMessage(final BusMessage message, final long writerGuid, final byte[] envelope)
    {
        final ByteBuffer header = ByteBuffer.wrap(envelope).order(ByteOrder.LITTLE_ENDIAN);
        final int length = envelope.length - HEADER_BYTES;
        message.ensureCapacity(length);
        System.arraycopy(envelope, HEADER_BYTES, message.payload(), 0, length);
        message.kind(header.get(KIND)).writerGuid(writerGuid).seq(header.getLong(SEQ))
            .sourceTimeNs(header.getLong(SOURCE_TIME)).keyHash(header.getLong(KEY_HI), header.getLong(KEY_LO))
            .payloadLength(length);
    }

    /** Fills {@code message} from the envelope {@code from[offset, offset + length)} (little-endian) of {@code writerGuid}. */
    public static void toMessage(final BusMessage message, final long writerGuid, final ByteBuffer from,
        final int offset, final int length)
    {
        final int payload = length - HEADER_BYTES;
        message.ensureCapacity(payload);
        from.get(offset + HEADER_BYTES, message.payload(), 0, payload);
        message.kind(from.get(offset + KIND)).writerGuid(writerGuid).seq(from.getLong(offset + SEQ))
            .sourceTimeNs(from.getLong(offset + SOURCE_TIME))
            .keyHash(from.getLong(offset + KEY_HI), from.getLong(offset + KEY_LO)).payloadLength(payload);
    }

    public static long seq(final byte[] envelope)
    {
        return ByteBuffer.wrap(envelope).order(ByteOrder.LITTLE_ENDIAN).getLong(SEQ);
    }
}
