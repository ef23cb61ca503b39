package io.sirocco.log.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.log.disk.LogStorageException;
import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.disk.LogFile;
import io.sirocco.log.entry.LogEntry;
import io.sirocco.log.version.KeyTable;
import io.sirocco.log.version.VersionCodec;
import io.sirocco.log.version.VersionLog;

/**
 * Local recovery of one zone from its secondary-log segments and version log, after the thesis (§3.3):
 * <ol>
 *   <li>helper threads (the calling thread plus {@code threads - 1}, see {@link ParallelParts}) each take
 *       segments from a shared counter, read the whole file and scan it with CRC checks
 *       ({@link SegmentScanner}), recording every intact entry's key, (epoch, version) and place;</li>
 *   <li>the calling thread keeps the newest version of each key (a tombstone deletes the key), checks the result
 *       against the version log (a newer version recorded there but absent from the segments is reported as
 *       damage, never silently dropped), sorts by sequence and streams the entries to the consumer.</li>
 * </ol>
 * Segment images stay in memory until the consumer is done (the thesis hands them to the memory manager without
 * copying). Stateless apart from its settings; each {@link #recover} call is independent.
 */
public final class ZoneRecovery
{
    private static final Logger LOG = LoggerFactory.getLogger(ZoneRecovery.class);

    private final int threads;
    private final int maxEntryLength;

    public ZoneRecovery(final int threads, final int maxEntryLength)
    {
        this.threads = threads;
        this.maxEntryLength = maxEntryLength;
    }

    /**
     * Recovers a zone.
     *
     * @param segments   segment files, any order.
     * @param versionLog the zone's version log, or null to skip the cross-check.
     * @param current    versions still in the zone's version buffer (current epoch), or null.
     */
    public RecoveryReport recover(final ZoneId zone, final List<Path> segments, final Path versionLog,
        final KeyTable current, final int currentEpoch, final RecoveryConsumer consumer)
    {
        final long startNs = System.nanoTime();
        final int segmentCount = segments.size();
        final ByteBuffer[] images = new ByteBuffer[segmentCount];
        final List<Damage> damages = new ArrayList<>();
        final int workers = Math.max(1, Math.min(threads, segmentCount));
        final Found all = scan(zone, segments, images, workers, damages);
        long bytesRead = 0;
        for (final ByteBuffer image : images)
        {
            bytesRead += image == null ? 0 : image.limit();
        }

        final long scannedNs = System.nanoTime();
        // Newest version per key, partitioned by key over the recovery threads (each builds its own table).
        final int parts = workers;
        final KeyTable[] newest = newestByPart(all, parts);
        if (versionLog != null)
        {
            crossCheck(zone, versionLog, current, currentEpoch, newest, all, damages);
        }
        final long[] deleted = new long[1];
        final int[] order = liveEntries(newest, all, deleted);
        final int live = order.length;
        final long mergedNs = System.nanoTime();
        sort(order, 0, live, all);
        final long maxSequence = stream(zone, order, all, images, consumer);
        final RecoveryReport report = new RecoveryReport(zone, live, deleted[0], all.count, segmentCount, bytesRead,
            maxSequence, List.copyOf(damages), workers, System.nanoTime() - startNs);
        LOG.info("durable-log: recovered {}: {} entries ({} deleted keys, {} scanned) from {} segments with {} "
            + "threads in {} ms (scan {} ms, newest-version merge and version-log check {} ms, sort and stream {} ms), "
            + "{} damaged regions", zone, live, deleted[0], all.count, segmentCount, workers,
            report.elapsedNs() / 1_000_000, (scannedNs - startNs) / 1_000_000, (mergedNs - scannedNs) / 1_000_000,
            (System.nanoTime() - mergedNs) / 1_000_000, damages.size());
        consumer.onComplete(report);
        for (RecoveryConsumer next = consumer.then(); next != null; next = next.then())
        {
            final long againNs = System.nanoTime();
            stream(zone, order, all, images, next);
            LOG.debug("durable-log: {}: streamed {} entries again in {} ms", zone, live,
                (System.nanoTime() - againNs) / 1_000_000);
            next.onComplete(report);
        }
        return report;
    }

