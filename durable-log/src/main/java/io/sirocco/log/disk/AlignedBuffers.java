package io.sirocco.log.disk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Allocates page-aligned, little-endian direct buffers, as O_DIRECT requires for the memory side of an I/O. */
public final class AlignedBuffers
{
    private AlignedBuffers()
    {
    }

    /** A direct buffer of exactly {@code capacity} bytes whose address is a multiple of {@code alignment}. */
    public static ByteBuffer allocate(final int capacity, final int alignment)
    {
        final ByteBuffer raw = ByteBuffer.allocateDirect(capacity + 2 * alignment);
        final ByteBuffer aligned = raw.alignedSlice(alignment);
        aligned.limit(capacity);
        return aligned.slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    public static long alignDown(final long value, final int alignment)
    {
        return value & -alignment;
    }

    public static long alignUp(final long value, final int alignment)
    {
        return (value + alignment - 1) & -alignment;
    }
}
