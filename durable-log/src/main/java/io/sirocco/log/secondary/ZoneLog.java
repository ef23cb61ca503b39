package io.sirocco.log.secondary;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.disk.LogStorageException;
import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.disk.AlignedBuffers;
import io.sirocco.log.disk.DiskAccess;
import io.sirocco.log.disk.LogFile;
import io.sirocco.log.entry.LogEntryDescriptor;
import io.sirocco.log.version.VersionBuffer;
import io.sirocco.log.version.VersionLog;

/**
 * Everything one backup keeps for one zone: the secondary log (segment files; only the head segment is appended
 * to, sealed segments are immutable until the cleaner replaces them), the secondary-log buffer collecting small
 * batches, the version buffer and version log, and the zone's epoch in {@code zone.meta}.
 *
 * <p>Threads: every mutating method runs under the store's log lock, on the flusher or the cleaner thread. The
 * persisted ticket is written by the flusher with release and read anywhere with acquire.
 */
public final class ZoneLog implements AutoCloseable
{
    private static final VarHandle PERSISTED_TICKET;
    private static final int META_MAGIC = 0x534C5A4D;

    static
    {
        try
        {
            PERSISTED_TICKET = MethodHandles.lookup().findVarHandle(ZoneLog.class, "persistedTicket", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final ZoneId id;
    private final int slot;
    private final Path directory;
    private final LogConfig config;
    private final DiskAccess access;
    private final List<Segment> segments = new ArrayList<>();
    /** A copy of {@code segments} for readers without the log lock (the cleaner's choice of a zone). */
    private volatile Segment[] segmentView = new Segment[0];
    private final VersionBuffer versionBuffer;
    private final VersionLog versionLog;
    private final FileChannel meta;
    private final ByteBuffer metaBuffer = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    private LogFile head;
    private Segment headSegment;
    private long nextSegmentId;
    private int epoch;
    private ByteBuffer secondaryBuffer;
    private int secondaryFill;
    private boolean metaDirty;
    private volatile boolean recovering;
    private volatile boolean cleanRequested;
    private volatile long writtenTicket = -1;
    @SuppressWarnings("unused")
    private volatile long persistedTicket = -1;

    private ZoneLog(final ZoneId id, final int slot, final Path directory, final LogConfig config,
        final DiskAccess access) throws IOException
    {
        this.id = id;
        this.slot = slot;
        this.directory = directory;
        this.config = config;
        this.access = access;
        Files.createDirectories(directory);
        this.versionBuffer = new VersionBuffer(config.versionBufferSlots(), config.versionBufferFlushFill());
        this.versionLog = new VersionLog(directory.resolve("versions.log"));
        this.meta = FileChannel.open(directory.resolve("zone.meta"), StandardOpenOption.CREATE,
            StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /**
     * Opens or creates a zone directory. Segments already on disk are all sealed: new writes go to a new head
     * segment, so a damaged tail is never overwritten. The epoch advances past the last one recorded.
     */
    public static ZoneLog open(final ZoneId id, final int slot, final Path directory, final LogConfig config,
        final DiskAccess access) throws IOException
    {
        final ZoneLog zone = new ZoneLog(id, slot, directory, config, access);
        try
        {
            zone.load();
            return zone;
        }
        catch (final IOException | RuntimeException ex)
        {
            try (zone) // registered nowhere yet: close its files, so a later attempt starts from fresh channels
            {
                throw ex;
            }
        }
    }

    private void load() throws IOException
    {
        int lastEpoch = -1;
        metaBuffer.clear();
        if (meta.read(metaBuffer, 0) >= 12 && metaBuffer.getInt(0) == META_MAGIC)
        {
            lastEpoch = metaBuffer.getInt(4);
        }
        segments.addAll(Segment.listIn(directory, config.segmentSizeBytes()));
        nextSegmentId = segments.isEmpty() ? 0 : segments.get(segments.size() - 1).id() + 1;
        segmentView = segments.toArray(new Segment[0]);
        // Written, not forced: the flusher forces zone.meta before any data of the zone, which is all a durable entry
        // needs. So opening a zone (on the transport's handler, under the store's log lock) does no fsync that a
        // slow disk would stretch over every zone's flush, or that the handler's interrupt at shutdown would break.
        advanceEpoch(lastEpoch + 1);
    }

    public ZoneId id()
    {
        return id;
    }

    public int slot()
    {
        return slot;
    }

    public Path directory()
    {
        return directory;
    }

    public int epoch()
    {
        return epoch;
    }

    public VersionBuffer versionBuffer()
    {
        return versionBuffer;
    }

    public VersionLog versionLog()
    {
        return versionLog;
    }

    /** Snapshot of the segments (under the log lock). */
    public List<Segment> segments()
    {
        return new ArrayList<>(segments);
    }

    /** Segments in the log, the head included (under the log lock). */
    public int segmentCount()
    {
        return segments.size();
    }

    public Segment headSegment()
    {
        return headSegment;
    }

    public boolean recovering()
    {
        return recovering;
    }

    public void recovering(final boolean v)
    {
        recovering = v;
    }

    public boolean cleanRequested()
    {
        return cleanRequested;
    }

    public void cleanRequested(final boolean v)
    {
        cleanRequested = v;
    }

    public long persistedTicketAcquire()
    {
        return (long)PERSISTED_TICKET.getAcquire(this);
    }

    /** Publishes that every entry up to {@code ticket} met the sync policy. Flusher thread only. */
    public void persistedTicketRelease(final long ticket)
    {
        PERSISTED_TICKET.setRelease(this, ticket);
    }

    public long writtenTicket()
    {
        return writtenTicket;
    }

    public void writtenTicket(final long ticket)
    {
        writtenTicket = ticket;
    }

    /**
     * Live plus dead bytes over capacity. Any thread: the cleaner asks without the log lock while the flusher adds
     * segments, so it reads the published copy of the list (a list being appended to threw
     * ConcurrentModificationException and stopped the cleaner).
     */
    public double utilization()
    {
        long fill = 0;
        for (final Segment segment : segmentView)
        {
            fill += segment.fillBytes();
        }
        return fill / ((double)config.secondaryLogSegments() * config.segmentSizeBytes());
    }

    /**
     * Assigns the next version of a key in the current epoch. A full version buffer ends the epoch first; its
     * tuples are only staged, and reach the version log in {@link #endEpochIfFull} after the data is written.
     */
    public int nextVersion(final long keyHash, final long sequence, final boolean tombstone) throws IOException
    {
        if (versionBuffer.full())
        {
            versionLog.stage(versionBuffer, epoch);
            versionBuffer.clear();
            advanceEpoch(epoch + 1);
        }
        return versionBuffer.nextVersion(keyHash, sequence, tombstone);
    }

    /**
     * Called by the flusher after the cycle's data was written: writes staged version tuples, and ends the epoch
     * if the version buffer reached its fill.
     */
    public void endEpochIfFull() throws IOException
    {
        versionLog.drainStaged();
        if (versionBuffer.full())
        {
            endEpoch();
        }
    }

    /** Appends the version buffer to the version log, clears it and advances the epoch. */
    public void endEpoch() throws IOException
    {
        if (versionBuffer.size() > 0)
        {
            versionLog.append(versionBuffer, epoch);
            versionBuffer.clear();
        }
        advanceEpoch(epoch + 1);
    }

    /**
     * Records the new epoch; {@link #forceMeta} makes it durable before any data that carries it is forced, so a
     * restart never reuses an epoch that a durable entry carries.
     */
    public void advanceEpoch(final int newEpoch) throws IOException
    {
        if (newEpoch > LogEntryDescriptor.MAX_EPOCH)
        {
            throw new LogStorageException(id + " in " + directory + ": epoch space exhausted (65,536 epochs); "
                + "the zone must be closed and a new zone opened");
        }
        metaBuffer.clear();
        metaBuffer.putInt(0, META_MAGIC).putInt(4, newEpoch).putLong(8, id.writerId()).putInt(16, id.zoneIndex());
        metaBuffer.limit(20);
        meta.write(metaBuffer, 0);
        metaDirty = true;
        epoch = newEpoch;
    }

    /**
     * Forces {@code zone.meta} if the epoch changed since the last force. The flusher calls this before forcing any
     * data file of the cycle, so a durable entry's epoch is always durably recorded first.
     */
    public void forceMeta() throws IOException
    {
        if (metaDirty)
        {
            meta.force(false);
            metaDirty = false;
        }
    }

    /** Adds a small batch to the secondary-log buffer, writing the buffer out first if it would overflow. */
    public void buffer(final ByteBuffer source, final int offset, final int length, final ByteBuffer staging,
        final SegmentAllocator allocator) throws IOException
    {
        if (secondaryBuffer == null)
        {
            secondaryBuffer = AlignedBuffers.allocate(Math.max(config.directThresholdBytes(), 4096), 4096);
        }
        if (secondaryFill + length > secondaryBuffer.capacity())
        {
            flushBuffer(staging, allocator);
        }
        if (length > secondaryBuffer.capacity())
        {
            write(source, offset, length, staging, allocator);
            return;
        }
        secondaryBuffer.put(secondaryFill, source, offset, length);
        secondaryFill += length;
        if (secondaryFill >= config.directThresholdBytes())
        {
            flushBuffer(staging, allocator);
        }
    }

    public int bufferedBytes()
    {
        return secondaryFill;
    }

    /** Writes the secondary-log buffer to the segments. */
    public void flushBuffer(final ByteBuffer staging, final SegmentAllocator allocator) throws IOException
    {
        if (secondaryFill > 0)
        {
            final int fill = secondaryFill;
            secondaryFill = 0;
            write(secondaryBuffer, 0, fill, staging, allocator);
        }
    }

    /**
     * Writes a batch of whole entries to the secondary log: into the head segment while it has room, then into
     * new segments, cutting only at entry boundaries (no entry spans two segments).
     */
    public void write(final ByteBuffer source, final int offset, final int length, final ByteBuffer staging,
        final SegmentAllocator allocator) throws IOException
    {
        final int segmentSize = config.segmentSizeBytes();
        int done = 0;
        while (done < length)
        {
            if (head == null)
            {
                openHead(allocator);
            }
            final long room = segmentSize - head.end() - 1;
            int cut = 0;
            while (done + cut < length)
            {
                final int entry = LogEntryDescriptor.entryLength(source, offset + done + cut);
                if (cut + entry > room)
                {
                    break;
                }
                cut += entry;
            }
            if (cut == 0)
            {
                if (head.end() == 0)
                {
                    throw new LogStorageException(id + ": entry of " + LogEntryDescriptor.entryLength(source,
                        offset + done) + " bytes does not fit in a " + segmentSize + "-byte segment");
                }
                sealHead(allocator.syncOnSeal());
                continue;
            }
            head.append(source, offset + done, cut, staging);
            headSegment.fillBytes(head.end());
            allocator.written(this, head);
            done += cut;
        }
        if (utilization() >= config.cleanerPrompt())
        {
            cleanRequested = true;
        }
    }

    private void openHead(final SegmentAllocator allocator) throws IOException
    {
        if (segments.size() >= config.secondaryLogSegments())
        {
            allocator.urgentClean(this);
            if (segments.size() >= config.secondaryLogSegments())
            {
                throw new LogStorageException(id + " in " + directory + ": secondary log full ("
                    + segments.size() + " segments of " + config.segmentSizeBytes() + " bytes, nothing reclaimable); "
                    + "the owner must respect zoneSizeLimitBytes=" + config.zoneSizeLimitBytes());
            }
        }
        final long segmentId = nextSegmentId++;
        final Path path = directory.resolve(Segment.fileName(segmentId));
        head = new LogFile(path, access, 0);
        headSegment = new Segment(segmentId, path, 0, System.nanoTime());
        segments.add(headSegment);
        segmentView = segments.toArray(new Segment[0]);
    }

    /** Seals the head segment (optionally forcing it first); the next write opens a new one. */
    public void sealHead(final boolean force) throws IOException
    {
        if (head != null)
        {
            if (force)
            {
                forceMeta();
                head.force();
            }
            head.close();
            head = null;
            headSegment = null;
        }
    }

    /** A path for a new segment built by the cleaner, counted once {@link #replaceSegments} installs it. */
    public Segment reserveSegment()
    {
        final long segmentId = nextSegmentId++;
        return new Segment(segmentId, directory.resolve(Segment.fileName(segmentId)), 0, System.nanoTime());
    }

    /** Installs cleaned segments and deletes the ones they replace (their output is already forced). */
    public void replaceSegments(final List<Segment> removed, final List<Segment> added) throws IOException
    {
        segments.addAll(added);
        for (final Segment segment : removed)
        {
            segments.remove(segment);
            Files.deleteIfExists(segment.path());
        }
        segments.sort((a, b) -> Long.compare(a.id(), b.id()));
        segmentView = segments.toArray(new Segment[0]);
    }

    public void forceHead() throws IOException
    {
        forceMeta();
        if (head != null)
        {
            head.force();
        }
    }

    /** Deletes every file of the zone (after it has been recovered and handed over). */
    public void deleteFiles() throws IOException
    {
        close();
        try (Stream<Path> files = Files.list(directory))
        {
            for (final Path path : (Iterable<Path>)files::iterator)
            {
                Files.deleteIfExists(path);
            }
        }
        Files.deleteIfExists(directory);
    }

    @Override
    public void close() throws IOException
    {
        if (head != null)
        {
            head.close();
            head = null;
        }
        versionLog.close();
        meta.close();
    }

    /** What the zone needs from its store while writing: new-segment policy and bookkeeping of dirty files. */
    public interface SegmentAllocator
    {
        /** Called when the secondary log has no free segment; may clean this zone synchronously. */
        void urgentClean(ZoneLog zone) throws IOException;

        /** A file was written in the current flush cycle (to be forced before acknowledging). */
        void written(ZoneLog zone, LogFile file);

        /** Whether sealed segments are forced when sealed (any policy other than NONE). */
        boolean syncOnSeal();
    }
}
