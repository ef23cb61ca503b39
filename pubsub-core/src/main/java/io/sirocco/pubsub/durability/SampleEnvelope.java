package io.sirocco.pubsub.durability;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

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

    public static long seq(final byte[] envelope)
    {
        return ByteBuffer.wrap(envelope).order(ByteOrder.LITTLE_ENDIAN).getLong(SEQ);
    }
}
