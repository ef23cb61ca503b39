package io.sirocco.log.recovery;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.log.entry.LogEntry;
import io.sirocco.log.entry.LogEntryDescriptor;

/**
 * Walks the entries of one segment image, checking every CRC. A corrupt or malformed entry is skipped by
 * searching forward for the next entry whose header is well formed and whose CRC matches; a torn tail (an entry
 * running past the end of the file) ends the walk. After the end marker (type 0) the rest of the image must be
 * zeros, otherwise the non-zero region is treated as damage too (a flipped type byte must not hide the entries
 * behind it). Every damage is logged with file, offset and reason, and added to the caller's list.
 *
 * <p>One instance per thread.
 */
public final class SegmentScanner
{
    private static final Logger LOG = LoggerFactory.getLogger(SegmentScanner.class);

    private final LogEntry entry = new LogEntry();
    private final CRC32C crc = new CRC32C();
    private final int maxLength;

    public SegmentScanner(final int maxLength)
    {
        this.maxLength = maxLength;
    }

    /** Receives each intact entry; {@link LogEntry} is reused between calls. */
    public interface EntryHandler
    {
        void onEntry(LogEntry entry);
    }

    /**
     * Scans {@code image[0, limit)} (a heap buffer, little-endian).
     *
     * @return bytes of intact entries seen.
     */
    public long scan(final Path file, final ByteBuffer image, final int limit, final EntryHandler handler,
        final List<Damage> damages)
    {
        long intactBytes = 0;
        int offset = 0;
        while (offset < limit)
        {
            final int type = image.get(offset) & 0xFF;
            if (type == 0)
            {
                final int nonZero = firstNonZero(image, offset, limit);
                if (nonZero < 0)
                {
                    break;
                }
                final int next = resync(image, nonZero, limit);
                report(file, damages, nonZero, (next < 0 ? limit : next) - nonZero,
                    "non-zero bytes after an end marker (lost or overwritten type byte)");
                if (next < 0)
                {
                    break;
                }
                offset = next;
                continue;
            }
            final String problem = check(image, offset, limit);
            if (problem == null)
            {
                handler.onEntry(entry);
                intactBytes += entry.totalLength();
                offset += entry.totalLength();
                continue;
            }
            final int next = resync(image, offset + 1, limit);
            report(file, damages, offset, (next < 0 ? limit : next) - offset, problem);
            if (next < 0)
            {
                break;
            }
            offset = next;
        }
        return intactBytes;
    }

    private String check(final ByteBuffer image, final int offset, final int limit)
    {
        if (!LogEntryDescriptor.parse(image, offset, limit, entry))
        {
            final int type = image.get(offset) & 0xFF;
            if ((type & LogEntryDescriptor.TYPE_MARKER) != 0 && offset + LogEntryDescriptor.MIN_HEADER_LENGTH <= limit)
            {
                return "torn tail or corrupt length: entry runs past the end of the data at " + limit;
            }
            return "malformed entry header (type 0x" + Integer.toHexString(type) + ")";
        }
        if (entry.length() > maxLength)
        {
            return "entry length " + entry.length() + " exceeds the maximum " + maxLength;
        }
        final int expected = LogEntryDescriptor.checksum(image, offset, entry.headerLength(), entry.length(), crc);
        if (expected != entry.crc())
        {
            return "CRC32C mismatch (stored " + Integer.toHexString(entry.crc()) + ", computed "
                + Integer.toHexString(expected) + ")";
        }
        return null;
    }

    private int resync(final ByteBuffer image, final int from, final int limit)
    {
        for (int candidate = from; candidate < limit; candidate++)
        {
            final int type = image.get(candidate) & 0xFF;
            if ((type & LogEntryDescriptor.TYPE_MARKER) != 0 && check(image, candidate, limit) == null)
            {
                return candidate;
            }
        }
        return -1;
    }

    private static int firstNonZero(final ByteBuffer image, final int from, final int limit)
    {
        int p = from;
        while (p < limit && (p & 7) != 0)
        {
            if (image.get(p) != 0)
            {
                return p;
            }
            p++;
        }
        while (p + 8 <= limit)
        {
            if (image.getLong(p) != 0)
            {
                break;
            }
            p += 8;
        }
        while (p < limit)
        {
            if (image.get(p) != 0)
            {
                return p;
            }
            p++;
        }
        return -1;
    }

    private static void report(final Path file, final List<Damage> damages, final long offset, final long skipped,
        final String reason)
    {
        final Damage damage = new Damage(file, offset, skipped, reason);
        LOG.warn("durable-log: damaged log {} at offset {}: {}; skipped {} bytes", file, offset, reason, skipped);
        synchronized (damages)
        {
            damages.add(damage);
        }
    }
}
