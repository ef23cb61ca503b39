package io.sirocco.log.replication;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import io.sirocco.log.BackupStore;
import io.sirocco.log.PersistListener;
import io.sirocco.log.config.LogConfig;
import io.sirocco.log.disk.LogStorageException;
import io.sirocco.log.zone.ZoneId;

/**
 * A backup's stores: the main one, and the disk store of PERSISTENT zones ({@link ZoneId#persistent()}) when the
 * backup has one configured. The disk store is opened at once if its directory already exists (a restart: its zones
 * are known before any owner speaks), else at its first PERSISTENT zone, so a backup that never holds one pays
 * nothing for it (a write buffer, a flusher and a cleaner thread).
 *
 * <p>Threads: {@link #of} is called from the transport's handler threads and recovery threads; the disk store is
 * opened under a lock and published through a volatile field, and never after {@link #close}; the main store is
 * final.
 */
final class ZoneStores implements AutoCloseable
{
    private final BackupStore main;
    private final Path diskDirectory;
    private final LogConfig diskConfig;
    private final Function<LogConfig, PersistListener> listeners;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile BackupStore disk;
    private boolean closed; // guarded by lock

    /**
     * @param diskDirectory where PERSISTENT zones live, or null: they live in the main store.
     * @param listeners     the acknowledgement listener of a store, from its configuration.
     */
    ZoneStores(final Path mainDirectory, final LogConfig mainConfig, final Path diskDirectory,
        final LogConfig diskConfig, final Function<LogConfig, PersistListener> listeners)
    {
        this.listeners = listeners;
        this.main = BackupStore.open(mainDirectory, mainConfig, listeners.apply(mainConfig));
        this.diskDirectory = diskDirectory;
        this.diskConfig = diskConfig;
        if (diskDirectory != null && Files.isDirectory(diskDirectory))
        {
            disk();
        }
    }

    BackupStore main()
    {
        return main;
    }

    /** The store that holds (or will hold) the zone. */
    BackupStore of(final ZoneId zone)
    {
        return zone.persistent() && diskDirectory != null ? disk() : main;
    }

    private BackupStore disk()
    {
        BackupStore opened = disk;
        if (opened != null)
        {
            return opened;
        }
        lock.lock();
        try
        {
            if (closed)
            {
                throw new LogStorageException("backup stores of " + diskDirectory + " are closed");
            }
            if (disk == null)
            {
                disk = BackupStore.open(diskDirectory, diskConfig, listeners.apply(diskConfig));
            }
            return disk;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** The stores open now. */
    List<BackupStore> open()
    {
        final List<BackupStore> stores = new ArrayList<>(2);
        stores.add(main);
        final BackupStore opened = disk;
        if (opened != null)
        {
            stores.add(opened);
        }
        return stores;
    }

    @Override
    public void close()
    {
        lock.lock();
        try
        {
            closed = true; // no disk store opens after this (its threads would outlive the backup)
            if (disk != null)
            {
                disk.close();
            }
        }
        finally
        {
            lock.unlock();
            main.close();
        }
    }
}
