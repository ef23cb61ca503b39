package io.sirocco.transport.spi;

import io.sirocco.transport.concurrent.MpmcArrayQueue;

import java.lang.foreign.Arena;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pooled off-heap receive buffers of one size, shared by all connections of a node. Pre-filled at start; when
 * empty it grows (the paper's pool scales up), and a buffer that finds the free list full on return is left to the
 * GC. Buffers larger than the pool size (reassembly of a large message) are allocated on demand and not pooled.
 * Any thread may acquire and release (lock-free queue).
 */
public final class BufferPool
{
    private final int bufferBytes;
    private final MpmcArrayQueue<IncomingBuffer> free;
    private final AtomicLong allocated = new AtomicLong();

    public BufferPool(final int bufferBytes, final int initialCount)
    {
        this.bufferBytes = bufferBytes;
        this.free = new MpmcArrayQueue<>(Integer.highestOneBit(Math.max(16, initialCount * 4 - 1)) << 1);
        for (int i = 0; i < initialCount; i++)
        {
            free.offer(newBuffer());
        }
    }

    private IncomingBuffer newBuffer()
    {
        allocated.incrementAndGet();
        return new IncomingBuffer(Arena.ofAuto().allocate(bufferBytes, 64), free);
    }

    public int bufferBytes()
    {
        return bufferBytes;
    }

    /** A pool buffer with one reference. */
    public IncomingBuffer acquire()
    {
        IncomingBuffer buffer = free.poll();
        if (buffer == null)
        {
            buffer = newBuffer();
        }
        buffer.acquired();
        return buffer;
    }

    /** A buffer of at least {@code minBytes}: from the pool if it fits, else a dedicated one. */
    public IncomingBuffer acquire(final int minBytes)
    {
        if (minBytes <= bufferBytes)
        {
            return acquire();
        }
        final IncomingBuffer buffer = new IncomingBuffer(Arena.ofAuto().allocate(minBytes, 64), null);
        buffer.acquired();
        return buffer;
    }

    /** Buffers created so far (pre-filled plus grown). */
    public long allocatedCount()
    {
        return allocated.get();
    }
}
