package io.sirocco.log.cleaner;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.disk.DiskAccess;
import io.sirocco.log.disk.LogFile;
import io.sirocco.log.entry.LogEntry;
import io.sirocco.log.recovery.Damage;
import io.sirocco.log.recovery.SegmentScanner;
import io.sirocco.log.secondary.Segment;
import io.sirocco.log.secondary.ZoneLog;
import io.sirocco.log.version.KeyTable;
import io.sirocco.log.version.VersionCodec;
import io.sirocco.log.version.VersionLog;

/**
 * The background cleaner (the thesis's reorganization, §2.6). It picks a zone whose secondary log is above the
 * prompt threshold (requested by a write) or, failing that, the most utilized one above the activation threshold;
 * takes a snapshot of the zone's versions (version log plus version buffer, newest per key); then examines up to
 * {@code cleanerSegmentsPerPass} sealed segments, oldest-and-fullest first ({@code argmax age x fill}), and
 * rewrites those with enough garbage into new segments holding only valid entries. An entry is garbage only if its
 * (epoch, version) is strictly older than the key's version in the snapshot; everything else is kept (the key's
 * newest, anything written after the snapshot, and versions the snapshot never saw because a restart lost the
 * version buffer of the last epoch): the newest version of a key is never dropped, whatever the version log misses.
 * After a pass that replaced segments (or when the version log has grown far past one tuple per key) the version
 * log is compacted (one tuple per key, crash-safe rewrite), the version buffer cleared and the epoch advanced; a
 * pass that finds nothing to do changes nothing, burns no epoch, and the cleaner then waits
 * {@code cleanerIntervalNs} before looking again.
 *
 * <p>Fairness with foreground writes: the cleaner reads and writes segments without the store's log lock (sealed
 * segments are immutable) and takes the fair lock only to compact versions and to swap segments, so the flusher
 * waits at most one short critical section. New segments are forced before the old ones are deleted, so a crash
 * leaves at worst duplicates of valid entries.
 */
public final class Cleaner implements Runnable
{
    private static final Logger LOG = LoggerFactory.getLogger(Cleaner.class);

    private final LogConfig config;
    private final ReentrantLock logLock;
    private final Supplier<List<ZoneLog>> zones;
    private final DiskAccess access;
    private final CleaningWork background;
    private CleaningWork urgentWork;
    private final AtomicLong reclaimedBytes = new AtomicLong();
    private final AtomicLong segmentsCleaned = new AtomicLong();
    private final AtomicLong passes = new AtomicLong();
    private volatile boolean running = true;
    private volatile Thread thread;

    public Cleaner(final LogConfig config, final ReentrantLock logLock, final Supplier<List<ZoneLog>> zones,
        final DiskAccess access)
    {
        this.config = config;
        this.logLock = logLock;
        this.zones = zones;
        this.access = access;
        this.background = new CleaningWork(config, access);
    }

    public long reclaimedBytes()
    {
        return reclaimedBytes.get();
    }

    /** Cleaning passes run so far (background, urgent and on demand), fruitful or not. */
    public long passes()
    {
        return passes.get();
    }

    public long segmentsCleaned()
    {
        return segmentsCleaned.get();
    }

