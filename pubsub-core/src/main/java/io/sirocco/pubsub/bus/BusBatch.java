package io.sirocco.pubsub.bus;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Many samples of one writer in one bus message ({@link BusMessage#KIND_BATCH}): a directed history replay sends a
 * million samples as tens of thousands of messages instead of a million. The batch message's own header carries the
 * writer and the target reader; its payload is a run of records, each the per-sample header fields then the sample's
 * payload, in the platform byte order (as the bus header):
 *
 * <pre>
 *   0      4              8     16            24     32     40
 *   | kind | payload length | seq | sourceTimeNs | keyHi | keyLo | payload ... |
 * </pre>
 *
 * A bus that sends batches unpacks them before its readers see anything: a reader never receives a batch.
 *
 * <p>A stateless codec (static methods over the caller's messages; each caller owns its messages).
 */
public final class BusBatch
{
    /** The bytes of a record before its payload. */
    public static final int RECORD_HEADER = 40;

    private BusBatch()
    {
    }

    /** Starts {@code batch} as an empty batch of {@code writerGuid}, room for {@code capacity} payload bytes. */
    public static void start(final BusMessage batch, final long writerGuid, final int capacity)
    {
        batch.ensureCapacity(capacity);
        batch.kind(BusMessage.KIND_BATCH).writerGuid(writerGuid).seq(0).sourceTimeNs(0).keyHash(0, 0)
            .payloadLength(0);
    }

    /** Whether {@code sample} fits in {@code batch} within {@code capacity} payload bytes. */
    public static boolean fits(final BusMessage batch, final BusMessage sample, final int capacity)
    {
        return batch.payloadLength() + RECORD_HEADER + sample.payloadLength() <= capacity;
    }

    /** Appends {@code sample} (its kind, sequence number, time, key and payload) to {@code batch}; check fits first. */
    public static void append(final BusMessage batch, final BusMessage sample)
    {
        final int at = batch.payloadLength();
        final int length = sample.payloadLength();
        final MemorySegment to = batch.payloadSegment();
        to.set(ValueLayout.JAVA_INT_UNALIGNED, at, sample.kind());
        to.set(ValueLayout.JAVA_INT_UNALIGNED, at + 4, length);
        to.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 8, sample.seq());
        to.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 16, sample.sourceTimeNs());
        to.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 24, sample.keyHashHi());
        to.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 32, sample.keyHashLo());
        MemorySegment.copy(sample.payloadSegment(), 0, to, at + RECORD_HEADER, length);
        batch.payloadLength(at + RECORD_HEADER + length).seq(sample.seq());
    }

    /**
     * Reads the record at {@code offset} of a batch's payload {@code from[0, end)} into {@code to} (its writer set
     * by the caller).
     *
     * @return the offset of the next record, or -1 if the record is malformed (runs past {@code end}).
     */
    public static int read(final MemorySegment from, final int offset, final int end, final BusMessage to)
    {
        if (offset + RECORD_HEADER > end)
        {
            return -1;
        }
        final int length = from.get(ValueLayout.JAVA_INT_UNALIGNED, offset + 4);
        if (length < 0 || length > end - offset - RECORD_HEADER)
        {
            return -1;
        }
        to.kind(from.get(ValueLayout.JAVA_INT_UNALIGNED, offset)).seq(from.get(ValueLayout.JAVA_LONG_UNALIGNED,
            offset + 8)).sourceTimeNs(from.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 16))
            .keyHash(from.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 24),
                from.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 32));
        to.ensureCapacity(length);
        MemorySegment.copy(from, offset + RECORD_HEADER, to.payloadSegment(), 0, length);
        to.payloadLength(length);
        return offset + RECORD_HEADER + length;
    }
}
