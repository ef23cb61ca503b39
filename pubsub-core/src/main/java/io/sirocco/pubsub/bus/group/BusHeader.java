package io.sirocco.pubsub.bus.group;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import io.sirocco.pubsub.bus.BusMessage;

/**
 * Flyweight over the 56-byte header that starts every message of a topic subgroup, followed by the serialized
 * payload. Wrap a segment (a claimed slot, a delivered payload, a held copy), then read or write the fields by name.
 * Unaligned, in the platform byte order of {@link ValueLayout}:
 *
 * <pre>
 *   0                   4                   8
 *   +-------------------+-------------------+
 *   | kind (int)        | payload length    |   kind: BusMessage.KIND_*; payload length in bytes
 *   +-------------------+-------------------+
 *   | writer GUID (long)                    | 8
 *   | sequence number (long)                | 16
 *   | source timestamp, ns (long)           | 24
 *   | key hash, high half (long)            | 32
 *   | key hash, low half (long)             | 40
 *   | target reader GUID (long, 0 = all)    | 48
 *   +---------------------------------------+ 56: payload
 * </pre>
 *
 * <p>Not thread-safe: each thread that parses or builds messages owns its flyweight (the predicate thread one per
 * channel, a writer one used under its send lock).
 */
final class BusHeader
{
    static final int KIND_OFFSET = 0;
    static final int PAYLOAD_LENGTH_OFFSET = 4;
    static final int WRITER_GUID_OFFSET = 8;
    static final int SEQ_OFFSET = 16;
    static final int SOURCE_TIME_OFFSET = 24;
    static final int KEY_HASH_HI_OFFSET = 32;
    static final int KEY_HASH_LO_OFFSET = 40;
    static final int TARGET_OFFSET = 48;
    /** The header's length: the payload starts here. */
    static final int LENGTH = 56;

    private MemorySegment segment;

    /** Points this flyweight at the header at the start of {@code segment}. */
    BusHeader wrap(final MemorySegment segment)
    {
        this.segment = segment;
        return this;
    }

    int kind()
    {
        return segment.get(ValueLayout.JAVA_INT_UNALIGNED, KIND_OFFSET);
    }

    int payloadLength()
    {
        return segment.get(ValueLayout.JAVA_INT_UNALIGNED, PAYLOAD_LENGTH_OFFSET);
    }

    long writerGuid()
    {
        return segment.get(ValueLayout.JAVA_LONG_UNALIGNED, WRITER_GUID_OFFSET);
    }

    long seq()
    {
        return segment.get(ValueLayout.JAVA_LONG_UNALIGNED, SEQ_OFFSET);
    }

    long sourceTimeNs()
    {
        return segment.get(ValueLayout.JAVA_LONG_UNALIGNED, SOURCE_TIME_OFFSET);
    }

    long keyHashHi()
    {
        return segment.get(ValueLayout.JAVA_LONG_UNALIGNED, KEY_HASH_HI_OFFSET);
    }

    long keyHashLo()
    {
        return segment.get(ValueLayout.JAVA_LONG_UNALIGNED, KEY_HASH_LO_OFFSET);
    }

    /** The reader this message is for, or 0 for every reader. */
    long target()
    {
        return segment.get(ValueLayout.JAVA_LONG_UNALIGNED, TARGET_OFFSET);
    }

    /** Writes the header fields of {@code message} with the given payload length and target (0: every reader). */
    void write(final BusMessage message, final int payloadLength, final long target)
    {
        segment.set(ValueLayout.JAVA_INT_UNALIGNED, KIND_OFFSET, message.kind());
        segment.set(ValueLayout.JAVA_INT_UNALIGNED, PAYLOAD_LENGTH_OFFSET, payloadLength);
        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, WRITER_GUID_OFFSET, message.writerGuid());
        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, SEQ_OFFSET, message.seq());
        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, SOURCE_TIME_OFFSET, message.sourceTimeNs());
        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, KEY_HASH_HI_OFFSET, message.keyHashHi());
        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, KEY_HASH_LO_OFFSET, message.keyHashLo());
        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, TARGET_OFFSET, target);
    }

    /** Copies the header fields into {@code message} (its payload is the caller's). */
    void readInto(final BusMessage message)
    {
        message.kind(kind()).writerGuid(writerGuid()).seq(seq()).sourceTimeNs(sourceTimeNs())
            .keyHash(keyHashHi(), keyHashLo());
    }
}
