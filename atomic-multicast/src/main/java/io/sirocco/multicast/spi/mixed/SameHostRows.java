package io.sirocco.multicast.spi.mixed;

import io.sirocco.multicast.sst.SstTable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The same-host half of the {@code mixed} transport: every member of a view owns one table file,
 * {@code v<viewId>-m<memberId>.sst} in the group's shm directory (mode 0600), holding its copy of every row. A member
 * maps its own file and the files of the members on its host, and pushes its row into theirs by a memory copy (data)
 * and release stores (counters, guards): a one-sided write through shared memory, with the same per-target ordering
 * as the other transports (a copy is complete before the release store that follows it).
 *
 * <p><b>Why a copy per member</b> rather than one shared table per host: rows of members on other hosts arrive by tcp,
 * each to every member; if two members of a host applied them into one shared table, a late frame applied by one could
 * move a counter back after a newer frame applied by the other. With one file per member, every row of every file has
 * exactly one writer: its owner (same host) or this member's tcp applier (other hosts).
 *
 * <p><b>Threading.</b> Pushes, {@link #freeze} and {@link #close} come from the owning member's predicate thread only.
 * The files are created zero-filled by whichever member maps them first, so a push to a member that has not opened the
 * view yet is kept in its file.
 */
final class SameHostRows implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(SameHostRows.class);
    private static final ConcurrentHashMap<String, Runnable> IN_JVM_DOORBELLS = new ConcurrentHashMap<>();
    private static final Pattern TABLE_FILE = Pattern.compile("v(\\d+)-m(\\d+)\\.sst");

    /**
     * Automatic: the tcp applier thread may still be applying a late frame to this member's file when the view
     * closes; the mappings go when the garbage collector finds them unreachable, never under a running copy.
     */
    private final Arena arena = Arena.ofAuto();
    private final Path ownFile;
    private final MemorySegment table;
    private final MemorySegment[] peers;
    private final Path[] peerFiles;
    private final boolean[] frozen;
    private final long myRowBase;
    private boolean dirty;
    private long pushes;
    /** Pushes per same-host target rank (predicate thread only), for the route report. */
    private final long[] pushesTo;

    /**
     * @param directory      the group's shm directory.
     * @param viewId         the view.
     * @param memberIds      member ids by rank.
     * @param sameHost       ranks of the other members on this host.
     * @param myRank         this member's rank.
     * @param rowLengthBytes row length.
     * @param doorbell       rung (in this JVM) when a same-host member pushed into this member's file.
     */
    SameHostRows(final Path directory, final long viewId, final long[] memberIds, final boolean[] sameHost,
        final int myRank, final long rowLengthBytes, final Runnable doorbell)
    {
        final int n = memberIds.length;
        final long size = n * rowLengthBytes;
        this.myRowBase = myRank * rowLengthBytes;
        this.frozen = new boolean[n];
        this.peers = new MemorySegment[n];
        this.peerFiles = new Path[n];
        this.pushesTo = new long[n];
        this.ownFile = file(directory, viewId, memberIds[myRank]);
        try
        {
            this.table = map(ownFile, size);
            for (int r = 0; r < n; r++)
            {
                if (r != myRank && sameHost[r])
                {
                    peerFiles[r] = file(directory, viewId, memberIds[r]);
                    peers[r] = map(peerFiles[r], size);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("mixed transport: cannot map the view " + viewId + " tables in "
                + directory + " for member " + memberIds[myRank], ex);
        }
        IN_JVM_DOORBELLS.put(ownFile.toString(), doorbell);
        removeDeparted(directory, viewId, memberIds);
    }

    /**
     * Removes the table files of earlier views whose owner is not a member of this view: a member killed without
     * closing its views leaves them, and with network discovery no registry clean-up removes the group directory.
     * A file of a live member is never needed again once that member is out of the view (a rejoin opens new views);
     * unlinking a file that some process still maps keeps the mapping valid (the memory goes with the last unmap).
     *
     * @return the files removed.
     */
    static List<Path> removeDeparted(final Path directory, final long viewId, final long[] memberIds)
    {
        final List<Path> removed = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory))
        {
            for (final Path file : files.toList())
            {
                final Matcher m = TABLE_FILE.matcher(file.getFileName().toString());
                if (m.matches() && Long.parseLong(m.group(1)) < viewId && !contains(memberIds,
                    Long.parseLong(m.group(2))) && Files.deleteIfExists(file))
                {
                    removed.add(file);
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.warn("mixed transport: cannot clean departed members' tables in {}: {}", directory, ex.toString());
        }
        if (!removed.isEmpty())
        {
            LOG.debug("mixed transport view {}: removed {} table file(s) of departed members: {}", viewId,
                removed.size(), removed);
        }
        return removed;
    }

    private static boolean contains(final long[] ids, final long id)
    {
        for (final long x : ids)
        {
            if (x == id)
            {
                return true;
            }
        }
        return false;
    }

    private static Path file(final Path directory, final long viewId, final long memberId)
    {
        return directory.resolve("v" + viewId + "-m" + memberId + ".sst");
    }

    private MemorySegment map(final Path file, final long size) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file,
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))))
        {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
        }
    }

    /** This member's table: its own row, and every other row as pushed by its owner. */
    MemorySegment table()
    {
        return table;
    }

    void pushBytes(final long rowOffset, final long lengthBytes)
    {
        for (int r = 0; r < peers.length; r++)
        {
            if (peers[r] != null && !frozen[r])
            {
                MemorySegment.copy(table, myRowBase + rowOffset, peers[r], myRowBase + rowOffset, lengthBytes);
                pushes++;
                pushesTo[r]++;
                dirty = true;
            }
        }
    }

    void pushCounters(final long rowOffset, final int count)
    {
        for (int r = 0; r < peers.length; r++)
        {
            if (peers[r] != null && !frozen[r])
            {
                for (int i = 0; i < count; i++)
                {
                    final long at = myRowBase + rowOffset + 8L * i;
                    // Publishes the counter (and everything copied into that peer's file before it).
                    SstTable.setReleaseAt(peers[r], at, SstTable.getAcquireAt(table, at));
                }
                pushes++;
                pushesTo[r]++;
                dirty = true;
            }
        }
    }

    void pushGuard(final long rowOffset, final long value)
    {
        for (int r = 0; r < peers.length; r++)
        {
            if (peers[r] != null && !frozen[r])
            {
                // Publishes the snapshotted guard after the data copied before it.
                SstTable.setReleaseAt(peers[r], myRowBase + rowOffset, value);
                pushes++;
                pushesTo[r]++;
                dirty = true;
            }
        }
    }

    void freeze(final int rank)
    {
        frozen[rank] = true;
    }

    /** Rings the doorbells of same-host members living in this JVM (others poll). */
    void flush()
    {
        if (!dirty)
        {
            return;
        }
        dirty = false;
        for (int r = 0; r < peers.length; r++)
        {
            if (peers[r] != null && !frozen[r])
            {
                final Runnable bell = IN_JVM_DOORBELLS.get(peerFiles[r].toString());
                if (bell != null)
                {
                    bell.run();
                }
            }
        }
    }

    long pushCount()
    {
        return pushes;
    }

    /** @return pushes into the file of the same-host member of {@code rank} (0 for other ranks). */
    long pushCount(final int rank)
    {
        return pushesTo[rank];
    }

    @Override
    public void close()
    {
        IN_JVM_DOORBELLS.remove(ownFile.toString());
        try
        {
            // Same-host members that still push into it keep their mapping; nobody opens it again.
            Files.deleteIfExists(ownFile);
        }
        catch (final IOException ignored)
        {
            // Best effort: the group directory is removed when the group ends.
        }
    }
}
