package io.sirocco.transport.spi;

import io.sirocco.transport.concurrent.MpmcArrayQueue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An off-heap receive buffer. The transport fills it ({@link #byteBuffer()} for channel reads or
 * {@link #segment()} for copies), sets {@link #connection(Connection)} and {@link #length(int)}, and pushes it to the
 * incoming buffer queue; the queue's release/acquire publishes those writes to the coordinator. The coordinator
 * holds one reference while parsing and adds one per message it hands to a handler; the last
 * {@link #release()} (any thread) returns the buffer to its pool.
 */
public final class IncomingBuffer
{
    private final MemorySegment segment;
    private final ByteBuffer byteBuffer;
    /** The owning pool's free list (not the pool itself, so that pool and buffer do not depend on each other). */
    private final MpmcArrayQueue<IncomingBuffer> freeList;
    private final AtomicInteger references = new AtomicInteger();
    private Connection connection;
    private int length;
    private String endOfStreamReason;

    IncomingBuffer(final MemorySegment segment, final MpmcArrayQueue<IncomingBuffer> freeList)
    {
        this.segment = segment;
        this.byteBuffer = segment == null ? null : segment.asByteBuffer();
        this.freeList = freeList;
    }

    /** A marker that ends a connection's stream, queued behind its data. */
    public static IncomingBuffer endOfStream(final Connection connection, final String reason)
    {
        final IncomingBuffer marker = new IncomingBuffer(null, null);
        marker.connection = connection;
        marker.endOfStreamReason = reason;
        marker.references.set(1);
        return marker;
    }

    public MemorySegment segment()
    {
        return segment;
    }

    /** A reusable direct view of the whole buffer; cleared when the buffer leaves the pool. */
    public ByteBuffer byteBuffer()
    {
        return byteBuffer;
    }

    public int capacity()
    {
        return (int)segment.byteSize();
    }

    public Connection connection()
    {
        return connection;
    }

    public IncomingBuffer connection(final Connection connection)
    {
        this.connection = connection;
        return this;
    }

    public int length()
    {
        return length;
    }

    public IncomingBuffer length(final int length)
    {
        this.length = length;
        return this;
    }

    /** Non-null for an end-of-stream marker. */
    public String endOfStreamReason()
    {
        return endOfStreamReason;
    }

    void acquired()
    {
        references.set(1);
        length = 0;
        connection = null;
        byteBuffer.clear();
    }

    public void retain()
    {
        references.incrementAndGet();
    }

    public void release()
    {
        if (references.decrementAndGet() == 0 && freeList != null)
        {
            connection = null;
            freeList.offer(this);
        }
    }
}
