package io.sirocco.log;

import io.sirocco.log.zone.ZoneId;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.log.primary.PrimaryLog;
import io.sirocco.log.secondary.ZoneLog;

/**
 * The cold-start replay of a backup store's primary log: writes each batch it holds into its zone's secondary log
 * and forces every zone's head, so that the primary log can then be opened anew. Split out of {@link Flusher},
 * whose constructor runs it once before the flusher thread starts.
 *
 * <p>Concurrency: none of its own; it runs on the constructing thread and uses the flusher's buffers, which no
 * other thread touches until the flusher starts.
 */
final class PrimaryLogReplay
{
    private static final Logger LOG = LoggerFactory.getLogger(PrimaryLogReplay.class);

    private PrimaryLogReplay()
    {
    }

    /**
     * Replays {@code directory/primary.log} into the zones of {@code zones} and returns its generation. A heap batch
     * is first copied into {@code arena} (direct, as large as a write buffer) because zone logs write direct buffers.
     */
    static int replay(final Path directory, final ZoneTable zones, final ByteBuffer arena, final ByteBuffer staging,
        final ZoneLog.SegmentAllocator allocator) throws IOException
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
                final ByteBuffer direct;
                if (buffer.isDirect())
                {
                    direct = buffer;
                }
                else
                {
                    arena.put(0, buffer, offset, length);
                    direct = arena;
                }
                handle.log().write(direct, direct == buffer ? offset : 0, length, staging, allocator);
                batches[0]++;
                batches[1] += length;
            });
        for (final ZoneLog zone : zones.logs())
        {
            zone.forceHead();
        }
        if (batches[0] > 0)
        {
            LOG.info("durable-log: {} replayed {} primary-log batches ({} bytes) into secondary logs", directory,
                batches[0], batches[1]);
        }
        return generation;
    }
}
