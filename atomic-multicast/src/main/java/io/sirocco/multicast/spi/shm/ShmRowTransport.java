package io.sirocco.multicast.spi.shm;

import java.util.Set;
import io.sirocco.multicast.predicate.IdleWait;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One member's mapping of a view's shared table. The protocol writes its own row with release stores, which is the
 * push; the push methods here only count (for the batching figures) and, on {@link #flush()}, ring the doorbells of
 * the other members: in this same JVM by calling their doorbell, in other processes through the bell lines after the
 * rows ({@link ShmBells}: a futex word each), which cost a fence and a read unless that member's predicate thread is
 * asleep on its bell ({@link #idleWait()}). Without futexes the sleeping side falls back to bounded parks, as before.
 *
 * <p>The file is created zero-filled by whichever member maps it first; every counter's initial value is 0, which is
 * why the protocol's counters are counts rather than Derecho's "-1 based" indices.
 */
final class ShmRowTransport implements RowTransport
{
    private static final ConcurrentHashMap<String, Runnable[]> IN_JVM_DOORBELLS = new ConcurrentHashMap<>();

    private final Path file;
    private final Arena arena;
    private final MemorySegment table;
    private final Runnable[] doorbells;
    private final ShmBells bells;
    private final IdleWait ownBell;
    /** The pushing thread's errno buffer for its futex wakes. */
    private final MemorySegment wakeErrno = Futex.errnoBuffer();
    private final int myRank;
    private final boolean[] frozen;
    private boolean dirty;
    private long pushes;

    ShmRowTransport(final Path file, final RowTransportContext context)
    {
        this.file = file;
        this.myRank = context.myRank();
        final int members = context.memberCount();
        this.frozen = new boolean[members];
        final long size = members * context.rowLengthBytes();
        final long mapped = size + ShmBells.length(members);
        this.arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file,
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))))
        {
            final MemorySegment all = channel.map(FileChannel.MapMode.READ_WRITE, 0, mapped, arena);
            table = all.asSlice(0, size);
            bells = new ShmBells(all.asSlice(size, ShmBells.length(members)), members);
        }
        catch (final IOException ex)
        {
            arena.close();
            throw new UncheckedIOException("cannot map shm table " + file + " (" + size + " bytes) for group "
                + context.groupName() + " view " + context.viewId(), ex);
        }
        ownBell = bells.own(myRank);
        doorbells = IN_JVM_DOORBELLS.computeIfAbsent(file.toString(), k -> new Runnable[members]);
        synchronized (doorbells)
        {
            doorbells[myRank] = context.doorbell();
        }
    }

    @Override
    public MemorySegment table()
    {
        return table;
    }

    @Override
    public boolean sharesRows()
    {
        return true;
    }

    @Override
    public void pushBytes(final long rowOffset, final long lengthBytes)
    {
        countPush();
    }

    @Override
    public void pushCounters(final long rowOffset, final int count)
    {
        countPush();
    }

    @Override
    public void pushGuard(final long rowOffset, final long value)
    {
        // The protocol stored this value in its own row with release semantics already: that store is the push.
        countPush();
    }

    private void countPush()
    {
        pushes += frozen.length - 1;
        dirty = true;
    }

    @Override
    public void freeze(final int rank)
    {
        frozen[rank] = true;
    }

    /** Rings what a push without its own flush left (the bells' wake-ups must not wait for the next flush). */
    @Override
    public void endOfPass()
    {
        flush();
    }

    @Override
    public void flush()
    {
        if (dirty)
        {
            dirty = false;
            for (int r = 0; r < doorbells.length; r++)
            {
                final Runnable bell = doorbells[r];
                if (r != myRank && !frozen[r])
                {
                    if (bell != null)
                    {
                        bell.run();
                    }
                    else
                    {
                        bells.ring(r, wakeErrno);
                    }
                }
            }
        }
    }

    /** This member's bell: its predicate thread sleeps on it while idle, and the others' flushes ring it. */
    @Override
    public IdleWait idleWait()
    {
        return ownBell;
    }

    @Override
    public long pushCount()
    {
        return pushes;
    }

    @Override
    public void close()
    {
        synchronized (doorbells)
        {
            doorbells[myRank] = null;
        }
        arena.close();
        try
        {
            // Every live member opened this view before anyone could leave it (leaving needs their acks here), so
            // unlinking is safe; members still mapping it keep their mapping.
            Files.deleteIfExists(file);
        }
        catch (final IOException ignored)
        {
            // Best effort: the group directory is removed when the group ends.
        }
        IN_JVM_DOORBELLS.remove(file.toString(), doorbells);
    }
}
