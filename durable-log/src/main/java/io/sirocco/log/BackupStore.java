package io.sirocco.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.log.buffer.WriteBuffer;
import io.sirocco.log.buffer.WriteBufferDescriptor;
import io.sirocco.log.cleaner.Cleaner;
import io.sirocco.log.disk.AlignedBuffers;
import io.sirocco.log.disk.DiskAccess;
import io.sirocco.log.disk.LogFile;
import io.sirocco.log.entry.LogEntryDescriptor;
import io.sirocco.log.primary.PrimaryLog;
import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;
import io.sirocco.log.recovery.ZoneRecovery;
import io.sirocco.log.secondary.Segment;
import io.sirocco.log.secondary.ZoneLog;

/**
 * One backup member's durable store: the write buffer, the primary log, one {@link ZoneLog} per zone it backs up,
 * the flusher thread ("log-flusher": sorts the write buffer by zone, assigns versions, routes batches to the
 * primary or secondary logs, syncs per policy and acknowledges) and the cleaner thread ("log-cleaner").
 *
 * <p>Threads: {@link #append}/{@link #delete} may be called from any threads (usually the one ordered replication
 * handler; entries of one zone must come from one thread to keep their order). Everything behind the write
 * buffer runs on the flusher, or on the cleaner, under the fair {@code logLock}. Acknowledgements go to the
 * {@link PersistListener} and are readable per zone through {@link ZoneHandle#persistedTicket()}.
 */
