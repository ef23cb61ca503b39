package io.sirocco.log;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.disk.LogStorageException;
import io.sirocco.log.zone.ZoneId;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.log.buffer.WriteBuffer;
import io.sirocco.log.buffer.WriteBufferDescriptor;
import io.sirocco.log.cleaner.Cleaner;
import io.sirocco.log.disk.DiskAccess;
import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;
import io.sirocco.log.recovery.ZoneRecovery;
import io.sirocco.log.secondary.Segment;
import io.sirocco.log.secondary.ZoneLog;
import io.sirocco.log.version.KeyTable;
import io.sirocco.transport.agent.Agents;

/**
 * One backup member's durable store: the write buffer, the primary log, one {@link ZoneLog} per zone it backs up,
 * the flusher thread ({@link Flusher}, "sirocco-log-flusher-DIR") and the cleaner thread ("sirocco-log-cleaner-DIR").
 * The zones live in a {@link ZoneTable}.
 *
 * <p>Threads: {@link #append}/{@link #delete} may be called from any threads (usually the one ordered replication
 * handler; entries of one zone must come from one thread to keep their order). Everything behind the write
 * buffer runs on the flusher, or on the cleaner, under the fair {@code logLock}. Acknowledgements go to the
 * {@link PersistListener} and are readable per zone through {@link ZoneHandle#persistedTicket()}. {@link #close}
 * first sets a volatile flag, so a thread still delivering (a replication handler) fails fast instead of opening
 * files in a closed store or waiting forever for a stopped flusher to free the write buffer.
 */
