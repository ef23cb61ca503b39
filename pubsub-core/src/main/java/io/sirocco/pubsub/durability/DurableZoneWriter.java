package io.sirocco.pubsub.durability;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.log.entry.LogEntryDescriptor;
import io.sirocco.log.replication.ReplicationOwner;
import io.sirocco.log.replication.ZoneSource;
import io.sirocco.log.zone.ZoneId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A durable DataWriter's zone in the log: every sample it writes is appended as a {@link SampleEnvelope} and
 * replicated to the zone's backups. The log key of a sample is its history slot, so the log keeps what the
 * DURABILITY_SERVICE history keeps: KEEP_ALL, one key per sequence number; KEEP_LAST(d), {@code d} slots per
 * instance, the n-th sample of an instance overwriting slot {@code n mod d} (the log's newest-version rule then
 * drops the older samples).
 *
 * <p>The writer keeps its own copy of the live slots ({@link ZoneSource}), from which the log re-replicates the zone
 * to a new backup (a backup left, or one joined a domain that had fewer than R).
 *
 * <p>A zone holds at most {@link DurabilityConfig#zoneMib} MiB on each backup. The writer counts the bytes of its live
 * slots (each sample's log entry at its largest header) and refuses, through {@link #refusal}, a sample that would take
 * them past three quarters of it: the rest is the log cleaner's headroom (KEEP_LAST slots overwritten leave garbage
 * until it runs) and the segments' unused tails, so the writer is refused before a backup's log fills (unless many
 * re-replications to new backups resent the zone meanwhile).
 *
 * <p>Threads: {@link #append} and {@link #refusal} run under the DataWriter's lock (one thread at a time);
 * {@link #forEachLive} runs on the log's membership thread while the zone's appends wait; the copy is a concurrent
 * map, updated before each append as {@link ZoneSource} requires.
 */
public final class DurableZoneWriter implements ZoneSource
{
    private static final Logger LOG = LoggerFactory.getLogger(DurableZoneWriter.class);

    private final ReplicationOwner owner;
    private final ZoneId zone;
    private final String describe;
    private final boolean keepAll;
    private final int depth;
    private final int replicas;
    private final Map<Long, byte[]> live = new ConcurrentHashMap<>();
    private byte[] envelope = new byte[256];
    private ByteBuffer envelopeView = ByteBuffer.wrap(envelope).order(ByteOrder.LITTLE_ENDIAN);
    private volatile long lastTicket = -1;
    private final int zoneMib;
    private final long capacityBytes;
    /** Bytes of the live slots' log entries; under the writer's lock. */
    private long liveBytes;

    /**
     * A zone for the writer, not open yet: register it as its zone's {@link ZoneSource} first, then {@link #open}.
     *
     * @param keepAll DURABILITY_SERVICE history kind is KEEP_ALL.
     * @param depth   DURABILITY_SERVICE history depth (KEEP_LAST).
     * @param zoneMib the zone's capacity on each backup ({@link DurabilityConfig#ZONE_MIB}).
     */
    DurableZoneWriter(final ReplicationOwner owner, final int replicas, final ZoneId zone, final String describe,
        final boolean keepAll, final int depth, final int zoneMib)
    {
        this.zoneMib = zoneMib;
        this.capacityBytes = (long)zoneMib * (1 << 20) / 4 * 3;
        this.owner = owner;
        this.zone = zone;
        this.describe = describe;
        this.keepAll = keepAll;
        this.depth = Math.max(1, depth);
        this.replicas = replicas;
    }

    ZoneId zone()
    {
        return zone;
    }

    /** Opens the writer's zone on the backups the placement picks now. */
    void open()
    {
        final List<Integer> backups = owner.openZone(zone);
        if (backups.size() < replicas)
        {
            LOG.info("{}: durable history replicated to {} of {} backups {} (the domain has no more now; a backup "
                + "that joins later takes a copy)", describe, backups.size(), replicas, backups);
        }
        else
        {
            LOG.debug("{}: durable history replicated to backups {}", describe, backups);
        }
    }

    /**
     * Null if a sample of {@code length} payload bytes fits in the zone as the {@code instanceCount}-th durable sample
     * of its instance, else why not (naming the zone, its size and the setting to raise); under the writer's lock,
     * before the sample takes a sequence number.
     */
    public String refusal(final long keyHi, final long keyLo, final long instanceCount, final int length)
    {
        final long replaced = keepAll ? 0 : entryBytes(live.get(slotKey(keyHi, keyLo, instanceCount)));
        final long after = liveBytes - replaced + entryBytes(SampleEnvelope.HEADER_BYTES + length);
        if (after <= capacityBytes)
        {
            return null;
        }
        return describe + ": durable history full: zone " + zone + " would hold " + after + " bytes, over 3/4 of its "
            + zoneMib + " MiB on each backup (" + live.size() + " samples held); raise " + DurabilityConfig.ZONE_MIB
            + " on the writer and its backups, or bound the history (DURABILITY_SERVICE KEEP_LAST)";
    }

    private static long entryBytes(final byte[] envelope)
    {
        return envelope == null ? 0 : entryBytes(envelope.length);
    }

    private static long entryBytes(final int envelopeLength)
    {
        return envelopeLength + LogEntryDescriptor.MAX_HEADER_LENGTH;
    }

    /** Appends one sample; under the writer's lock. {@code instanceCount} is the instance's durable sample count. */
    public void append(final int kind, final long seq, final long sourceTimeNs, final long keyHi, final long keyLo,
        final long instanceCount, final byte[] payload, final int length)
    {
        final int total = SampleEnvelope.HEADER_BYTES + length;
        if (total > envelope.length)
        {
            envelope = new byte[Math.max(total, envelope.length * 2)];
            envelopeView = ByteBuffer.wrap(envelope).order(ByteOrder.LITTLE_ENDIAN);
        }
        SampleEnvelope.writeHeader(envelopeView, kind, seq, sourceTimeNs, keyHi, keyLo);
        System.arraycopy(payload, 0, envelope, SampleEnvelope.HEADER_BYTES, length);
        final long logKey = keepAll ? seq : slotKey(keyHi, keyLo, instanceCount);
        liveBytes += entryBytes(total) - entryBytes(live.put(logKey, Arrays.copyOf(envelope, total)));
        // The log's key is (keyHash, sequence): KEEP_LAST gives every sample of a slot the same pair, so that the
        // log's newest-version rule keeps the slot's last sample only (the envelope carries the sequence number).
        lastTicket = owner.append(zone, logKey, keepAll ? seq : 0, envelopeView, 0, total);
    }

    private long slotKey(final long keyHi, final long keyLo, final long instanceCount)
    {
        final long instance = keyHi * 0x9E3779B97F4A7C15L ^ keyLo;
        return instance * depth + instanceCount % depth;
    }

    /**
     * Waits until every sample appended so far is held by all the zone's current backups (at least one); else
     * TimeoutException saying why not (no backup, or the backups did not acknowledge in time).
     */
    public void awaitAcknowledged(final long deadlineNs) throws TimeoutException
    {
        final long ticket = lastTicket;
        if (ticket < 0)
        {
            return;
        }
        owner.flush(zone);
        final long timeoutNs = Math.max(0, deadlineNs - System.nanoTime());
        if (owner.awaitPersisted(zone, ticket, timeoutNs))
        {
            return;
        }
        final List<Integer> backups = owner.backups(zone);
        if (backups.isEmpty())
        {
            throw new TimeoutException(describe + ": no participant of the domain holds backups (set " +
                DurabilityConfig.BACKUP + "=true on some, or run `sirocco durability-service`): the durable " +
                "history is held by no backup");
        }
        throw new TimeoutException(describe + ": backups " + backups + " acknowledged up to sample " +
            (owner.persistedUpTo(zone) + 1) + " of " + (ticket + 1) + " within " +
            TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms");
    }

    @Override
    public void forEachLive(final ZoneId ignored, final EntrySink sink)
    {
        for (final Map.Entry<Long, byte[]> entry : live.entrySet())
        {
            final byte[] bytes = entry.getValue();
            sink.onEntry(entry.getKey(), keepAll ? SampleEnvelope.seq(bytes) : 0, ByteBuffer.wrap(bytes), 0,
                bytes.length);
        }
    }
}
