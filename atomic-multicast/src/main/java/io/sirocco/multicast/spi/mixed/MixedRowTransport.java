package io.sirocco.multicast.spi.mixed;

import io.sirocco.multicast.spi.RowTransport;

import java.lang.foreign.MemorySegment;

/**
 * Routes each push per target row: to members on this host through {@link SameHostRows} (a copy into their shared
 * memory), to members on other hosts through a tcp transport that serves only them. Both write into and read from the
 * same local table. Per target, the calls keep their order because each target is served by exactly one of the two,
 * which keeps the call order itself.
 *
 * <p><b>Threading.</b> The predicate thread pushes, freezes and closes; the tcp applier thread writes rows of members
 * on other hosts into the table.
 */
final class MixedRowTransport implements RowTransport
{
    private final SameHostRows near;
    private final RowTransport far;

    /**
     * @param near the same-host half (owns the table).
     * @param far  the tcp half, opened into {@code near}'s table, or null when every member is on this host.
     */
    MixedRowTransport(final SameHostRows near, final RowTransport far)
    {
        this.near = near;
        this.far = far;
    }

    @Override
    public MemorySegment table()
    {
        return near.table();
    }

    @Override
    public boolean sharesRows()
    {
        // Every member has its own copy of every row: pushes copy, as on tcp.
        return false;
    }

    @Override
    public void pushBytes(final long rowOffset, final long lengthBytes)
    {
        near.pushBytes(rowOffset, lengthBytes);
        if (far != null)
        {
            far.pushBytes(rowOffset, lengthBytes);
        }
    }

    @Override
    public void pushCounters(final long rowOffset, final int count)
    {
        near.pushCounters(rowOffset, count);
        if (far != null)
        {
            far.pushCounters(rowOffset, count);
        }
    }

    @Override
    public void pushGuard(final long rowOffset, final long value)
    {
        near.pushGuard(rowOffset, value);
        if (far != null)
        {
            far.pushGuard(rowOffset, value);
        }
    }

    @Override
    public void freeze(final int rank)
    {
        near.freeze(rank);
        if (far != null)
        {
            far.freeze(rank);
        }
    }

    @Override
    public void flush()
    {
        near.flush();
        if (far != null)
        {
            far.flush();
        }
    }

    @Override
    public void endOfPass()
    {
        // The tcp half coalesces one pass's flushes into one frame per peer; shared memory has nothing deferred.
        if (far != null)
        {
            far.endOfPass();
        }
    }

    @Override
    public long pushCount()
    {
        return near.pushCount() + (far == null ? 0 : far.pushCount());
    }

    @Override
    public void close()
    {
        if (far != null)
        {
            far.close();
        }
        near.close();
    }
}
