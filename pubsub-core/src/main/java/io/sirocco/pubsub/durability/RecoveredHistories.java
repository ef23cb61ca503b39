package io.sirocco.pubsub.durability;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.LongConsumer;

import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;
import io.sirocco.log.replication.FailoverListener;
import io.sirocco.log.zone.ZoneId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable histories this backup recovered for failed writers: per zone (one zone per writer, its writer id the
 * writer's GUID), the recovered samples (each a {@link SampleEnvelope}) in sequence order, packed off-heap
 * ({@link RecoveredSamples}). {@link RecoveredWriters} serves them to readers under the writer's identity.
 *
 * <p>Threads: each zone is filled by its own recovery thread (the log streams a zone's entries in ascending sequence
 * order on one thread); readers use the concurrent maps and {@link RecoveredSamples}' published count.
 */
public final class RecoveredHistories implements FailoverListener
{
    private static final Logger LOG = LoggerFactory.getLogger(RecoveredHistories.class);
    private static final RecoveredSamples NONE = new RecoveredSamples(1);

    private final int blockBytes;
    private final Map<ZoneId, RecoveredSamples> zones = new ConcurrentHashMap<>();
    /** Writers (GUIDs) whose zone recovery finished here, in the order they finished. */
    private final Set<Long> completed = new ConcurrentSkipListSet<>();
    /** Told each writer GUID whose recovery finished here (on the recovery thread); set once, before any failover. */
    private volatile LongConsumer whenRecovered = writer -> { };

    /** @param blockBytes the size of the off-heap blocks a recovered history is packed into. */
    public RecoveredHistories(final int blockBytes)
    {
        this.blockBytes = blockBytes;
    }

    @Override
    public RecoveryConsumer consumerFor(final ZoneId zone, final int failedOwner)
    {
        final RecoveredSamples samples = new RecoveredSamples(blockBytes);
        zones.put(zone, samples);
        return new RecoveryConsumer()
        {
            /** The sample's own sequence number, from its envelope: a KEEP_LAST zone's log key is a history slot. */
            @Override
            public void onEntry(final ZoneId z, final long keyHash, final long sequence, final int epoch,
                final int version, final ByteBuffer buffer, final int offset, final int length)
            {
                final long seq = buffer.getLong(offset + SampleEnvelope.SEQ);
                samples.append(buffer.order() == ByteOrder.LITTLE_ENDIAN ? seq : Long.reverseBytes(seq), buffer,
                    offset, length);
            }

            @Override
            public void onComplete(final RecoveryReport report)
            {
                samples.seal();
            }
        };
    }

    /** The history is complete here (its re-replication to new backups follows): serve it from now on. */
    @Override
    public void onHistoryRecovered(final ZoneId zone, final int failedOwner, final RecoveryReport report)
    {
        final RecoveredSamples samples = zones.getOrDefault(zone, NONE);
        completed.add(zone.writerId());
        whenRecovered.accept(zone.writerId());
        LOG.info("durability: recovered writer {} of failed log node {}: {} samples{} in {} off-heap blocks",
            String.format("%016x", zone.writerId()), failedOwner, samples.size(), samples.isEmpty() ? ""
            : " (seq " + samples.firstSequence() + ".." + samples.lastSequence() + ")", samples.blocks());
    }

    @Override
    public void onZoneRecovered(final ZoneId zone, final int failedOwner, final RecoveryReport report,
        final List<Integer> newBackups)
    {
        LOG.info("durability: the zone of recovered writer {} is re-replicated; its backups now {}",
            String.format("%016x", zone.writerId()), newBackups);
    }

    /** Who is told of each completed recovery (RecoveredWriters, which serves the history). */
    void whenRecovered(final LongConsumer listener)
    {
        this.whenRecovered = listener;
    }

    /** The writers (GUIDs) whose history this backup recovered completely. */
    public Set<Long> recoveredWriters()
    {
        return Set.copyOf(completed);
    }

    /**
     * The recovered samples of a writer in sequence order (envelopes), or an empty history. A writer has several
     * zones once replacements took it over (each incarnation its own zone, holding its predecessor's samples too),
     * TRANSIENT or PERSISTENT: the one that reaches the highest sequence number.
     */
    public RecoveredSamples samplesOf(final long writerGuid)
    {
        RecoveredSamples newest = NONE;
        for (final Map.Entry<ZoneId, RecoveredSamples> zone : zones.entrySet())
        {
            final RecoveredSamples samples = zone.getValue();
            if (zone.getKey().writerId() == writerGuid && !samples.isEmpty()
                && (newest.isEmpty() || samples.lastSequence() > newest.lastSequence()))
            {
                newest = samples;
            }
        }
        return newest;
    }
}