    public void stop()
    {
        running = false;
        final Thread t = thread;
        if (t != null)
        {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run()
    {
        thread = Thread.currentThread();
        while (running)
        {
            final ZoneLog zone = select();
            if (zone == null)
            {
                LockSupport.parkNanos(config.cleanerIntervalNs());
                continue;
            }
            try
            {
                if (clean(zone, false, false, background) == 0)
                {
                    LockSupport.parkNanos(config.cleanerIntervalNs()); // nothing to gain now: never spin
                }
            }
            catch (final NoSuchFileException ex)
            {
                LOG.debug("durable-log: cleaning {}: segment replaced by an urgent pass meanwhile", zone.id());
            }
            catch (final IOException | RuntimeException ex)
            {
                LOG.warn("durable-log: cleaning {} in {} failed: {}", zone.id(), zone.directory(), ex.toString());
                LockSupport.parkNanos(config.cleanerIntervalNs());
            }
        }
    }

    private ZoneLog select()
    {
        ZoneLog best = null;
        double bestUtilization = 0;
        for (final ZoneLog zone : zones.get())
        {
            if (zone.recovering())
            {
                continue;
            }
            final double utilization = zone.utilization();
            if (zone.cleanRequested())
            {
                return zone;
            }
            if (utilization >= config.cleanerActivation() && utilization > bestUtilization)
            {
                best = zone;
                bestUtilization = utilization;
            }
        }
        return best;
    }

    /**
     * Urgent cleaning of a (nearly) full log, run by the flusher that holds the log lock; cleans every sealed
     * segment. {@code midCycle}: called while a flush cycle is writing, when the version buffer already holds
     * versions of entries not yet written, so only the version-log file judges garbage; otherwise (between cycles)
     * the whole version buffer does.
     */
    public void cleanUrgently(final ZoneLog zone, final boolean midCycle) throws IOException
    {
        if (urgentWork == null)
        {
            urgentWork = new CleaningWork(config, access);
        }
        clean(zone, true, midCycle, urgentWork);
    }

    /**
     * Runs one background cleaning pass over {@code zone} on the calling thread and returns the bytes reclaimed.
     * Only for a store whose cleaner thread is not running ({@code cleanerEnabled=false}): tests and tools that
     * need a pass at a known point.
     */
    public long cleanOnce(final ZoneLog zone) throws IOException
    {
        if (thread != null)
        {
            throw new IllegalStateException("durable-log: cleaning " + zone.id() + " on demand needs the background "
                + "cleaner disabled (cleanerEnabled=false)");
        }
        return clean(zone, false, false, background);
    }

    /**
     * One cleaning pass over a zone; returns the bytes reclaimed. An urgent pass runs on the flusher while it holds
     * the log lock, so a background pass may find its input segments already replaced: it then discards its output.
     */
    private long clean(final ZoneLog zone, final boolean urgent, final boolean midCycle, final CleaningWork work)
        throws IOException
    {
        final List<Segment> added = new ArrayList<>();
        try
        {
            return cleanPass(zone, urgent, midCycle, work, added);
        }
        catch (final IOException | RuntimeException ex)
        {
            for (final Segment segment : added)
            {
                Files.deleteIfExists(segment.path());
            }
            throw ex;
        }
        finally
        {
            passes.incrementAndGet(); // after the pass: a reader of the count sees what the pass changed
        }
    }

    private long cleanPass(final ZoneLog zone, final boolean urgent, final boolean midCycle,
        final CleaningWork work, final List<Segment> added) throws IOException
    {
        final Snapshot snapshot = snapshot(zone, midCycle);
        if (snapshot == null)
        {
            return 0;
        }
        final List<Segment> candidates = snapshot.candidates;
        rank(candidates, urgent);
        final List<Segment> removed = new ArrayList<>();
        final List<Damage> damages = new ArrayList<>();
        work.output.clear();
        long reclaimed = 0;
        for (final Segment segment : candidates)
        {
            final long live = copyLive(zone, segment, urgent, snapshot.validity, work, added, damages);
            if (live >= 0)
            {
                removed.add(segment);
                reclaimed += segment.fillBytes() - live;
                Thread.yield(); // let foreground work in between segments
            }
        }
        if (work.output.position() > 0)
        {
            added.add(emit(zone, work));
        }
        if (removed.isEmpty())
        {
            if (snapshot.compactAnyway)
            {
                compactVersionsLocked(zone);
            }
            return 0;
        }
        if (!swap(zone, removed, added, midCycle))
        {
            return 0;
        }
        reclaimedBytes.addAndGet(reclaimed);
        segmentsCleaned.addAndGet(removed.size());
        LOG.debug("durable-log: cleaned {} segments of {} into {}, reclaimed {} bytes", removed.size(), zone.id(),
            added.size(), reclaimed);
        return reclaimed;
    }

    /** What a pass judges by: the versions that decide garbage, and the sealed segments it may clean. */
    private record Snapshot(KeyTable validity, boolean compactAnyway, List<Segment> candidates)
    {
    }

    /** Takes the zone's versions and sealed segments under the log lock; null if the zone is being recovered. */
    private Snapshot snapshot(final ZoneLog zone, final boolean midCycle) throws IOException
    {
        final KeyTable table = new KeyTable(1 << 12, 0.6, true);
        final KeyTable validity;
        logLock.lock();
        try
        {
            if (zone.recovering())
            {
                return null;
            }
            zone.cleanRequested(false);
            VersionLog.readInto(zone.versionLog().path(), table);
            if (midCycle)
            {
                // In the middle of a flush cycle the version buffer already holds the versions of this cycle's
                // entries, which are not written (let alone synced) yet. Judging garbage by them could delete an
                // acknowledged older version before its successor is durable, so only versions of the version-log
                // file (data of earlier cycles) decide what is garbage here.
                validity = new KeyTable(1 << 12, 0.6, true);
                VersionLog.readInto(zone.versionLog().path(), validity);
            }
            else
            {
                validity = table;
            }
            putBufferedVersions(zone, table);
            final long logTuples = Files.size(zone.versionLog().path()) / VersionLog.TUPLE_BYTES;
            final boolean compactAnyway = !midCycle && logTuples > 2L * table.size() + 65_536;
            final Segment head = zone.headSegment();
            final List<Segment> candidates = new ArrayList<>();
            for (final Segment segment : zone.segments())
            {
                if (segment != head)
                {
                    candidates.add(segment);
                }
            }
            return new Snapshot(validity, compactAnyway, candidates);
        }
        finally
        {
            logLock.unlock();
        }
    }

    /** Urgent: oldest first, all of them; background: oldest-and-fullest first, at most the per-pass limit. */
    private void rank(final List<Segment> candidates, final boolean urgent)
    {
        final long now = System.nanoTime();
        if (urgent)
        {
            candidates.sort(Comparator.comparingLong(Segment::id));
        }
        else
        {
            candidates.sort(Comparator.comparingDouble(
                (Segment s) -> -(double)(now - s.createdNs() + 1) * s.fillBytes()));
            while (candidates.size() > config.cleanerSegmentsPerPass())
            {
                candidates.remove(candidates.size() - 1);
            }
        }
    }

    /**
     * Judges one segment and, if cleaning it is worth it (or it is damaged), copies its valid entries to the output
     * (emitting full outputs as new segments into {@code added}). Returns the live bytes copied, or -1 if the
     * segment stays as it is.
     */
    private long copyLive(final ZoneLog zone, final Segment segment, final boolean urgent, final KeyTable validity,
        final CleaningWork work, final List<Segment> added, final List<Damage> damages) throws IOException
    {
        final ByteBuffer output = work.output;
        final SegmentScanner scanner = work.scanner;
        final ByteBuffer image;
        try (FileChannel in = FileChannel.open(segment.path(), StandardOpenOption.READ))
        {
            image = ByteBuffer.allocate((int)in.size()).order(ByteOrder.LITTLE_ENDIAN);
            LogFile.readFully(in, image, 0);
            image.flip();
        }
        final long[] live = new long[1];
        final int[] ordinal = new int[1];
        scanner.scan(segment.path(), image, image.limit(), (LogEntry entry) ->
        {
            final boolean valid = valid(entry, validity);
            work.valid(ordinal[0]++, valid); // remembered for the copy below: one table lookup per entry
            if (valid)
            {
                live[0] += entry.totalLength();
            }
        }, damages);
        final double garbage = 1.0 - live[0] / (double)Math.max(1, segment.fillBytes());
        final boolean worthIt = urgent
            ? live[0] < segment.fillBytes() || segment.fillBytes() < config.segmentSizeBytes() / 2
            : garbage >= config.cleanerMinGarbage();
        if (!worthIt && damages.isEmpty())
        {
            return -1; // (an urgent pass still merges half-empty segments, but never copies a full, clean one)
        }
        if (output.position() + live[0] > output.capacity())
        {
            added.add(emit(zone, work));
        }
        ordinal[0] = 0;
        scanner.scan(segment.path(), image, image.limit(), (LogEntry entry) ->
        {
            if (work.valid(ordinal[0]++))
            {
                output.put(output.position(), image, entry.offset(), entry.totalLength());
                output.position(output.position() + entry.totalLength());
            }
        }, new ArrayList<>());
        return live[0];
    }

    /**
     * Replaces the cleaned segments by the new ones under the log lock, unless a recovery or an urgent pass got
     * there first (then the new ones are deleted and this returns false).
     */
    private boolean swap(final ZoneLog zone, final List<Segment> removed, final List<Segment> added,
        final boolean midCycle) throws IOException
    {
        logLock.lock();
        try
        {
            if (zone.recovering() || !zone.segments().containsAll(removed))
            {
                for (final Segment segment : added)
                {
                    Files.deleteIfExists(segment.path());
                }
                return false;
            }
            zone.replaceSegments(removed, added);
            if (!midCycle)
            {
                compactVersions(zone);
            }
            return true;
        }
        finally
        {
            logLock.unlock();
        }
    }

    private void compactVersionsLocked(final ZoneLog zone) throws IOException
    {
        logLock.lock();
        try
        {
            if (!zone.recovering())
            {
                compactVersions(zone);
            }
        }
        finally
        {
            logLock.unlock();
        }
    }

    /**
     * Compacts the zone's version log (log plus buffer into one tuple per key, crash-safe rewrite), clears the
     * version buffer and ends the epoch. Under the log lock, between flush cycles (every version in the buffer
     * belongs to written data), and only after a pass that did work or when the log has grown well past one tuple
     * per key, so an idle cleaner never burns epochs (a zone has 65,536).
     */
    private static void compactVersions(final ZoneLog zone) throws IOException
    {
        final KeyTable table = new KeyTable(1 << 12, 0.6, true);
        VersionLog.readInto(zone.versionLog().path(), table);
        putBufferedVersions(zone, table);
        zone.versionLog().rewrite(table);
        zone.versionBuffer().clear();
        zone.advanceEpoch(zone.epoch() + 1);
    }

    /**
     * Adds the zone's version buffer (this epoch's versions, not in the version log yet) to table, stamped with the
     * current epoch; per key the larger packed value stays ({@link KeyTable#putMax}). Caller holds the log lock.
     */
    private static void putBufferedVersions(final ZoneLog zone, final KeyTable table)
    {
        final KeyTable buffered = zone.versionBuffer().table();
        for (int slot = 0; slot < buffered.capacity(); slot++)
        {
            if (buffered.usedAt(slot))
            {
                final long v = buffered.valueAt(slot);
                table.putMax(buffered.keyHashAt(slot), buffered.sequenceAt(slot),
                    VersionCodec.pack(zone.epoch(), VersionCodec.version(v), VersionCodec.tombstone(v)));
            }
        }
    }

    private static boolean valid(final LogEntry entry, final KeyTable table)
    {
        // The table may lack a key's newest versions: a crash or restart loses the version buffer of the last
        // epoch, and tuples staged mid-cycle are not in the file yet. So an entry is garbage only if it is strictly
        // older than a version the table knows (whose data was written before the table recorded it); an entry as
        // new as or newer than the table's is kept.
        final long newest = table.get(entry.keyHash(), entry.sequence(), -1);
        return newest < 0 || !VersionCodec.older(VersionCodec.pack(entry.epoch(), entry.version(),
            entry.tombstone()), newest);
    }

    private Segment emit(final ZoneLog zone, final CleaningWork work) throws IOException
    {
        final ByteBuffer output = work.output;
        final Segment reserved;
        logLock.lock();
        try
        {
            reserved = zone.reserveSegment();
        }
        finally
        {
            logLock.unlock();
        }
        try (LogFile file = new LogFile(reserved.path(), access, 0))
        {
            file.append(output, 0, output.position(), work.staging);
            file.force();
        }
        final Segment segment = new Segment(reserved.id(), reserved.path(), output.position(), System.nanoTime());
        output.clear();
        return segment;
    }
}