    /** Reads and scans every segment on {@code workers} threads; returns every intact entry found. */
    private Found scan(final ZoneId zone, final List<Path> segments, final ByteBuffer[] images, final int workers,
        final List<Damage> damages)
    {
        final Found[] found = new Found[workers];
        final AtomicInteger next = new AtomicInteger();
        for (int w = 0; w < workers; w++)
        {
            found[w] = new Found();
        }
        ParallelParts.run("helper", "recovery of " + zone, workers,
            w -> scanSegments(segments, images, next, found[w], damages));
        return Found.concat(found);
    }

    /** Per key partition, a table from key to the index (in {@code all}) of its newest version. */
    private static KeyTable[] newestByPart(final Found all, final int parts)
    {
        final KeyTable[] newest = new KeyTable[parts];
        ParallelParts.run("merge", "recovery", parts, part ->
        {
            final KeyTable table = new KeyTable(Math.max(16, all.count / parts * 2 + 16), 0.6, true);
            for (int i = 0; i < all.count; i++)
            {
                if (partition(all.keyHash[i], all.sequence[i], parts) != part)
                {
                    continue;
                }
                final int slot = table.find(all.keyHash[i], all.sequence[i]);
                if (slot < 0)
                {
                    table.putAt(slot, all.keyHash[i], all.sequence[i], i);
                }
                else if (all.version[i] > all.version[(int)table.valueAt(slot)])
                {
                    table.valueAt(slot, i);
                }
            }
            newest[part] = table;
        });
        return newest;
    }

    /** The indices of the newest versions that are not deletions; counts the deleted keys into {@code deleted[0]}. */
    private static int[] liveEntries(final KeyTable[] newest, final Found all, final long[] deleted)
    {
        final int parts = newest.length;
        final int[][] liveByPart = new int[parts][];
        final long[] deletedByPart = new long[parts];
        ParallelParts.run("merge", "recovery", parts, part ->
        {
            final KeyTable table = newest[part];
            final int[] indices = new int[table.size()];
            int n = 0;
            for (int slot = 0; slot < table.capacity(); slot++)
            {
                if (table.usedAt(slot))
                {
                    final int index = (int)table.valueAt(slot);
                    if (VersionCodec.tombstone(all.version[index]))
                    {
                        deletedByPart[part]++;
                    }
                    else
                    {
                        indices[n++] = index;
                    }
                }
            }
            liveByPart[part] = Arrays.copyOf(indices, n);
        });
        int live = 0;
        for (int part = 0; part < parts; part++)
        {
            live += liveByPart[part].length;
            deleted[0] += deletedByPart[part];
        }
        final int[] order = new int[live];
        int filled = 0;
        for (final int[] indices : liveByPart)
        {
            System.arraycopy(indices, 0, order, filled, indices.length);
            filled += indices.length;
        }
        return order;
    }

    /** Hands the entries to the consumer in {@code order}; returns the highest sequence streamed, or -1. */
    private static long stream(final ZoneId zone, final int[] order, final Found all, final ByteBuffer[] images,
        final RecoveryConsumer consumer)
    {
        long maxSequence = -1;
        for (final int i : order)
        {
            final long place = all.place[i];
            final ByteBuffer image = images[(int)(place >>> 32)];
            consumer.onEntry(zone, all.keyHash[i], all.sequence[i], VersionCodec.epoch(all.version[i]),
                VersionCodec.version(all.version[i]), image, (int)place, all.length[i]);
            maxSequence = Math.max(maxSequence, all.sequence[i]);
        }
        return maxSequence;
    }

