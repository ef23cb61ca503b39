package io.sirocco.multicast.spi.mixed;

import io.sirocco.multicast.spi.RowSuspicionListener;
import io.sirocco.multicast.spi.RowTransport;

import java.lang.foreign.MemorySegment;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(MixedRowTransport.class);

    private final SameHostRows near;
    private final RowTransport far;
    private final MixedRoutes routes;

    /**
     * @param near the same-host half (owns the table).
     * @param far  the tcp half, opened into {@code near}'s table, or null when every member is on this host.
     * @param routes the route of every peer (for the report at close).
     */
    MixedRowTransport(final SameHostRows near, final RowTransport far, final MixedRoutes routes)
    {
        this.near = near;
        this.far = far;
        this.routes = routes;
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

    /**
     * Crash detection on a reset is the tcp part's (a same-host peer's death shows in the heartbeats); there is none
     * when every member is on this host.
     */
    @Override
    public void suspicionListener(final RowSuspicionListener listener)
    {
        if (far != null)
        {
            far.suspicionListener(listener);
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
    public void beginPassRun()
    {
        if (far != null)
        {
            far.beginPassRun();
        }
    }

    @Override
    public void endPassRun()
    {
        if (far != null)
        {
            far.endPassRun();
        }
    }

    @Override
    public long pushCount()
    {
        return near.pushCount() + (far == null ? 0 : far.pushCount());
    }

    @Override
    public long pushCount(final int rank)
    {
        final String route = routes.routeOf(rank);
        if (route == null)
        {
            return 0;
        }
        return MixedRoutes.SHM.equals(route) ? near.pushCount(rank) : far.pushCount(rank);
    }

    @Override
    public void close()
    {
        // Once per view: what each peer really got by its route (a peer with 0 got nothing by it).
        LOG.debug("{}", routes.report(this::pushCount));
        if (far != null)
        {
            far.close();
        }
        near.close();
    }
}
