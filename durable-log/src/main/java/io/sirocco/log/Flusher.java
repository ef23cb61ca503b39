package io.sirocco.log;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.disk.LogStorageException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
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
import io.sirocco.log.secondary.ZoneLog;

/**
 * The flusher of one backup store: sorts the write buffer by zone, assigns versions, routes batches to the primary
 * or secondary logs, syncs per policy and acknowledges. Its constructor replays the primary log on a cold start
 * ({@link PrimaryLogReplay}), before its thread runs.
 *
 * <p>Its loop ({@link #run}) is a plain loop, not an agent: its wait is the park itself, whose length depends on
 * the sync policy and the time since the last flush, and a writer's {@link WriteBuffer#wakeFlusher()} unparks it.
 * A failure stops the loop for good ({@link #failure()}).
 *
 * <p>Concurrency: the buffers and per-slot arrays are confined to the flusher thread (and to the constructor's
 * replay, before the thread starts). A cycle runs under the store's fair log lock. Other threads see only the
 * volatile flags: flush requests ({@link #requestFlush}, an atomic count) are answered by {@link #flushesDone()},
 * written after the cycle that served them; {@link #sleeping()} tells group-sync writers to wake the flusher.
 */
final class Flusher implements Runnable
{
    private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);
    private static final int MAX_ENCODED_OVERHEAD = LogEntryDescriptor.MAX_HEADER_LENGTH;

    private final Path directory;
    private final LogConfig config;
    private final SyncPolicy policy;
    private final PersistListener listener;
    private final WriteBuffer writeBuffer;
    private final ReentrantLock logLock;
    private final ZoneTable zones;
    private final Cleaner cleaner;
    private final PrimaryLog primaryLog;
    private final AtomicLong flushRequests = new AtomicLong();
    private volatile long flushesDone;
    private volatile boolean running = true;
    private volatile boolean sleeping;
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

    /** Allocates the buffers, replays the primary log into the zones' secondary logs and opens it anew. */
    Flusher(final Path directory, final LogConfig config, final PersistListener listener, final WriteBuffer writeBuffer,
        final ReentrantLock logLock, final ZoneTable zones, final Cleaner cleaner, final DiskAccess access)
        throws IOException
    {
        this.directory = directory;
        this.config = config;
        this.policy = config.syncPolicy();
        this.listener = listener;
        this.writeBuffer = writeBuffer;
        this.logLock = logLock;
        this.zones = zones;
        this.cleaner = cleaner;
        final int block = access.blockSize();
        this.arena = AlignedBuffers.allocate(config.writeBufferBytes() + MAX_ENCODED_OVERHEAD, block);
        this.arenaView = arena.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.primaryStaging = AlignedBuffers.allocate(config.writeBufferBytes() + 64 * 1024, block);
        this.staging = AlignedBuffers.allocate(config.segmentSizeBytes() + 2 * block, block);
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
        final int generation = PrimaryLogReplay.replay(directory, zones, arena, staging, allocator);
        dirtyZones.clear(); // the replay forced every zone's head: nothing is left to sync
        Arrays.fill(dirty, false);
        this.primaryLog = new PrimaryLog(directory.resolve("primary.log"), access, config.primaryLogSizeBytes(),
            generation + 1);
    }

    PrimaryLog primaryLog()
    {
        return primaryLog;
    }

    /** The failure that stopped the flusher, or null. */
    LogStorageException failure()
    {
        return failure;
    }

    /** Whether the flusher is parked waiting for work (group-sync writers then wake it). */
    boolean sleeping()
    {
        return sleeping;
    }

    /** Asks for a priority flush; returns the request's number, done once {@link #flushesDone()} reaches it. */
    long requestFlush()
    {
        return flushRequests.incrementAndGet();
    }

    long flushesDone()
    {
        return flushesDone;
    }

    /** Stops the loop after its current cycle; returns whether it was running. The caller wakes and joins it. */
    boolean stop()
    {
        final boolean wasRunning = running;
        running = false;
        return wasRunning;
    }

    @Override
    public void run()
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
                sleeping = true;
                if (writeBuffer.pendingBytes() == 0 || policy == SyncPolicy.NONE)
                {
                    LockSupport.parkNanos(policy == SyncPolicy.NONE
                        ? Math.max(100_000, config.flushIntervalNs() - (nowNs - lastFlushNs)) : 1_000_000);
                }
                sleeping = false;
                continue;
            }
            try
            {
                cycle(priority);
            }
            catch (final IOException | RuntimeException ex)
            {
                fail(ex);
                return;
            }
            lastFlushNs = nowNs;
            if (priority)
            {
                flushesDone = request;
            }
        }
    }

    private void fail(final Exception ex)
    {
        final LogStorageException failed = new LogStorageException("backup store " + directory
            + ": writing the logs failed (" + ex.getMessage() + "); entries not yet acknowledged are not "
            + "persisted, acknowledged ones are intact; policy " + policy, ex);
        LOG.error("durable-log: {}", failed.getMessage(), ex);
        failure = failed;
        listener.onFailure(failed);
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
                for (final ZoneLog zone : zones.logs())
                {
                    zone.flushBuffer(staging, allocator);
                }
            }
            writePrimaryStaging();
            if (policy != SyncPolicy.NONE || priority)
            {
                sync(touchedCount);
            }
            primaryDirty = false;
            for (final ZoneLog zone : dirtyZones)
            {
                dirty[zone.slot()] = false;
            }
            dirtyZones.clear();
            acknowledge(touchedCount);
        }
        finally
        {
            logLock.unlock();
        }
    }

    private void sync(final int touchedCount) throws IOException
    {
        final ZoneLog[] bySlot = zones.slots();
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

    private void acknowledge(final int touchedCount) throws IOException
    {
        final ZoneLog[] bySlot = zones.slots();
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

    /**
     * Before a cycle assigns versions: urgently cleans every zone log that this cycle's bytes might fill. Here every
     * version in the version buffers belongs to data already written (and synced, under group/each), so the cleaner
     * may judge garbage by all of them; a pass forced in the middle of the cycle may not ({@link Cleaner}).
     */
    private void cleanNearlyFullLogs(final int pendingBytes) throws IOException
    {
        final int needed = pendingBytes / config.segmentSizeBytes() + 2;
        for (final ZoneLog zone : zones.slots())
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
        final ZoneLog[] table = zones.slots();
        ensureSlots(table.length);
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
        for (int p = 0; p < limit; )
        {
            final int slot = records.getInt(p + WriteBufferDescriptor.ZONE_SLOT_OFFSET);
            final ZoneLog zone = table[slot];
            if (zone != null)
            {
                encode(records, p, zone, slot);
            }
            p += records.getInt(p + WriteBufferDescriptor.REC_LEN_OFFSET);
        }
        return touchedCount;
    }

    /** Encodes the write-buffer record at {@code p} as a log entry at its zone's cursor in the arena. */
    private void encode(final ByteBuffer records, final int p, final ZoneLog zone, final int slot) throws IOException
    {
        final long ticket = records.getLong(p + WriteBufferDescriptor.TICKET_OFFSET);
        final boolean tombstone = (records.get(p + WriteBufferDescriptor.FLAGS_OFFSET)
            & WriteBufferDescriptor.FLAG_TOMBSTONE) != 0;
        final long keyHash = records.getLong(p + WriteBufferDescriptor.KEY_HASH_OFFSET);
        final long sequence = records.getLong(p + WriteBufferDescriptor.SEQUENCE_OFFSET);
        final int length = records.getInt(p + WriteBufferDescriptor.LENGTH_OFFSET);
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

    /** Large per-zone batches straight to the secondary log; small ones to the primary log and zone buffer. */
    private void route(final int touchedCount) throws IOException
    {
        final int threshold = config.directThresholdBytes();
        final ZoneLog[] bySlot = zones.slots();
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
        for (final ZoneLog zone : zones.logs())
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
}