    private void scanSegments(final List<Path> segments, final ByteBuffer[] images, final AtomicInteger next,
        final Found found, final List<Damage> damages)
    {
        final SegmentScanner scanner = new SegmentScanner(maxEntryLength);
        int index;
        while ((index = next.getAndIncrement()) < segments.size())
        {
            final Path path = segments.get(index);
            final ByteBuffer image;
            try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ))
            {
                image = ByteBuffer.allocate((int)in.size()).order(ByteOrder.LITTLE_ENDIAN);
                LogFile.readFully(in, image, 0);
                image.flip();
            }
            catch (final IOException ex)
            {
                synchronized (damages)
                {
                    damages.add(new Damage(path, 0, -1, "unreadable segment: " + ex));
                }
                LOG.warn("durable-log: cannot read segment {}: {}", path, ex.toString());
                continue;
            }
            images[index] = image;
            final long segment = (long)index << 32;
            scanner.scan(path, image, image.limit(), (LogEntry entry) -> found.add(entry, segment), damages);
        }
    }

    private static int partition(final long keyHash, final long sequence, final int parts)
    {
        final long h = (keyHash ^ (sequence * 0x9E37_79B9_7F4A_7C15L)) * 0xD6E8_FEB8_6659_FD93L + sequence;
        return (int)((h >>> 40) % parts);
    }

    /**
     * Checks the recovered newest versions against the version log and buffer: a newer version recorded there but
     * absent from the segments is reported as damage. The log is read once; the keys are checked by partition.
     */
    private static void crossCheck(final ZoneId zone, final Path versionLog, final KeyTable current,
        final int currentEpoch, final KeyTable[] newest, final Found all, final List<Damage> damages)
    {
        final Found expected = expectedVersions(versionLog, current, currentEpoch, damages);
        if (expected == null)
        {
            return;
        }
        final int parts = newest.length;
        final long[] missingByPart = new long[parts];
        final List<Damage> found = new ArrayList<>();
        ParallelParts.run("merge", "recovery", parts, part ->
        {
            final KeyTable table = newest[part];
            for (int i = 0; i < expected.count; i++)
            {
                final long keyHash = expected.keyHash[i];
                final long sequence = expected.sequence[i];
                if (partition(keyHash, sequence, parts) != part)
                {
                    continue;
                }
                final long want = expected.version[i];
                final long have = table.get(keyHash, sequence, -1);
                if ((have < 0 || (all.version[(int)have] >>> 1) < (want >>> 1)) && missingByPart[part]++ < 16)
                {
                    final Damage damage = missingVersion(versionLog, keyHash, sequence, want, have);
                    synchronized (found)
                    {
                        found.add(damage);
                    }
                }
            }
        });
        long missing = 0;
        for (final long m : missingByPart)
        {
            missing += m;
        }
        if (missing > 0)
        {
            damages.addAll(found.subList(0, Math.min(16, found.size())));
            LOG.warn("durable-log: {}: {} newer versions recorded in {} are missing from the segments",
                zone, missing, versionLog);
            if (missing > 16)
            {
                damages.add(new Damage(versionLog, 0, 0, (missing - 16) + " more missing newest versions"));
            }
        }
    }

    /** The versions the version log and buffer record, or null (and a damage) if the log cannot be read. */
    private static Found expectedVersions(final Path versionLog, final KeyTable current, final int currentEpoch,
        final List<Damage> damages)
    {
        final Found expected = new Found();
        try
        {
            VersionLog.forEach(versionLog, expected::addTuple);
        }
        catch (final IOException ex)
        {
            damages.add(new Damage(versionLog, 0, -1, "unreadable version log: " + ex));
            return null;
        }
        if (current != null)
        {
            for (int slot = 0; slot < current.capacity(); slot++)
            {
                if (current.usedAt(slot))
                {
                    final long v = current.valueAt(slot);
                    expected.addTuple(current.keyHashAt(slot), current.sequenceAt(slot), VersionCodec.pack(
                        currentEpoch, VersionCodec.version(v), VersionCodec.tombstone(v)));
                }
            }
        }
        return expected;
    }

    private static Damage missingVersion(final Path versionLog, final long keyHash, final long sequence,
        final long want, final long have)
    {
        return new Damage(versionLog, 0, 0, String.format(
            "newest version (epoch %d, version %d%s) of key (keyHash %x, sequence %d) is missing "
            + "from the segments; %s", VersionCodec.epoch(want), VersionCodec.version(want),
            VersionCodec.tombstone(want) ? ", delete" : "", keyHash, sequence,
            have < 0 ? "key lost" : "an older version was recovered"));
    }

    private static void sort(final int[] order, final int from, final int to, final Found all)
    {
        // Sequences usually arrive nearly sorted per segment; a primitive key sort keeps this allocation-light.
        final long[] keys = new long[to - from];
        boolean fits = true;
        for (int k = from; k < to; k++)
        {
            final long sequence = all.sequence[order[k]];
            if (sequence < 0 || sequence >= (1L << 40))
            {
                fits = false;
                break;
            }
        }
        if (fits && to - from < (1 << 23))
        {
            for (int k = from; k < to; k++)
            {
                keys[k - from] = (all.sequence[order[k]] << 23) | (k - from);
            }
            Arrays.parallelSort(keys);
            final int[] copy = Arrays.copyOfRange(order, from, to);
            for (int k = from; k < to; k++)
            {
                order[k] = copy[(int)(keys[k - from] & ((1 << 23) - 1))];
            }
            return;
        }
        final Integer[] boxed = new Integer[to - from];
        for (int k = from; k < to; k++)
        {
            boxed[k - from] = order[k];
        }
        Arrays.sort(boxed, (a, b) ->
        {
            final int c = Long.compareUnsigned(all.sequence[a], all.sequence[b]);
            return c != 0 ? c : Long.compare(all.keyHash[a], all.keyHash[b]);
        });
        for (int k = from; k < to; k++)
        {
            order[k] = boxed[k - from];
        }
    }

    /** Intact entries found by one scanning thread, in growable primitive arrays. */
    private static final class Found
    {
        long[] keyHash = new long[1024];
        long[] sequence = new long[1024];
        long[] version = new long[1024];
        long[] place = new long[1024];
        int[] length = new int[1024];
        int count;

        void add(final LogEntry entry, final long segment)
        {
            if (count == keyHash.length)
            {
                final int n = count * 2;
                keyHash = Arrays.copyOf(keyHash, n);
                sequence = Arrays.copyOf(sequence, n);
                version = Arrays.copyOf(version, n);
                place = Arrays.copyOf(place, n);
                length = Arrays.copyOf(length, n);
            }
            keyHash[count] = entry.keyHash();
            sequence[count] = entry.sequence();
            version[count] = VersionCodec.pack(entry.epoch(), entry.version(), entry.tombstone());
            place[count] = segment | entry.payloadOffset();
            length[count] = entry.length();
            count++;
        }

        void addTuple(final long keyHash, final long sequence, final long packed)
        {
            if (count == this.keyHash.length)
            {
                final int n = count * 2;
                this.keyHash = Arrays.copyOf(this.keyHash, n);
                this.sequence = Arrays.copyOf(this.sequence, n);
                version = Arrays.copyOf(version, n);
            }
            this.keyHash[count] = keyHash;
            this.sequence[count] = sequence;
            version[count] = packed;
            count++;
        }

        static Found concat(final Found[] parts)
        {
            if (parts.length == 1)
            {
                return parts[0];
            }
            final Found all = new Found();
            int total = 0;
            for (final Found part : parts)
            {
                total += part.count;
            }
            all.keyHash = new long[Math.max(1, total)];
            all.sequence = new long[Math.max(1, total)];
            all.version = new long[Math.max(1, total)];
            all.place = new long[Math.max(1, total)];
            all.length = new int[Math.max(1, total)];
            for (final Found part : parts)
            {
                System.arraycopy(part.keyHash, 0, all.keyHash, all.count, part.count);
                System.arraycopy(part.sequence, 0, all.sequence, all.count, part.count);
                System.arraycopy(part.version, 0, all.version, all.count, part.count);
                System.arraycopy(part.place, 0, all.place, all.count, part.count);
                System.arraycopy(part.length, 0, all.length, all.count, part.count);
                all.count += part.count;
            }
            return all;
        }
    }
}
