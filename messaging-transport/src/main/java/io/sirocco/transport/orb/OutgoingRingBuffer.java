package io.sirocco.transport.orb;

import io.sirocco.transport.Message;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

import io.sirocco.transport.flow.FlowControl;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * The outgoing ring buffer (ORB) of one connection: off-heap, many producer threads, one consumer at a time.
 *
 * <p><b>Positions.</b> Byte positions are wrapping 32-bit counters taken modulo the (power of two) capacity.
 * {@code frontProducer} packs (catch-up slot, reserve position) in one long, so one CAS reserves both a byte range
 * and a catch-up slot. {@code frontConsumer} packs (catch-up slot, commit position): bytes before its position are
 * serialized and sendable. {@code back} is the consumer's position: bytes before it are sent and free.
 *
 * <p><b>Producers</b> (any thread): reserve with one CAS on {@code frontProducer} (retry at once on a lost CAS,
 * wait through {@link RingSignals#awaitProgress} when the ring or the catch-up buffer is full), serialize straight
 * into the ring, then commit. A producer whose predecessors are all committed moves {@code frontConsumer} over its
 * frame with one CAS; otherwise it leaves a note (slot, size) in the catch-up buffer and returns at once: a slow
 * producer never blocks the ones behind it. Whoever moves {@code frontConsumer} then claims the notes that follow
 * (CAS on the note, so exactly one thread advances per slot; the slot number inside the note defeats ABA after the
 * catch-up buffer wraps). The note store and the {@code frontConsumer} CAS are both volatile, so either the note's
 * writer sees the advanced front and claims its own note, or the advancing thread sees the note.
 *
 * <p><b>Consumer</b> (the transport thread, or a sender holding {@link #tryLockConsumer()}): reads
 * {@code frontConsumer} with acquire, sends {@code [back, commit position)} (two pieces when it wraps), and
 * publishes the new {@code back} with release; producers read {@code back} with acquire before reusing space.
 *
 * <p><b>Memory</b> is allocated on the first reservation, not with the ring: a connection that never sends (a
 * peer's hello with no traffic back) costs no native memory. The allocating producer publishes {@code memory}
 * with a volatile store before its reservation CAS, so every later producer sees it (volatile read) and the consumer
 * sees it through its acquire of {@code frontConsumer}. It is freed by the garbage collector ({@code Arena.ofAuto}).
 *
 * <p><b>Large messages</b> (frame larger than half the ring) go as fragment frames ({@link FragmentedWrite}); one
 * large message per ring at a time ({@code largeWriter}), while small messages keep flowing between its fragments.
 */
public final class OutgoingRingBuffer implements FrameReservations
{
    private static final VarHandle FRONT_PRODUCER;
    private static final VarHandle FRONT_CONSUMER;
    private static final VarHandle BACK;
    private static final VarHandle NOTES = MethodHandles.arrayElementVarHandle(long[].class);

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            FRONT_PRODUCER = lookup.findVarHandle(OutgoingRingBuffer.class, "frontProducer", long.class);
            FRONT_CONSUMER = lookup.findVarHandle(OutgoingRingBuffer.class, "frontConsumer", long.class);
            BACK = lookup.findVarHandle(OutgoingRingBuffer.class, "back", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Allocated on the first reservation (see the class comment); null until then. */
    private volatile RingMemory memory;
    private final Object allocationLock = new Object();
    private final LongConsumer onAllocate;
    private final int capacity;
    private final int mask;
    private final int maxFrameBytes;
    private final long[] notes;
    private final int noteMask;
    private final AtomicBoolean largeWriter = new AtomicBoolean();
    private final AtomicInteger consumerLock = new AtomicInteger();

    @SuppressWarnings("unused") private volatile long frontProducer;
    @SuppressWarnings("unused") private volatile long frontConsumer;
    @SuppressWarnings("unused") private volatile int back;
    private volatile boolean closed;

    public OutgoingRingBuffer(final int capacity, final int catchUpEntries)
    {
        this(capacity, catchUpEntries, bytes -> { });
    }

    /** {@code onAllocate} is told the native bytes when the ring's memory is allocated (once, by a producer). */
    public OutgoingRingBuffer(final int capacity, final int catchUpEntries, final LongConsumer onAllocate)
    {
        if (Integer.bitCount(capacity) != 1 || capacity < 1024 || capacity > (1 << 30))
        {
            throw new IllegalArgumentException("ring capacity must be a power of two in [1 KiB, 1 GiB]: " + capacity);
        }
        if (Integer.bitCount(catchUpEntries) != 1)
        {
            throw new IllegalArgumentException("catch-up entries must be a power of two: " + catchUpEntries);
        }
        this.onAllocate = onAllocate;
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.maxFrameBytes = capacity / 2;
        this.notes = new long[catchUpEntries];
        this.noteMask = catchUpEntries - 1;
    }

    /** Producers, before their first reservation: allocates the memory once (cold path, once per ring). */
    private RingMemory allocate()
    {
        synchronized (allocationLock)
        {
            RingMemory allocated = memory;
            if (allocated == null)
            {
                allocated = new RingMemory(Arena.ofAuto().allocate(capacity, 64));
                memory = allocated; // volatile: published before this producer's reservation CAS
                onAllocate.accept(capacity);
            }
            return allocated;
        }
    }

    /** True once a producer made the first reservation. */
    public boolean allocated()
    {
        return memory != null;
    }

    private static long pack(final int slot, final int position)
    {
        return ((long)slot << 32) | (position & 0xFFFF_FFFFL);
    }

    private static int slot(final long packed)
    {
        return (int)(packed >>> 32);
    }

    private static int position(final long packed)
    {
        return (int)packed;
    }

    @Override
    public MemorySegment segment()
    {
        return memory.segment; // callers hold a reservation, so the memory exists
    }

    @Override
    public int start(final long reservation)
    {
        return position(reservation);
    }

    @Override
    public void flags(final long reservation, final byte flags)
    {
        memory.segment.set(ValueLayout.JAVA_BYTE, (position(reservation) + FLAGS_OFFSET) & mask, flags);
    }

    @Override
    public int capacity()
    {
        return capacity;
    }

    /** Frames up to this size go whole; larger messages are fragmented. */
    @Override
    public int maxFrameBytes()
    {
        return maxFrameBytes;
    }

    public boolean isClosed()
    {
        return closed;
    }

    /** Wakes waiting producers; they fail through their {@link RingSignals#awaitProgress}. */
    public void close()
    {
        closed = true;
    }

    // ------------------------------------------------------------------ producers

    /**
     * Serializes one message (header and payload) into the ring and commits it. Any thread.
     *
     * @throws IllegalStateException if the message's export does not write exactly {@code payloadSize()} bytes
     *         (the frame becomes padding; the connection stays usable)
     */
    public void write(
        final Message message, final int kind, final int requestId, final FlowControl flow, final RingSignals signals)
    {
        final int payload = message.payloadSize();
        if (payload < 0)
        {
            throw new IllegalStateException(message.getClass().getName() + ".payloadSize() is negative: " + payload);
        }
        final int flags = kind | (message.ordered() ? FLAG_ORDERED : 0);
        if (payload <= maxFrameBytes - HEADER_LENGTH)
        {
            writeWhole(message, flags, requestId, payload, flow, signals);
        }
        else
        {
            writeFragmented(message, flags, requestId, payload, flow, signals);
        }
    }

    private void writeWhole(
        final Message message, final int flags, final int requestId, final int payload, final FlowControl flow,
        final RingSignals signals)
    {
        final int frame = HEADER_LENGTH + payload;
        final long reservation = reserve(frame, flow, signals);
        final int start = position(reservation);
        final MemorySegment ring = memory.segment;
        final RingExporter exporter = RingExporter.forThread();
        exporter.wrap(ring, capacity, start, start + frame, null);
        Throwable failure = null;
        try
        {
            writeHeader(exporter, flags, message, requestId, payload);
            message.exportPayload(exporter);
            if (exporter.position() != exporter.limit())
            {
                failure = ExportFailures.sizeMismatch(message, payload, exporter.position() - start - HEADER_LENGTH);
            }
        }
        catch (final ExportOverflowException e)
        {
            failure = ExportFailures.sizeMismatch(message, payload, -1);
        }
        catch (final RuntimeException | Error e)
        {
            failure = e;
        }
        finally
        {
            exporter.release();
        }
        if (failure != null)
        {
            ring.set(ValueLayout.JAVA_BYTE, (start + FLAGS_OFFSET) & mask, (byte)KIND_PADDING);
        }
        commit(reservation, frame);
        signals.framesCommitted();
        if (failure != null)
        {
            throw ExportFailures.thrown(message, failure);
        }
    }

    private static void writeHeader(
        final RingExporter exporter, final int flags, final Message message, final int requestId, final int payload)
    {
        exporter.writeByte(MAGIC);
        exporter.writeByte((byte)flags);
        exporter.writeByte((byte)message.type());
        exporter.writeByte((byte)message.subtype());
        exporter.writeInt(requestId);
        exporter.writeInt(payload);
    }

    /**
     * Any thread, a hint: whether a message of {@code payload} bytes would be written now without waiting for the
     * flow-control window, ring space or a frame slot (another producer may take the room first). Fragmented
     * messages (larger than one frame) report false.
     */
    public boolean canWriteNow(final int payload, final FlowControl flow)
    {
        if (closed || payload > maxFrameBytes - HEADER_LENGTH || !flow.windowOpen())
        {
            return false;
        }
        final long front = (long)FRONT_PRODUCER.getVolatile(this);
        final int free = capacity - (position(front) - (int)BACK.getAcquire(this));
        return free >= HEADER_LENGTH + payload
            && slot(front) - slot((long)FRONT_CONSUMER.getVolatile(this)) < notes.length;
    }

    @Override
    public long reserve(final int frame, final FlowControl flow, final RingSignals signals)
    {
        if (memory == null)
        {
            allocate();
        }
        int attempt = 0;
        while (!flow.windowOpen())
        {
            signals.awaitProgress(attempt++);
        }
        flow.posted(frame);
        while (true)
        {
            if (closed)
            {
                signals.awaitProgress(attempt++); // throws: the connection is gone
            }
            final long front = (long)FRONT_PRODUCER.getVolatile(this);
            final int position = position(front);
            final int slot = slot(front);
            final int free = capacity - (position - (int)BACK.getAcquire(this));
            if (free < frame || slot - slot((long)FRONT_CONSUMER.getVolatile(this)) >= notes.length)
            {
                signals.awaitProgress(attempt++);
                continue;
            }
            if (FRONT_PRODUCER.compareAndSet(this, front, pack(slot + 1, position + frame)))
            {
                return front;
            }
            // lost the CAS to another producer: retry at once with fresh values
        }
    }

    @Override
    public void commit(final long reservation, final int frame)
    {
        final int slot = slot(reservation);
        if (!FRONT_CONSUMER.compareAndSet(this, reservation, pack(slot + 1, position(reservation) + frame)))
        {
            NOTES.setVolatile(notes, slot & noteMask, pack(slot, frame)); // a predecessor is still serializing
        }
        catchUp();
    }

    private void catchUp()
    {
        while (true)
        {
            final long front = (long)FRONT_CONSUMER.getVolatile(this);
            final int slot = slot(front);
            final int index = slot & noteMask;
            final long note = (long)NOTES.getVolatile(notes, index);
            if (note == 0 || slot(note) != slot)
            {
                return;
            }
            if (NOTES.compareAndSet(notes, index, note, 0L))
            {
                // Claiming the note makes this thread the only one that may move the front past this slot.
                FRONT_CONSUMER.setVolatile(this, pack(slot + 1, position(front) + position(note)));
            }
        }
    }

    private void writeFragmented(
        final Message message, final int flags, final int requestId, final int payload, final FlowControl flow,
        final RingSignals signals)
    {
        int attempt = 0;
        while (!largeWriter.compareAndSet(false, true))
        {
            signals.awaitProgress(attempt++);
        }
        try
        {
            FragmentedWrite.write(this, message, flags, requestId, payload, flow, signals);
        }
        finally
        {
            largeWriter.set(false);
        }
    }

    // ------------------------------------------------------------------ consumer

    /** One consumer at a time: the transport thread or a sender writing directly. */
    public boolean tryLockConsumer()
    {
        return consumerLock.get() == 0 && consumerLock.compareAndSet(0, 1);
    }

    public void unlockConsumer()
    {
        consumerLock.set(0);
    }

    /** Committed bytes not yet consumed. Consumer only (or any thread, as a hint). */
    public int readableBytes()
    {
        return position((long)FRONT_CONSUMER.getAcquire(this)) - (int)BACK.getAcquire(this);
    }

    /**
     * Aims the two reusable buffers at the readable bytes (two pieces if they wrap) for a gathering write;
     * returns how many pieces (0, 1 or 2). Consumer only.
     */
    public int prepareRead(final int maxBytes)
    {
        final int backPosition = (int)BACK.getAcquire(this);
        final int readable = Math.min(maxBytes, position((long)FRONT_CONSUMER.getAcquire(this)) - backPosition);
        if (readable <= 0)
        {
            return 0;
        }
        final int index = backPosition & mask;
        final int firstLength = Math.min(readable, capacity - index);
        final RingMemory ringMemory = memory; // readable bytes exist, so a producer allocated it before committing
        ringMemory.first.limit(index + firstLength).position(index);
        if (firstLength == readable)
        {
            return 1;
        }
        ringMemory.second.limit(readable - firstLength).position(0);
        return 2;
    }

    /** The buffers {@link #prepareRead} aimed (none before the memory exists). Consumer only. */
    public ByteBuffer[] pieces()
    {
        final RingMemory ringMemory = memory;
        return ringMemory == null ? RingMemory.NO_PIECES : ringMemory.pieces;
    }

    /** Copies up to {@code maxBytes} readable bytes to {@code destination}; returns the count. Consumer only. */
    public int copyTo(final MemorySegment destination, final long offset, final int maxBytes)
    {
        final int backPosition = (int)BACK.getAcquire(this);
        final int readable = Math.min(maxBytes, position((long)FRONT_CONSUMER.getAcquire(this)) - backPosition);
        if (readable <= 0)
        {
            return 0;
        }
        final int index = backPosition & mask;
        final int firstLength = Math.min(readable, capacity - index);
        final MemorySegment ring = memory.segment; // readable bytes exist, so the memory does
        MemorySegment.copy(ring, index, destination, offset, firstLength);
        if (firstLength < readable)
        {
            MemorySegment.copy(ring, 0, destination, offset + firstLength, readable - firstLength);
        }
        return readable;
    }

    /** Frees {@code bytes} sent bytes for producers. Consumer only. */
    public void consumed(final int bytes)
    {
        BACK.setRelease(this, (int)BACK.getAcquire(this) + bytes); // publishes the freed space to producers
    }
}
