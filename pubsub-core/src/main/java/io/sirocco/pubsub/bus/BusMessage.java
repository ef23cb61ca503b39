package io.sirocco.pubsub.bus;

import java.lang.foreign.MemorySegment;

/**
 * One sample (or instance-lifecycle message) as it travels on a topic's subgroup: a small fixed header and the
 * XCDR-serialized payload (encapsulation header first). Instances are reused: a writer fills one per write, and a
 * bus slot holds one per window entry; a {@link DeliveryHandler} may read it only during its callback.
 *
 * <p>Written by one thread at a time (the writer under its lock, or the bus under its slot lock); the bus's
 * hand-over (lock release / acquire) makes the contents visible to the delivery thread.
 */
public final class BusMessage
{
    /** The payload is a full sample. */
    public static final int KIND_DATA = 1;
    /** The writer disposed the instance; the payload holds the key (and may be a full sample). */
    public static final int KIND_DISPOSE = 2;
    /** The writer unregistered the instance; the payload holds the key. */
    public static final int KIND_UNREGISTER = 4;
    /** A directed TRANSIENT_LOCAL history replay ended; {@code seq} is the last sequence number it covered. */
    public static final int KIND_HISTORY_END = 8;

    /** Flag on a DATA/DISPOSE/UNREGISTER message sent as part of a directed TRANSIENT_LOCAL history replay. */
    public static final int KIND_HISTORY = 16;

    /**
     * Group bus only, never handed to a reader: the writer is closing and sent nothing after this in its topic
     * subgroup; its retraction, in the discovery subgroup, is applied only once this has been delivered (GroupBus).
     */
    public static final int KIND_WRITER_END = 32;

    /**
     * Flag on a live DATA/DISPOSE/UNREGISTER message written inside a coherent set of a Publisher with PRESENTATION
     * coherent_access at TOPIC or GROUP scope: a reader that requests coherent access holds it until the set's
     * {@link #KIND_COHERENT_END} from the same writer arrives (DDS 1.4 §2.2.3.6).
     */
    public static final int KIND_COHERENT = 64;

    /**
     * A writer's end of a coherent set: its payload is a {@link CoherentSetMark} (the publisher, the set, and how many
     * messages each writer of the publisher sent in it). Never stored in a reader's cache.
     */
    public static final int KIND_COHERENT_END = 128;

    /**
     * Bus only, never handed to a reader: many samples of one writer in one message ({@link BusBatch}), unpacked by
     * the receiving bus (a directed history replay of a recovered writer).
     */
    public static final int KIND_BATCH = 1 << 10;

    private int kind;
    private long writerGuid;
    private long seq;
    private long sourceTimeNs;
    private long keyHashHi;
    private long keyHashLo;
    private byte[] payload;
    private MemorySegment payloadSegment;
    private int payloadLength;

    public BusMessage(final int initialCapacity)
    {
        payload = new byte[Math.max(16, initialCapacity)];
        payloadSegment = MemorySegment.ofArray(payload);
    }

    public int kind()
    {
        return kind;
    }

    public BusMessage kind(final int kind)
    {
        this.kind = kind;
        return this;
    }

    public long writerGuid()
    {
        return writerGuid;
    }

    public BusMessage writerGuid(final long writerGuid)
    {
        this.writerGuid = writerGuid;
        return this;
    }

    public long seq()
    {
        return seq;
    }

    public BusMessage seq(final long seq)
    {
        this.seq = seq;
        return this;
    }

    public long sourceTimeNs()
    {
        return sourceTimeNs;
    }

    public BusMessage sourceTimeNs(final long sourceTimeNs)
    {
        this.sourceTimeNs = sourceTimeNs;
        return this;
    }

    public long keyHashHi()
    {
        return keyHashHi;
    }

    public long keyHashLo()
    {
        return keyHashLo;
    }

    public BusMessage keyHash(final long hi, final long lo)
    {
        keyHashHi = hi;
        keyHashLo = lo;
        return this;
    }

    /** The backing array; valid bytes are {@code [0, payloadLength())}. */
    public byte[] payload()
    {
        return payload;
    }

    /** A segment over the whole backing array, for codecs. */
    public MemorySegment payloadSegment()
    {
        return payloadSegment;
    }

    public int payloadLength()
    {
        return payloadLength;
    }

    public BusMessage payloadLength(final int length)
    {
        payloadLength = length;
        return this;
    }

    /** Grows the backing array (keeping nothing) so that {@code capacity} bytes fit. */
    public void ensureCapacity(final int capacity)
    {
        if (payload.length < capacity)
        {
            payload = new byte[Math.max(capacity, payload.length * 2)];
            payloadSegment = MemorySegment.ofArray(payload);
        }
    }

    /** Copies every field and the payload bytes of {@code other} into this message. */
    public void copyFrom(final BusMessage other)
    {
        kind = other.kind;
        writerGuid = other.writerGuid;
        seq = other.seq;
        sourceTimeNs = other.sourceTimeNs;
        keyHashHi = other.keyHashHi;
        keyHashLo = other.keyHashLo;
        ensureCapacity(other.payloadLength);
        System.arraycopy(other.payload, 0, payload, 0, other.payloadLength);
        payloadLength = other.payloadLength;
    }
}
