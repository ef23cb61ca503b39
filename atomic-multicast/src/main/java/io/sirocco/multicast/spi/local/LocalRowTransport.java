package io.sirocco.multicast.spi.local;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.sst.SstTable;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * One member's end of a {@link LocalFabric}: pushes are synchronous copies from this
 * member's row into the same row of every unfrozen peer's table, counters one release store per word, then the peer's
 * doorbell rings on {@link #flush()}.
 */
final class LocalRowTransport implements RowTransport
{
    private final LocalFabric fabric;
    private final int myRank;
    private final MemorySegment mine;
    private final long rowBase;
    private final boolean[] frozen;
    private boolean dirty;
    private long pushes;

    LocalRowTransport(final LocalFabric fabric, final int myRank)
    {
        this.fabric = fabric;
        this.myRank = myRank;
        this.mine = fabric.tables[myRank];
        this.rowBase = myRank * fabric.rowLengthBytes;
        this.frozen = new boolean[fabric.tables.length];
    }

    @Override
    public MemorySegment table()
    {
        return mine;
    }

    @Override
    public boolean sharesRows()
    {
        return false;
    }

    @Override
    public void pushBytes(final long rowOffset, final long lengthBytes)
    {
        // Per-call ordering: stores of earlier pushes become visible before any byte of this copy.
        VarHandle.releaseFence();
        final MemorySegment[] tables = fabric.tables;
        for (int r = 0; r < tables.length; r++)
        {
            if (r != myRank && !frozen[r])
            {
                MemorySegment.copy(mine, rowBase + rowOffset, tables[r], rowBase + rowOffset, lengthBytes);
                pushes++;
            }
        }
        dirty = true;
    }

    @Override
    public void pushCounters(final long rowOffset, final int count)
    {
        final MemorySegment[] tables = fabric.tables;
        for (int r = 0; r < tables.length; r++)
        {
            if (r != myRank && !frozen[r])
            {
                for (int i = 0; i < count; i++)
                {
                    final long at = rowBase + rowOffset + 8L * i;
                    SstTable.setReleaseAt(tables[r], at, SstTable.getAcquireAt(mine, at));
                }
                pushes++;
            }
        }
        dirty = true;
    }

    @Override
    public void pushGuard(final long rowOffset, final long value)
    {
        final MemorySegment[] tables = fabric.tables;
        for (int r = 0; r < tables.length; r++)
        {
            if (r != myRank && !frozen[r])
            {
                SstTable.setReleaseAt(tables[r], rowBase + rowOffset, value);
                pushes++;
            }
        }
        dirty = true;
    }

    @Override
    public void freeze(final int rank)
    {
        frozen[rank] = true;
    }

    @Override
    public void flush()
    {
        if (dirty)
        {
            dirty = false;
            for (int r = 0; r < frozen.length; r++)
            {
                if (r != myRank && !frozen[r])
                {
                    fabric.doorbells[r].run();
                }
            }
        }
    }

    @Override
    public long pushCount()
    {
        return pushes;
    }

    @Override
    public void close()
    {
        fabric.detach();
    }
}
