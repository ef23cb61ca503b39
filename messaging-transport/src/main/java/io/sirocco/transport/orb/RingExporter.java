package io.sirocco.transport.orb;

import io.sirocco.transport.Exporter;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * The exporter that writes straight into a ring reservation. One per producer thread (thread-local), re-aimed at
 * each frame. The fast path is one bounds check per value: the value fits before both the reservation end and the
 * ring end. Otherwise the value goes byte by byte, wrapping at the ring end (the paper's overflow exporter), and at
 * the end of a fragment's reservation it asks the ring for the next fragment (the large-message exporter).
 */
final class RingExporter implements Exporter
{
    private static final ThreadLocal<RingExporter> EXPORTERS = ThreadLocal.withInitial(RingExporter::new);

    private MemorySegment ring;
    private int mask;
    private int capacity;
    private int position;
    private int limit;
    private NextFragment largeWrite;

    static RingExporter forThread()
    {
        return EXPORTERS.get();
    }

    /** Aims at {@code [position, limit)} of the ring; {@code largeWrite} (or null) supplies the next fragment. */
    void wrap(final MemorySegment ring, final int capacity, final int position, final int limit,
        final NextFragment largeWrite)
    {
        this.ring = ring;
        this.mask = capacity - 1;
        this.capacity = capacity;
        this.position = position;
        this.limit = limit;
        this.largeWrite = largeWrite;
    }

    int position()
    {
        return position;
    }

    int limit()
    {
        return limit;
    }

    void release()
    {
        ring = null;
        largeWrite = null;
    }

    private boolean fast(final int bytes)
    {
        return limit - position >= bytes && (position & mask) <= capacity - bytes;
    }

    @Override
    public void writeByte(final byte value)
    {
        if (position == limit)
        {
            overflow();
        }
        ring.set(ValueLayout.JAVA_BYTE, position & mask, value);
        position++;
    }

    private void overflow()
    {
        if (largeWrite == null)
        {
            throw ExportOverflowException.INSTANCE;
        }
        largeWrite.nextFragment();
    }

    private void slow(final long bits, final int bytes)
    {
        for (int i = 0; i < bytes; i++)
        {
            writeByte((byte)(bits >>> (i << 3)));
        }
    }

    @Override
    public void writeShort(final short value)
    {
        if (fast(2))
        {
            ring.set(SHORT, position & mask, value);
            position += 2;
        }
        else
        {
            slow(value, 2);
        }
    }

    @Override
    public void writeChar(final char value)
    {
        writeShort((short)value);
    }

    @Override
    public void writeInt(final int value)
    {
        if (fast(4))
        {
            ring.set(INT, position & mask, value);
            position += 4;
        }
        else
        {
            slow(value, 4);
        }
    }

    @Override
    public void writeLong(final long value)
    {
        if (fast(8))
        {
            ring.set(LONG, position & mask, value);
            position += 8;
        }
        else
        {
            slow(value, 8);
        }
    }

    @Override
    public void writeFloat(final float value)
    {
        writeInt(Float.floatToRawIntBits(value));
    }

    @Override
    public void writeDouble(final double value)
    {
        writeLong(Double.doubleToRawLongBits(value));
    }

    @Override
    public void writeBytes(final byte[] source, final int offset, final int length)
    {
        int done = 0;
        while (done < length)
        {
            if (position == limit)
            {
                overflow();
            }
            final int index = position & mask;
            final int n = Math.min(length - done, Math.min(limit - position, capacity - index));
            MemorySegment.copy(source, offset + done, ring, ValueLayout.JAVA_BYTE, index, n);
            position += n;
            done += n;
        }
    }

    @Override
    public void writeSegment(final MemorySegment source, final long offset, final long length)
    {
        long done = 0;
        while (done < length)
        {
            if (position == limit)
            {
                overflow();
            }
            final int index = position & mask;
            final int n = (int)Math.min(length - done, Math.min(limit - position, capacity - index));
            MemorySegment.copy(source, offset + done, ring, index, n);
            position += n;
            done += n;
        }
    }
}
