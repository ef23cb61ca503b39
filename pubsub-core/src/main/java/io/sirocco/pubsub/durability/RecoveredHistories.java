package io.sirocco.pubsub.durability;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;
import io.sirocco.log.replication.FailoverListener;
import io.sirocco.log.zone.ZoneId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable histories this backup recovered for failed writers: per zone (one zone per writer, its writer id the
 * writer's GUID), the recovered samples (each a {@link SampleEnvelope}) by sequence number. {@link RecoveredWriters}
 * serves them to readers under the writer's identity.
 *
 * <p>Threads: each zone is filled by its own recovery thread; readers use the concurrent maps.
 */
public final class RecoveredHistories implements FailoverListener
{
    private static final Logger LOG = LoggerFactory.getLogger(RecoveredHistories.class);

    private final Map<ZoneId, NavigableMap<Long, byte[]>> zones = new ConcurrentHashMap<>();
    /** Writers (GUIDs) whose zone recovery finished here, in the order they finished. */
    private final java.util.Set<Long> completed = new java.util.concurrent.ConcurrentSkipListSet<>();
    /** Told each writer GUID whose recovery finished here (on the recovery thread); set once, before any failover. */
    private volatile java.util.function.LongConsumer whenRecovered = writer -> { };

    @Override
    public RecoveryConsumer consumerFor(final ZoneId zone, final int failedOwner)
    {
        final NavigableMap<Long, byte[]> samples = new ConcurrentSkipListMap<>();
        zones.put(zone, samples);
        return (z, keyHash, sequence, epoch, version, buffer, offset, length) -> samples.put(sequence,
            copy(buffer, offset, length));
    }

    private static byte[] copy(final ByteBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.get(offset, bytes);
        return bytes;
    }

    @Override
    public void onZoneRecovered(final ZoneId zone, final int failedOwner, final RecoveryReport report,
        final List<Integer> newBackups)
    {
        final NavigableMap<Long, byte[]> samples = zones.get(zone);
        completed.add(zone.writerId());
        whenRecovered.accept(zone.writerId());
        LOG.info("durability: recovered writer {} of failed log node {}: {} samples{}; backups now {}",
            String.format("%016x", zone.writerId()), failedOwner, samples == null ? 0 : samples.size(),
            samples == null || samples.isEmpty() ? "" : " (seq " + samples.firstKey() + ".." + samples.lastKey() + ")",
            newBackups);
    }

    /** Who is told of each completed recovery (RecoveredWriters, which serves the history). */
    void whenRecovered(final java.util.function.LongConsumer listener)
    {
        this.whenRecovered = listener;
    }

    /** The writers (GUIDs) whose history this backup recovered completely. */
    public java.util.Set<Long> recoveredWriters()
    {
        return java.util.Set.copyOf(completed);
    }

    /**
     * The recovered samples of a writer by sequence number (envelopes), or an empty map. A writer has several zones
     * once replacements took it over (each incarnation its own zone, holding its predecessor's samples too), TRANSIENT
     * or PERSISTENT: the one that reaches the highest sequence number.
     */
    public NavigableMap<Long, byte[]> samplesOf(final long writerGuid)
    {
        NavigableMap<Long, byte[]> newest = new ConcurrentSkipListMap<>();
        for (final Map.Entry<ZoneId, NavigableMap<Long, byte[]>> zone : zones.entrySet())
        {
            final NavigableMap<Long, byte[]> samples = zone.getValue();
            if (zone.getKey().writerId() == writerGuid && !samples.isEmpty()
                && (newest.isEmpty() || samples.lastKey() > newest.lastKey()))
            {
                newest = samples;
            }
        }
        return newest;
    }
}