public final class BackupStore implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(BackupStore.class);

    private final Path directory;
    private final LogConfig config;
    private final SyncPolicy policy;
    private final DiskAccess access;
    private final PersistListener listener;
    private final WriteBuffer writeBuffer;
    private final ReentrantLock logLock = new ReentrantLock(true);
    private final ZoneTable zones;
    private final Cleaner cleaner;
    private final Flusher flusher;
    private final Thread flusherThread;
    private final Thread cleanerThread;
    /** Set first thing by {@link #close}: later zone creations and appends fail at once instead of waiting. */
    private volatile boolean closed;

    private BackupStore(final Path directory, final LogConfig config, final PersistListener listener)
        throws IOException
    {
        this.directory = directory;
        this.config = config;
        this.policy = config.syncPolicy();
        this.listener = listener;
        Files.createDirectories(directory);
        this.access = DiskAccess.probe(directory, config.directIo());
        this.writeBuffer = new WriteBuffer(config.writeBufferBytes());
        this.zones = new ZoneTable(directory, config, access);
        this.cleaner = new Cleaner(config, logLock, zones::logs, access);
        zones.openExisting();
        if (!zones.isEmpty())
        {
            LOG.info("durable-log: {} reopened {} zones", directory, zones.size());
        }
        this.flusher = new Flusher(directory, config, listener, writeBuffer, logLock, zones, cleaner, access);
        this.flusherThread = Agents.threadFactory("log-flusher-" + directory.getFileName()).newThread(flusher);
        this.writeBuffer.flusherThread(flusherThread);
        this.cleanerThread = Agents.threadFactory("log-cleaner-" + directory.getFileName()).newThread(cleaner);
    }

    /**
     * Opens (or creates) the store in {@code directory}. On a cold start it reopens every zone found there and
     * replays the primary log into the zones' secondary logs, so that acknowledged small batches whose
     * secondary-log buffers were lost are back in the segments.
     */
    public static BackupStore open(final Path directory, final LogConfig config, final PersistListener listener)
    {
        final LogConfig copy = config.clone().validate();
        try
        {
            final BackupStore store = new BackupStore(directory, copy, listener == null ? PersistListener.NO_OP
                : listener);
            store.flusherThread.start();
            if (copy.cleanerEnabled())
            {
                store.cleanerThread.start();
            }
            return store;
        }
        catch (final IOException ex)
        {
            throw new LogStorageException("backup store " + directory + ": cannot open: " + ex.getMessage(), ex);
        }
    }

    public Path directory()
    {
        return directory;
    }

    public LogConfig config()
    {
        return config;
    }

    /** Whether log files use O_DIRECT. */
    public boolean directIo()
    {
        return access.direct();
    }

    public Cleaner cleaner()
    {
        return cleaner;
    }

    /** The failure that stopped this store, or null. */
    public LogStorageException failure()
    {
        return flusher.failure();
    }

    /** The zones this store holds. */
    public List<ZoneId> zones()
    {
        return zones.ids();
    }

    /** Opens a zone's logs (the thesis's "create zone" message); returns the existing handle if already open. */
    public ZoneHandle createZone(final ZoneId id)
    {
        checkOpen();
        final ZoneHandle existing = zones.get(id);
        if (existing != null)
        {
            return existing;
        }
        logLock.lock();
        try
        {
            final ZoneHandle again = zones.get(id);
            if (again != null)
            {
                return again;
            }
            checkOpen(); // close() may have run while this waited for the lock: open no file in a closed store
            return zones.open(id);
        }
        catch (final IOException ex)
        {
            throw new LogStorageException("backup store " + directory + ": cannot create " + id + ": "
                + ex.getMessage(), ex);
        }
        finally
        {
            logLock.unlock();
        }
    }

    /** The handle of an open zone, or null. */
    public ZoneHandle zone(final ZoneId id)
    {
        return zones.get(id);
    }

    /**
     * Appends one entry (a new key or a new version of an existing key). {@code ticket} is the zone-local order
     * number the owner gave the entry; acknowledgements report the highest ticket persisted per zone. Under
     * {@code EACH} this returns only once the entry is on disk.
     *
     * @throws LogStorageException if the store failed (for example, disk full).
     */
    public void append(final ZoneHandle zone, final long ticket, final long keyHash, final long sequence,
        final ByteBuffer payload, final int offset, final int length)
    {
        if (length > config.maxPayloadBytes() || length + WriteBufferDescriptor.HEADER_LENGTH
            > config.writeBufferBytes())
        {
            throw new IllegalArgumentException(zone + ": entry of " + length + " bytes exceeds the maximum "
                + Math.min(config.maxPayloadBytes(), config.writeBufferBytes() - WriteBufferDescriptor.HEADER_LENGTH));
        }
        put(zone, ticket, 0, keyHash, sequence, payload, offset, length);
    }

    /** Convenience overload for a heap array. */
    public void append(final ZoneHandle zone, final long ticket, final long keyHash, final long sequence,
        final byte[] payload)
    {
        append(zone, ticket, keyHash, sequence, ByteBuffer.wrap(payload), 0, payload.length);
    }

    /** Deletes a key: appends a tombstone version, so no older version of it is ever recovered. */
    public void delete(final ZoneHandle zone, final long ticket, final long keyHash, final long sequence)
    {
        put(zone, ticket, WriteBufferDescriptor.FLAG_TOMBSTONE, keyHash, sequence, null, 0, 0);
    }

    private void put(final ZoneHandle zone, final long ticket, final int flags, final long keyHash,
        final long sequence, final ByteBuffer payload, final int offset, final int length)
    {
        checkNotFailed();
        checkOpen();
        try
        {
            // A closed store's flusher never frees a half again: stop waiting then, as after a failure.
            writeBuffer.append(zone.slot(), ticket, flags, keyHash, sequence, payload, offset, length,
                () -> flusher.failure() != null || closed);
        }
        catch (final IllegalStateException ex)
        {
            checkNotFailed();
            checkOpen();
            throw ex;
        }
        switch (policy)
        {
            case NONE ->
            {
                zone.log().persistedTicketRelease(ticket);
                listener.onPersisted(zone.id(), ticket);
            }
            case GROUP ->
            {
                if (flusher.sleeping())
                {
                    writeBuffer.wakeFlusher();
                }
            }
            case EACH ->
            {
                writeBuffer.wakeFlusher();
                awaitPersisted(zone, ticket, Long.MAX_VALUE);
            }
        }
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new LogStorageException("backup store " + directory + " is closed");
        }
    }

    private void checkNotFailed()
    {
        final LogStorageException failed = flusher.failure();
        if (failed != null)
        {
            throw new LogStorageException(failed.getMessage(), failed);
        }
    }

    /**
     * Waits until the zone's entries up to {@code ticket} are persisted per policy.
     *
     * @return false on timeout.
     * @throws LogStorageException if the store failed first.
     */
    public boolean awaitPersisted(final ZoneHandle zone, final long ticket, final long timeoutNs)
    {
        final long deadline = System.nanoTime() + Math.min(timeoutNs, Long.MAX_VALUE / 4);
        while (zone.persistedTicket() < ticket)
        {
            checkNotFailed();
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            LockSupport.parkNanos(20_000);
        }
        return true;
    }

    /**
     * Priority flush: writes out the write buffer and every secondary-log buffer, then syncs. Used before a
     * recovery and at close. Returns once done.
     */
    public void flush()
    {
        checkNotFailed();
        final long request = flusher.requestFlush();
        writeBuffer.wakeFlusher();
        while (flusher.flushesDone() < request)
        {
            checkNotFailed();
            if (!flusherThread.isAlive())
            {
                throw new LogStorageException("backup store " + directory + ": flusher stopped");
            }
            LockSupport.parkNanos(50_000);
        }
        checkNotFailed();
    }

    /**
     * Recovers a zone locally (multi-threaded), streaming the newest live version of every key to the consumer.
     * Flushes first; the cleaner is locked out of the zone while it runs. The zone's owner must have stopped
     * writing to it.
     */
    public RecoveryReport recover(final ZoneId id, final RecoveryConsumer consumer)
    {
        final ZoneHandle handle = zones.get(id);
        if (handle == null)
        {
            throw new IllegalArgumentException("backup store " + directory + " holds no " + id);
        }
        flush();
        final ZoneLog zone = handle.log();
        final List<Path> paths = new ArrayList<>();
        final KeyTable current;
        final int epoch;
        logLock.lock();
        try
        {
            zone.recovering(true);
            for (final Segment segment : zone.segments())
            {
                paths.add(segment.path());
            }
            final KeyTable buffered = zone.versionBuffer().table();
            current = new KeyTable(Math.max(16, buffered.size() * 2), 0.6, true);
            for (int slot = 0; slot < buffered.capacity(); slot++)
            {
                if (buffered.usedAt(slot))
                {
                    current.put(buffered.keyHashAt(slot), buffered.sequenceAt(slot), buffered.valueAt(slot));
                }
            }
            epoch = zone.epoch();
        }
        finally
        {
            logLock.unlock();
        }
        try
        {
            return new ZoneRecovery(config.recoveryThreads(), config.maxPayloadBytes())
                .recover(id, paths, zone.versionLog().path(), current, epoch, consumer);
        }
        finally
        {
            zone.recovering(false);
        }
    }

    /**
     * Runs one cleaning pass over a zone on the calling thread (the background cleaner must be disabled); returns
     * the bytes reclaimed. For tests and tools that need a pass at a known point.
     */
    public long cleanZone(final ZoneId id)
    {
        final ZoneHandle handle = zones.get(id);
        if (handle == null)
        {
            throw new IllegalArgumentException("backup store " + directory + " holds no " + id);
        }
        try
        {
            return cleaner.cleanOnce(handle.log());
        }
        catch (final IOException ex)
        {
            throw new LogStorageException("backup store " + directory + ": cleaning " + id + " failed: "
                + ex.getMessage(), ex);
        }
    }

    /** Closes a zone and deletes its files (after it was recovered and handed over, or dropped by its owner). */
    public void dropZone(final ZoneId id)
    {
        final ZoneHandle handle = zones.get(id);
        if (handle == null)
        {
            return;
        }
        flush();
        logLock.lock();
        try
        {
            zones.remove(handle);
            handle.log().deleteFiles();
        }
        catch (final IOException ex)
        {
            throw new LogStorageException("backup store " + directory + ": cannot drop " + id + ": "
                + ex.getMessage(), ex);
        }
        finally
        {
            logLock.unlock();
        }
    }

    /** Bytes of segment files currently on disk over all zones. */
    public long segmentBytesOnDisk()
    {
        return zones.segmentBytes(logLock);
    }

    /** Flushes everything, stops the threads and closes the files. */
    @Override
    public void close()
    {
        closed = true;
        try
        {
            if (flusher.failure() == null && flusherThread.isAlive())
            {
                flush();
            }
        }
        finally
        {
            final boolean wasRunning = flusher.stop();
            cleaner.stop();
            writeBuffer.wakeFlusher();
            join(flusherThread);
            join(cleanerThread);
            logLock.lock();
            try
            {
                for (final ZoneLog zone : zones.logs())
                {
                    if (flusher.failure() == null && wasRunning)
                    {
                        endEpochAtClose(zone);
                    }
                    zone.close();
                }
                flusher.primaryLog().close();
            }
            catch (final IOException ex)
            {
                LOG.warn("durable-log: closing {}: {}", directory, ex.toString());
            }
            finally
            {
                logLock.unlock();
            }
        }
    }

    /** Writes the zone's version buffer to its version log, so the log is complete after a clean close. */
    private void endEpochAtClose(final ZoneLog zone)
    {
        try
        {
            zone.endEpoch();
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.warn("durable-log: {}: writing the version buffer of {} at close failed ({}); the cleaner copes with "
                + "an incomplete version log", directory, zone.id(), ex.toString());
        }
    }

    private static void join(final Thread thread)
    {
        if (thread.isAlive())
        {
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
