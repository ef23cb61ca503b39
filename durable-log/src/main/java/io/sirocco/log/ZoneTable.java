package io.sirocco.log;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.zone.ZoneId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

import io.sirocco.log.disk.DiskAccess;
import io.sirocco.log.secondary.Segment;
import io.sirocco.log.secondary.ZoneLog;

/**
 * The zones one backup store holds: by id (for the store's callers) and by slot (for the flusher, which finds a
 * write-buffer record's zone by the slot number the record carries).
 *
 * <p>Concurrency: the id map is concurrent, so lookups need no lock. The slot array sits behind a volatile
 * reference and changes only under the store's log lock: {@link #open} fills a new slot (copying the array when it
 * grows) and then writes the reference again, which publishes the slot; {@link #remove} replaces the array by a
 * copy. Readers take one snapshot with {@link #slots()}.
 */
final class ZoneTable
{
    private final Path directory;
    private final LogConfig config;
    private final DiskAccess access;
    private final ConcurrentHashMap<ZoneId, ZoneHandle> byId = new ConcurrentHashMap<>();
    private volatile ZoneLog[] bySlot = new ZoneLog[16];
    private int zoneCount;

    ZoneTable(final Path directory, final LogConfig config, final DiskAccess access)
    {
        this.directory = directory;
        this.config = config;
        this.access = access;
    }

    /** The handle of an open zone, or null. */
    ZoneHandle get(final ZoneId id)
    {
        return byId.get(id);
    }

    List<ZoneId> ids()
    {
        return new ArrayList<>(byId.keySet());
    }

    boolean isEmpty()
    {
        return byId.isEmpty();
    }

    int size()
    {
        return byId.size();
    }

    /** A snapshot of the zone logs by slot; null where no zone is open. Do not modify. */
    ZoneLog[] slots()
    {
        return bySlot;
    }

    /** The open zone logs, in slot order. */
    List<ZoneLog> logs()
    {
        final List<ZoneLog> list = new ArrayList<>();
        for (final ZoneLog zone : bySlot)
        {
            if (zone != null)
            {
                list.add(zone);
            }
        }
        return list;
    }

    /** Opens a zone's logs in a new slot. Caller holds the log lock (or runs before the store's threads start). */
    ZoneHandle open(final ZoneId id) throws IOException
    {
        final int slot = zoneCount++;
        final ZoneLog log = ZoneLog.open(id, slot, directory.resolve(id.directoryName()), config, access);
        ZoneLog[] table = bySlot;
        if (slot >= table.length)
        {
            table = Arrays.copyOf(table, table.length * 2);
        }
        table[slot] = log;
        bySlot = table;
        final ZoneHandle handle = new ZoneHandle(id, slot, log);
        byId.put(id, handle);
        return handle;
    }

    /** Forgets a zone (its files stay). Caller holds the log lock. */
    void remove(final ZoneHandle handle)
    {
        byId.remove(handle.id());
        final ZoneLog[] table = bySlot.clone();
        table[handle.slot()] = null;
        bySlot = table;
    }

    /** Cold start: reopens every zone whose directory is in the store's directory. */
    void openExisting() throws IOException
    {
        try (Stream<Path> entries = Files.list(directory))
        {
            for (final Path path : (Iterable<Path>)entries::iterator)
            {
                final ZoneId id = ZoneId.parseDirectoryName(path.getFileName().toString());
                if (id != null && Files.isDirectory(path))
                {
                    open(id);
                }
            }
        }
    }

    /** Bytes of segment files on disk over all zones; takes the log lock zone by zone. */
    long segmentBytes(final ReentrantLock logLock)
    {
        long total = 0;
        for (final ZoneLog zone : logs())
        {
            logLock.lock();
            try
            {
                for (final Segment segment : zone.segments())
                {
                    total += segment.fillBytes();
                }
            }
            finally
            {
                logLock.unlock();
            }
        }
        return total;
    }
}
