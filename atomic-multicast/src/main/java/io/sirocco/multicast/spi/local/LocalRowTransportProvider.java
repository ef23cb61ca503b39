package io.sirocco.multicast.spi.local;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code local} transport: members in one JVM, each with its <em>own</em> copy of the table, and a push copies
 * bytes into the peers' copies (the "faithful" mode of the design: same visibility semantics as a one-sided write, so
 * tests exercise the guard discipline that tcp and RDMA need). All copies of a view are allocated by whichever member
 * opens first, so a push never lands before its target exists.
 */
public final class LocalRowTransportProvider implements RowTransportProvider
{
    private static final ConcurrentHashMap<String, LocalFabric> FABRICS = new ConcurrentHashMap<>();

    @Override
    public String name()
    {
        return "local";
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        final String key = context.groupName() + "/v" + context.viewId();
        final LocalFabric fabric = FABRICS.computeIfAbsent(
            key, k -> new LocalFabric(k, context.memberCount(), context.rowLengthBytes()));
        return fabric.attach(context.myRank(), context.doorbell());
    }

    static void forget(final String key)
    {
        FABRICS.remove(key);
    }

    /** All members' copies of one view's table. */
    static final class LocalFabric
    {
        final String key;
        final MemorySegment[] tables;
        final Runnable[] doorbells;
        final long rowLengthBytes;
        final Arena arena = Arena.ofShared();
        int attached;
        int closed;

        LocalFabric(final String key, final int members, final long rowLengthBytes)
        {
            this.key = key;
            this.rowLengthBytes = rowLengthBytes;
            this.tables = new MemorySegment[members];
            this.doorbells = new Runnable[members];
            for (int i = 0; i < members; i++)
            {
                tables[i] = arena.allocate(members * rowLengthBytes, 4096);
                doorbells[i] = () -> { };
            }
        }

        synchronized LocalRowTransport attach(final int rank, final Runnable doorbell)
        {
            doorbells[rank] = doorbell;
            attached++;
            return new LocalRowTransport(this, rank);
        }

        synchronized void detach()
        {
            closed++;
            if (closed == tables.length)
            {
                // Every member of the view closed it: nobody reads these copies any more.
                forget(key);
                arena.close();
            }
        }
    }
}
