package io.sirocco.log.buffer;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.sirocco.log.disk.AlignedBuffers;

import static io.sirocco.log.buffer.WriteBufferDescriptor.*;

/**
 * The backup's write buffer: two halves, one filled by appending threads while the flusher sorts and writes the
 * other. Appenders reserve space by CAS on the active half's {@code reserved} word and count what they finished in
 * {@code committed}; the flusher seals a half by setting the sealed bit in {@code reserved} and waits until
 * {@code committed} equals the sealed length before reading it. Then it makes the other half active.
 *
 * <p>Memory ordering: record bytes are written plainly, then {@code committed.getAndAdd} (a full fence, so a
 * release) publishes them; the flusher reads {@code committed} with a volatile read (acquire) before the bytes.
 * {@code active} is a volatile field written only by the flusher. Many appenders, one flusher.
 */
public final class WriteBuffer
{
    private static final long SEALED = 1L << 62;

    private final Half[] halves;
    private volatile Half active;
    private volatile Thread flusher;

    public WriteBuffer(final int halfBytes)
    {
        halves = new Half[] {new Half(halfBytes), new Half(halfBytes)};
        active = halves[0];
    }

    public int halfCapacity()
    {
        return halves[0].data.capacity();
    }

    public void flusherThread(final Thread thread)
    {
        flusher = thread;
    }

    /**
     * Appends one record; blocks (parking) while both halves are full. {@code failed} is polled while waiting so a
     * failed store does not hang its writers.
     */
    public void append(
        final int zoneSlot,
        final long ticket,
        final int flags,
        final long keyHash,
        final long sequence,
        final ByteBuffer source,
        final int offset,
        final int length,
        final BooleanSupplier failed)
    {
        final int recordLength = HEADER_LENGTH + length;
        int idle = 0;
        while (true)
        {
            final Half half = active;
            final long reserved = half.reserved.get();
            if ((reserved & SEALED) != 0)
            {
                idle = idle(idle, failed);
                continue;
            }
            if (reserved + recordLength > half.data.capacity())
            {
                if (half.reserved.compareAndSet(reserved, reserved | SEALED))
                {
                    wakeFlusher();
                }
                continue;
            }
            if (!half.reserved.compareAndSet(reserved, reserved + recordLength))
            {
                continue;
            }
            final ByteBuffer data = half.data;
            final int p = (int)reserved;
            data.putInt(p + REC_LEN_OFFSET, recordLength)
                .putInt(p + ZONE_SLOT_OFFSET, zoneSlot)
                .putLong(p + TICKET_OFFSET, ticket)
                .put(p + FLAGS_OFFSET, (byte)flags)
                .putLong(p + KEY_HASH_OFFSET, keyHash)
                .putLong(p + SEQUENCE_OFFSET, sequence)
                .putInt(p + LENGTH_OFFSET, length);
            if (length > 0)
            {
                data.put(p + HEADER_LENGTH, source, offset, length);
            }
            half.committed.getAndAdd(recordLength); // publishes the record to the flusher
            return;
        }
    }

    private static int idle(final int idle, final BooleanSupplier failed)
    {
        if (idle < 64)
        {
            Thread.onSpinWait();
        }
        else
        {
            if (failed.getAsBoolean())
            {
                throw new IllegalStateException("store failed");
            }
            LockSupport.parkNanos(50_000);
        }
        return idle + 1;
    }

    public void wakeFlusher()
    {
        final Thread thread = flusher;
        if (thread != null)
        {
            LockSupport.unpark(thread);
        }
    }

    /** Bytes reserved in the active half (flusher's check for pending data). */
    public int pendingBytes()
    {
        return (int)(active.reserved.get() & ~SEALED);
    }

    public boolean activeSealed()
    {
        return (active.reserved.get() & SEALED) != 0;
    }

    /**
     * Flusher only: seals the active half, waits for its appenders to finish, makes the other half active and
     * returns the sealed half's bytes (position 0, limit = length). The returned buffer stays valid until the next
     * call.
     */
    public ByteBuffer sealAndSwap()
    {
        final Half half = active;
        long reserved;
        do
        {
            reserved = half.reserved.get();
        }
        while ((reserved & SEALED) == 0 && !half.reserved.compareAndSet(reserved, reserved | SEALED));
        final long length = reserved & ~SEALED;
        while (half.committed.get() != length) // acquire: the records up to length are complete
        {
            Thread.onSpinWait();
        }
        final Half other = half == halves[0] ? halves[1] : halves[0];
        other.committed.set(0);
        other.reserved.set(0);
        active = other; // release: appenders now fill the other half
        final ByteBuffer view = half.data.duplicate().order(half.data.order());
        view.limit((int)length).position(0);
        return view;
    }

    private static final class Half
    {
        final ByteBuffer data;
        final AtomicLong reserved = new AtomicLong();
        final AtomicLong committed = new AtomicLong();

        Half(final int capacity)
        {
            data = AlignedBuffers.allocate(capacity, 4096);
        }
    }
}
