package io.sirocco.transport.incoming;

import io.sirocco.transport.Importer;
import io.sirocco.transport.MalformedPayloadException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * Reads a payload that lies contiguously in one off-heap segment (the coordinator copies split messages together,
 * so handlers always see one piece). One per handler thread, re-aimed per message; bounds are checked against the
 * payload end on every read.
 */
public final class SegmentImporter implements Importer
{
    private MemorySegment segment;
    private long position;
    private long limit;

    public SegmentImporter wrap(final MemorySegment segment, final long offset, final int length)
    {
        this.segment = segment;
        this.position = offset;
        this.limit = offset + length;
        return this;
    }

    public void release()
    {
        segment = null;
    }

    private long claim(final int bytes)
    {
        final long p = position;
        if (limit - p < bytes)
        {
            throw MalformedPayloadException.INSTANCE;
        }
        position = p + bytes;
        return p;
    }

    @Override
    public byte readByte()
    {
        return segment.get(ValueLayout.JAVA_BYTE, claim(1));
    }

    @Override
    public short readShort()
    {
        return segment.get(SHORT, claim(2));
    }

    @Override
    public char readChar()
    {
        return segment.get(CHAR, claim(2));
    }

    @Override
    public int readInt()
    {
        return segment.get(INT, claim(4));
    }

    @Override
    public long readLong()
    {
        return segment.get(LONG, claim(8));
    }

    @Override
    public float readFloat()
    {
        return segment.get(FLOAT, claim(4));
    }

    @Override
    public double readDouble()
    {
        return segment.get(DOUBLE, claim(8));
    }

    @Override
    public void readBytes(final byte[] destination, final int offset, final int length)
    {
        if (length < 0)
        {
            throw MalformedPayloadException.INSTANCE;
        }
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, claim(length), destination, offset, length);
    }

    @Override
    public void readSegment(final MemorySegment destination, final long offset, final long length)
    {
        if (length < 0 || length > Integer.MAX_VALUE)
        {
            throw MalformedPayloadException.INSTANCE;
        }
        MemorySegment.copy(segment, claim((int)length), destination, offset, length);
    }

    @Override
    public int remaining()
    {
        return (int)(limit - position);
    }
}