public final class BackupStore implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(BackupStore.class);
    private static final int MAX_ENCODED_OVERHEAD = LogEntryDescriptor.MAX_HEADER_LENGTH;

    private final Path directory;
    private final LogConfig config;
    private final SyncPolicy policy;
    private final DiskAccess access;
    private final PersistListener listener;
    private final WriteBuffer writeBuffer;
    private final ReentrantLock logLock = new ReentrantLock(true);
    private final ConcurrentHashMap<ZoneId, ZoneHandle> zones = new ConcurrentHashMap<>();
    private volatile ZoneLog[] bySlot = new ZoneLog[16];
    private int zoneCount;
    private final PrimaryLog primaryLog;
    private final Cleaner cleaner;
    private final Thread flusherThread;
    private final Thread cleanerThread;
    private final AtomicLong flushRequests = new AtomicLong();
    private volatile long flushesDone;
    private volatile boolean running = true;
    private volatile boolean flusherSleeping;
    private volatile LogStorageException failure;

    // Flusher-confined state (also used by the cold-start replay before the flusher starts).
    private final ByteBuffer arena;
    private final ByteBuffer arenaView;
    private final ByteBuffer primaryStaging;
    private int primaryFill;
    private final ByteBuffer staging;
    private final CRC32C crc = new CRC32C();
    private int[] zoneBytes = new int[16];
    private int[] zoneCursor = new int[16];
    private int[] zoneBase = new int[16];
    private long[] zoneMaxTicket = new long[16];
    private int[] touched = new int[16];
    private boolean[] dirty = new boolean[16];
    private final List<ZoneLog> dirtyZones = new ArrayList<>();
    private boolean primaryDirty;
    private final ZoneLog.SegmentAllocator allocator;

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
        final int block = access.blockSize();
        this.arena = AlignedBuffers.allocate(config.writeBufferBytes() + MAX_ENCODED_OVERHEAD, block);
        this.arenaView = arena.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.primaryStaging = AlignedBuffers.allocate(config.writeBufferBytes() + 64 * 1024, block);
        this.staging = AlignedBuffers.allocate(config.segmentSizeBytes() + 2 * block, block);
        this.cleaner = new Cleaner(config, logLock, this::zoneLogs, access);
        this.allocator = new ZoneLog.SegmentAllocator()
        {
            @Override
            public void urgentClean(final ZoneLog zone) throws IOException
            {
                cleaner.cleanUrgently(zone, true); // last resort: the pre-cycle pass did not free enough
            }

            @Override
            public void written(final ZoneLog zone, final LogFile file)
            {
                markDirty(zone);
            }

            @Override
            public boolean syncOnSeal()
            {
                return policy != SyncPolicy.NONE;
            }
        };
        loadZones();
        final int generation = replayPrimaryLog();
        this.primaryLog = new PrimaryLog(directory.resolve("primary.log"), access, config.primaryLogSizeBytes(),
            generation + 1);
        this.flusherThread = Thread.ofPlatform().name("log-flusher-" + directory.getFileName()).daemon(true)
            .unstarted(this::flusherLoop);
        this.writeBuffer.flusherThread(flusherThread);
        this.cleanerThread = Thread.ofPlatform().name("log-cleaner-" + directory.getFileName()).daemon(true)
            .unstarted(cleaner);
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
        return failure;
    }

    private List<ZoneLog> zoneLogs()
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

    /** The zones this store holds. */
    public List<ZoneId> zones()
    {
        return new ArrayList<>(zones.keySet());
    }

    /** Opens a zone's logs (the thesis's "create zone" message); returns the existing handle if already open. */
    public ZoneHandle createZone(final ZoneId id)
    {
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
            return openZone(id);
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

    private ZoneHandle openZone(final ZoneId id) throws IOException
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
        zones.put(id, handle);
        return handle;
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
        try
        {
            writeBuffer.append(zone.slot(), ticket, flags, keyHash, sequence, payload, offset, length,
                () -> failure != null);
        }
        catch (final IllegalStateException ex)
        {
            checkNotFailed();
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
                if (flusherSleeping)
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

    private void checkNotFailed()
    {
        final LogStorageException failed = failure;
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
        final long request = flushRequests.incrementAndGet();
        writeBuffer.wakeFlusher();
        while (flushesDone < request)
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
        final io.sirocco.log.version.KeyTable current;
        final int epoch;
        logLock.lock();
        try
        {
            zone.recovering(true);
            for (final Segment segment : zone.segments())
            {
                paths.add(segment.path());
            }
            final io.sirocco.log.version.KeyTable buffered = zone.versionBuffer().table();
            current = new io.sirocco.log.version.KeyTable(Math.max(16, buffered.size() * 2), 0.6, true);
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
            zones.remove(id);
            final ZoneLog[] table = bySlot.clone();
            table[handle.slot()] = null;
            bySlot = table;
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
        long total = 0;
        for (final ZoneLog zone : zoneLogs())
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

    /** Flushes everything, stops the threads and closes the files. */
    @Override
    public void close()
    {
        try
        {
            if (failure == null && flusherThread.isAlive())
            {
                flush();
            }
        }
        finally
        {
            final boolean wasRunning = running;
            running = false;
            cleaner.stop();
            writeBuffer.wakeFlusher();
            join(flusherThread);
            join(cleanerThread);
            logLock.lock();
            try
            {
                for (final ZoneLog zone : zoneLogs())
                {
                    if (failure == null && wasRunning)
                    {
                        endEpochAtClose(zone);
                    }
                    zone.close();
                }
                primaryLog.close();
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

    // ---------------------------------------------------------------------------------------------------------
    // Flusher thread
    // ---------------------------------------------------------------------------------------------------------

    private void flusherLoop()
    {
        long lastFlushNs = System.nanoTime();
        while (running)
        {
            final long request = flushRequests.get();
            final boolean priority = request != flushesDone;
            final long nowNs = System.nanoTime();
            final int pending = writeBuffer.pendingBytes();
            final boolean due = priority || writeBuffer.activeSealed()
                || (pending > 0 && (policy != SyncPolicy.NONE || nowNs - lastFlushNs >= config.flushIntervalNs()));
            if (!due)
            {
                flusherSleeping = true;
                if (writeBuffer.pendingBytes() == 0 || policy == SyncPolicy.NONE)
                {
                    LockSupport.parkNanos(policy == SyncPolicy.NONE
                        ? Math.max(100_000, config.flushIntervalNs() - (nowNs - lastFlushNs)) : 1_000_000);
                }
                flusherSleeping = false;
                continue;
            }
            try
            {
                cycle(priority);
            }
            catch (final IOException | RuntimeException ex)
            {
                final LogStorageException failed = new LogStorageException("backup store " + directory
                    + ": writing the logs failed (" + ex.getMessage() + "); entries not yet acknowledged are not "
                    + "persisted, acknowledged ones are intact; policy " + policy, ex);
                LOG.error("durable-log: {}", failed.getMessage(), ex);
                failure = failed;
                listener.onFailure(failed);
                return;
            }
            lastFlushNs = nowNs;
            if (priority)
            {
                flushesDone = request;
            }
        }
    }

    private void cycle(final boolean priority) throws IOException
    {
        logLock.lock();
        try
        {
            final ByteBuffer records = writeBuffer.sealAndSwap();
            int touchedCount = 0;
            if (records.limit() > 0)
            {
                cleanNearlyFullLogs(records.limit());
                touchedCount = sortByZone(records);
                route(touchedCount);
            }
            if (priority)
            {
                for (final ZoneLog zone : zoneLogs())
                {
                    zone.flushBuffer(staging, allocator);
                }
            }
            writePrimaryStaging();
            if (policy != SyncPolicy.NONE || priority)
            {
                for (int i = 0; i < touchedCount; i++)
                {
                    final ZoneLog zone = bySlot[touched[i]];
                    if (zone != null)
                    {
                        zone.forceMeta(); // an entry's epoch is durable before the entry is
                    }
                }
                if (primaryDirty)
                {
                    primaryLog.force();
                }
                for (final ZoneLog zone : dirtyZones)
                {
                    zone.forceHead();
                }
            }
            primaryDirty = false;
            for (final ZoneLog zone : dirtyZones)
            {
                dirty[zone.slot()] = false;
            }
            dirtyZones.clear();
            for (int i = 0; i < touchedCount; i++)
            {
                final int slot = touched[i];
                final ZoneLog zone = bySlot[slot];
                zoneBytes[slot] = 0;
                if (zone == null)
                {
                    continue;
                }
                zone.writtenTicket(zoneMaxTicket[slot]);
                zone.endEpochIfFull();
                if (policy != SyncPolicy.NONE)
                {
                    zone.persistedTicketRelease(zoneMaxTicket[slot]); // publishes the acknowledgement
                    listener.onPersisted(zone.id(), zoneMaxTicket[slot]);
                }
            }
        }
        finally
        {
            logLock.unlock();
        }
    }

    /**
     * Before a cycle assigns versions: urgently cleans every zone log that this cycle's bytes might fill. Here every
     * version in the version buffers belongs to data already written (and synced, under group/each), so the cleaner
     * may judge garbage by all of them; a pass forced in the middle of the cycle may not ({@link Cleaner}).
     */
    private void cleanNearlyFullLogs(final int pendingBytes) throws IOException
    {
        final int needed = pendingBytes / config.segmentSizeBytes() + 2;
        for (final ZoneLog zone : bySlot)
        {
            if (zone != null && !zone.recovering()
                && zone.segmentCount() + needed > config.secondaryLogSegments())
            {
                cleaner.cleanUrgently(zone, false);
            }
        }
    }

    private void ensureSlots(final int slots)
    {
        if (slots > zoneBytes.length)
        {
            final int n = Integer.highestOneBit(slots) << 1;
            zoneBytes = Arrays.copyOf(zoneBytes, n);
            zoneCursor = Arrays.copyOf(zoneCursor, n);
            zoneBase = Arrays.copyOf(zoneBase, n);
            zoneMaxTicket = Arrays.copyOf(zoneMaxTicket, n);
            touched = Arrays.copyOf(touched, n);
            dirty = Arrays.copyOf(dirty, n);
        }
    }

    /** Encodes the records zone by zone into the arena (each zone's entries contiguous, in arrival order). */
    private int sortByZone(final ByteBuffer records) throws IOException
    {
        ensureSlots(bySlot.length);
        final int limit = records.limit();
        int touchedCount = 0;
        for (int p = 0; p < limit; )
        {
            final int recordLength = records.getInt(p + WriteBufferDescriptor.REC_LEN_OFFSET);
            final int slot = records.getInt(p + WriteBufferDescriptor.ZONE_SLOT_OFFSET);
            final int length = records.getInt(p + WriteBufferDescriptor.LENGTH_OFFSET);
            if (zoneBytes[slot] == 0)
            {
                touched[touchedCount++] = slot;
            }
            zoneBytes[slot] += MAX_ENCODED_OVERHEAD + length;
            p += recordLength;
        }
        int base = 0;
        for (int i = 0; i < touchedCount; i++)
        {
            final int slot = touched[i];
            zoneBase[slot] = base;
            zoneCursor[slot] = base;
            base += zoneBytes[slot];
        }
        final ZoneLog[] table = bySlot;
        for (int p = 0; p < limit; )
        {
            final int recordLength = records.getInt(p + WriteBufferDescriptor.REC_LEN_OFFSET);
            final int slot = records.getInt(p + WriteBufferDescriptor.ZONE_SLOT_OFFSET);
            final long ticket = records.getLong(p + WriteBufferDescriptor.TICKET_OFFSET);
            final boolean tombstone = (records.get(p + WriteBufferDescriptor.FLAGS_OFFSET)
                & WriteBufferDescriptor.FLAG_TOMBSTONE) != 0;
            final long keyHash = records.getLong(p + WriteBufferDescriptor.KEY_HASH_OFFSET);
            final long sequence = records.getLong(p + WriteBufferDescriptor.SEQUENCE_OFFSET);
            final int length = records.getInt(p + WriteBufferDescriptor.LENGTH_OFFSET);
            final ZoneLog zone = table[slot];
            if (zone != null)
            {
                final int version = zone.nextVersion(keyHash, sequence, tombstone);
                final int at = zoneCursor[slot];
                final int headerLength = LogEntryDescriptor.encodeHeader(arena, at, tombstone, keyHash, sequence,
                    length, zone.epoch(), version);
                if (length > 0)
                {
                    arena.put(at + headerLength, records, p + WriteBufferDescriptor.HEADER_LENGTH, length);
                }
                LogEntryDescriptor.sealChecksum(arenaView, at, headerLength, length, crc);
                zoneCursor[slot] = at + headerLength + length;
                zoneMaxTicket[slot] = ticket;
            }
            p += recordLength;
        }
        return touchedCount;
    }

    /** Large per-zone batches straight to the secondary log; small ones to the primary log and zone buffer. */
    private void route(final int touchedCount) throws IOException
    {
        final int threshold = config.directThresholdBytes();
        for (int i = 0; i < touchedCount; i++)
        {
            final int slot = touched[i];
            final ZoneLog zone = bySlot[slot];
            if (zone == null)
            {
                continue;
            }
            final int start = zoneBase[slot];
            final int length = zoneCursor[slot] - start;
            if (length == 0)
            {
                continue;
            }
            if (length >= threshold)
            {
                zone.flushBuffer(staging, allocator);
                zone.write(arena, start, length, staging, allocator);
            }
            else
            {
                stagePrimary(zone, start, length);
                zone.buffer(arena, start, length, staging, allocator);
            }
        }
    }

    private void stagePrimary(final ZoneLog zone, final int start, final int length) throws IOException
    {
        final int recordBytes = PrimaryLog.RECORD_HEADER_BYTES + length;
        if (primaryFill + recordBytes > primaryStaging.capacity())
        {
            writePrimaryStaging();
        }
        if (!primaryLog.fits(primaryFill + (long)recordBytes))
        {
            writePrimaryStaging();
            if (!primaryLog.fits(recordBytes))
            {
                primaryFull();
            }
        }
        primaryStaging.put(primaryFill + PrimaryLog.RECORD_HEADER_BYTES, arena, start, length);
        primaryLog.sealRecord(primaryStaging, primaryFill, zone.id().writerId(), zone.id().zoneIndex(), length);
        primaryFill += recordBytes;
    }

    private void writePrimaryStaging() throws IOException
    {
        if (primaryFill > 0)
        {
            primaryLog.append(primaryStaging, 0, primaryFill, staging);
            primaryFill = 0;
            primaryDirty = true;
        }
    }

    /** The primary log is full: every buffered batch goes to its secondary log and is synced, then it restarts. */
    private void primaryFull() throws IOException
    {
        for (final ZoneLog zone : zoneLogs())
        {
            zone.flushBuffer(staging, allocator);
            zone.forceHead();
        }
        primaryLog.reset();
        primaryDirty = false;
    }

    private void markDirty(final ZoneLog zone)
    {
        ensureSlots(zone.slot() + 1);
        if (!dirty[zone.slot()])
        {
            dirty[zone.slot()] = true;
            dirtyZones.add(zone);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Cold start
    // ---------------------------------------------------------------------------------------------------------

    private void loadZones() throws IOException
    {
        try (Stream<Path> entries = Files.list(directory))
        {
            for (final Path path : (Iterable<Path>)entries::iterator)
            {
                final ZoneId id = ZoneId.parseDirectoryName(path.getFileName().toString());
                if (id != null && Files.isDirectory(path))
                {
                    openZone(id);
                }
            }
        }
        if (!zones.isEmpty())
        {
            LOG.info("durable-log: {} reopened {} zones", directory, zones.size());
        }
    }

    private int replayPrimaryLog() throws IOException
    {
        final long[] batches = new long[2];
        final int generation = PrimaryLog.replay(directory.resolve("primary.log"),
            (writerId, zoneIndex, buffer, offset, length) ->
            {
                final ZoneHandle handle = zones.get(new ZoneId(writerId, zoneIndex));
                if (handle == null)
                {
                    LOG.warn("durable-log: primary log of {} holds a batch of unknown zone {}/{}; skipped",
                        directory, writerId, zoneIndex);
                    return;
                }
                final ByteBuffer direct = buffer.isDirect() ? buffer : copyToArena(buffer, offset, length);
                handle.log().write(direct, direct == buffer ? offset : 0, length, staging, allocator);
                batches[0]++;
                batches[1] += length;
            });
        for (final ZoneLog zone : zoneLogs())
        {
            zone.forceHead();
        }
        dirtyZones.clear();
        Arrays.fill(dirty, false);
        if (batches[0] > 0)
        {
            LOG.info("durable-log: {} replayed {} primary-log batches ({} bytes) into secondary logs", directory,
                batches[0], batches[1]);
        }
        return generation;
    }

    private ByteBuffer copyToArena(final ByteBuffer buffer, final int offset, final int length)
    {
        arena.put(0, buffer, offset, length);
        return arena;
    }
}
