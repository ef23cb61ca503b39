package io.sirocco.multicast.sst;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Typed access to one member's copy of the shared state table: {@code members} rows of {@code rowLengthBytes}, each
 * row made of aligned {@code long} counters and SMC slots (see {@link SstLayout}).
 *
 * <p><b>Writers and readers.</b> A member writes only its own row (its predicate thread writes counters, application
 * threads write the bytes of slots they claimed); every other row is written by the {@code RowTransport}. Counters are
 * written with {@code setRelease} after the data they cover and read with {@code getAcquire} before that data is read:
 * the release/acquire pair is what makes a slot's bytes visible to a reader that saw its guard. Counters are aligned,
 * so no access is ever torn, even across processes sharing a mapping.
 */
public final class SstTable
{
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment table;
    private final long rowLengthBytes;
    private final int rows;

    /**
     * @param table          the whole table, {@code rows * rowLengthBytes} bytes, 8-byte aligned.
     * @param rowLengthBytes length of one row.
     */
    public SstTable(final MemorySegment table, final long rowLengthBytes)
    {
        this.table = table;
        this.rowLengthBytes = rowLengthBytes;
        this.rows = (int)(table.byteSize() / rowLengthBytes);
    }

    public MemorySegment segment()
    {
        return table;
    }

    public long rowLengthBytes()
    {
        return rowLengthBytes;
    }

    public int rows()
    {
        return rows;
    }

    public long rowBase(final int row)
    {
        return row * rowLengthBytes;
    }

    public long getAcquire(final int row, final long offset)
    {
        return (long)LONG.getAcquire(table, row * rowLengthBytes + offset);
    }

    public long getPlain(final int row, final long offset)
    {
        return (long)LONG.get(table, row * rowLengthBytes + offset);
    }

    public void setRelease(final int row, final long offset, final long value)
    {
        LONG.setRelease(table, row * rowLengthBytes + offset, value);
    }

    public void setPlain(final int row, final long offset, final long value)
    {
        LONG.set(table, row * rowLengthBytes + offset, value);
    }

    /** Raw access for transports that apply a pushed counter into this table. */
    public static void setReleaseAt(final MemorySegment segment, final long absoluteOffset, final long value)
    {
        LONG.setRelease(segment, absoluteOffset, value);
    }

    /** Raw access for transports that read a counter of this table before pushing it. */
    public static long getAcquireAt(final MemorySegment segment, final long absoluteOffset)
    {
        return (long)LONG.getAcquire(segment, absoluteOffset);
    }
}
