package io.sirocco.multicast.spi.local;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * All members' copies of one view's table for the {@code local} transport, and each member's doorbell. Attach and
 * detach are synchronized; the copies themselves are written by their pushing members as {@link LocalRowTransport}
 * documents. Freed (and forgotten by its provider) once every member of the view closed it.
 */
final class LocalFabric
{
    final String key;
    final MemorySegment[] tables;
    final Runnable[] doorbells;
    final long rowLengthBytes;
    final Arena arena = Arena.ofShared();
    private final Consumer<String> forget;
    int attached;
    int closed;

    LocalFabric(final String key, final int members, final long rowLengthBytes, final Consumer<String> forget)
    {
        this.key = key;
        this.rowLengthBytes = rowLengthBytes;
        this.forget = forget;
        this.tables = new MemorySegment[members];
        this.doorbells = new Runnable[members];
        for (int i = 0; i < members; i++)
        {
            tables[i] = arena.allocate(members * rowLengthBytes, 4096);
            doorbells[i] = () -> { };
        }
    }

    synchronized void attach(final int rank, final Runnable doorbell)
    {
        doorbells[rank] = doorbell;
        attached++;
    }

    synchronized void detach()
    {
        closed++;
        if (closed == tables.length)
        {
            // Every member of the view closed it: nobody reads these copies any more.
            forget.accept(key);
            arena.close();
        }
    }
}
