package io.sirocco.log.replication;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.membership.Membership;
import io.sirocco.log.membership.MembershipListener;
import io.sirocco.log.zone.ZonePlacement;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.NodeUnreachableException;

/**
 * The owner's side of replication. Entries appended to a zone are numbered with zone-local tickets, collected
 * into a batch and sent, in order, to each of the zone's backups as one ordered message when the batch reaches
 * {@code batchBytes} or on {@link #flush}. Backups acknowledge per zone; {@link #persistedUpTo} is the minimum
 * over the zone's current backups, reported to the {@link PersistedUpToListener} as it advances.
 *
 * <p>When a backup of a zone leaves, it stops counting in the minimum; if a {@link ZoneSource} is set, the owner
 * restores the replication factor: it picks replacement backups ({@link ZonePlacement#repair}), announces the new
 * backup order to all of them, and sends the new ones a snapshot of the zone's live entries from the source, ahead
 * of every later batch. The snapshot's entries carry the tickets just below the next one, so a new backup's ack of
 * the last ticket means it holds the whole zone; until then it holds {@link #persistedUpTo} back, which never
 * decreases.
 *
 * <p>Threads: appends and flushes of one zone come from one thread (the writer's) and run under the zone's monitor,
 * which a membership event also takes while it re-replicates the zone (uncontended otherwise); acknowledgements
 * arrive on the transport's handler thread and only touch the per-backup ack map and the monotonic persisted
 * figure (under the zone's {@code recompute} lock). Membership events replace a zone's backup list copy-on-write.
 */
public final class ReplicationOwner implements MembershipListener
{
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationOwner.class);

    private final MessagingService service;
    private final Membership membership;
    private final ZonePlacement placement;
    private final int replicationFactor;
    private final int batchBytes;
    private final PersistedUpToListener listener;
    private final ConcurrentHashMap<ZoneId, OwnedZone> zones = new ConcurrentHashMap<>();
    private volatile ZoneSource source;

    public ReplicationOwner(final MessagingService service, final Membership membership, final ZonePlacement placement,
        final int replicationFactor, final int batchBytes, final PersistedUpToListener listener)
    {
        this.service = service;
        this.membership = membership;
        this.placement = placement;
        this.replicationFactor = replicationFactor;
        this.batchBytes = batchBytes;
        this.listener = listener == null ? (zone, ticket) -> { } : listener;
        service.registerHandler(ReplicationMessages.TYPE, ReplicationMessages.ZONE_ACK, this::onAck);
        membership.addListener(this);
    }

    public int ownNodeId()
    {
        return service.ownNodeId();
    }

    /**
     * Sets the owner's copy of its zones, used to re-replicate a zone to a new backup when one of its backups leaves
     * (null: the zone just continues with fewer backups).
     */
    public ReplicationOwner zoneSource(final ZoneSource zoneSource)
    {
        this.source = zoneSource;
        return this;
    }

    /** Opens a zone on the backups that the placement picks from the current membership. */
    public List<Integer> openZone(final ZoneId zone)
    {
        return openZone(zone, placement.backups(zone, service.ownNodeId(), membership.members(), replicationFactor));
    }

    /** Opens (or takes over) a zone on the given ordered backups. */
    public List<Integer> openZone(final ZoneId zone, final List<Integer> backups)
    {
        final OwnedZone owned = new OwnedZone(zone, List.copyOf(backups), batchBytes);
        zones.put(zone, owned);
        final ReplicationMessages.CreateZone create = new ReplicationMessages.CreateZone(zone, service.ownNodeId(),
            owned.backups);
        for (final int backup : owned.backups)
        {
            sendQuietly(create, backup);
        }
        return owned.backups;
    }

    public List<Integer> backups(final ZoneId zone)
    {
        return zone(zone).backups;
    }

    private OwnedZone zone(final ZoneId zone)
    {
        final OwnedZone owned = zones.get(zone);
        if (owned == null)
        {
            throw new IllegalArgumentException("node " + service.ownNodeId() + " owns no open " + zone);
        }
        return owned;
    }

    /** Appends a new entry or version; returns its ticket. */
    public long append(final ZoneId zone, final long keyHash, final long sequence, final ByteBuffer payload,
        final int offset, final int length)
    {
        final OwnedZone owned = zone(zone);
        synchronized (owned)
        {
            final long ticket = owned.add(0, keyHash, sequence, payload, offset, length);
            if (owned.batchLength >= batchBytes)
            {
                send(owned);
            }
            return ticket;
        }
    }

    public long append(final ZoneId zone, final long keyHash, final long sequence, final byte[] payload)
    {
        return append(zone, keyHash, sequence, ByteBuffer.wrap(payload), 0, payload.length);
    }

    /** Deletes a key (a tombstone version on every backup); returns its ticket. */
    public long delete(final ZoneId zone, final long keyHash, final long sequence)
    {
        final OwnedZone owned = zone(zone);
        synchronized (owned)
        {
            final long ticket = owned.add(1, keyHash, sequence, null, 0, 0);
            if (owned.batchLength >= batchBytes)
            {
                send(owned);
            }
            return ticket;
        }
    }

    /** Sends the zone's pending batch. */
    public void flush(final ZoneId zone)
    {
        final OwnedZone owned = zone(zone);
        synchronized (owned)
        {
            send(owned);
        }
    }

    public void flushAll()
    {
        for (final OwnedZone owned : zones.values())
        {
            synchronized (owned)
            {
                send(owned);
            }
        }
    }

    /** Sends the pending batch to the zone's backups; the caller holds the zone's monitor. */
    private void send(final OwnedZone owned)
    {
        if (owned.batchCount == 0)
        {
            return;
        }
        final ReplicationMessages.LogBatch batch = owned.message;
        batch.zone = owned.zone;
        batch.firstTicket = owned.batchFirstTicket;
        batch.count = owned.batchCount;
        batch.data = owned.batch;
        batch.length = owned.batchLength;
        for (final int backup : owned.backups)
        {
            sendQuietly(batch, backup);
        }
        owned.batchFirstTicket += owned.batchCount;
        owned.batchCount = 0;
        owned.batchLength = 0;
    }

    private void sendQuietly(final io.sirocco.transport.Message message, final int backup)
    {
        try
        {
            service.send(message, backup);
        }
        catch (final NodeUnreachableException ex)
        {
            // The membership layer decides whether the backup failed; until then its ack simply does not advance.
            LOG.debug("durable-log: node {} cannot reach backup {}: {}", service.ownNodeId(), backup, ex.toString());
        }
    }

    /** The highest ticket {@code backup} acknowledged for the zone; -1 before any (or if it is no backup of it). */
    public long acknowledged(final ZoneId zone, final int backup)
    {
        return zone(zone).acked.getOrDefault(backup, -1L);
    }

    /** Minimum over the zone's current backups of their acknowledged tickets; -1 before any. */
    public long persistedUpTo(final ZoneId zone)
    {
        return zone(zone).persisted;
    }

    /** Waits until {@link #persistedUpTo} reaches {@code ticket}; false on timeout. */
    public boolean awaitPersisted(final ZoneId zone, final long ticket, final long timeoutNs)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        while (persistedUpTo(zone) < ticket)
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            LockSupport.parkNanos(100_000);
        }
        return true;
    }

    private void onAck(final ReplicationMessages.ZoneAck ack)
    {
        final OwnedZone owned = zones.get(ack.zone);
        if (owned == null)
        {
            return;
        }
        owned.acked.merge(ack.sourceNodeId(), ack.ticket, Math::max);
        owned.recompute(listener);
    }

    /**
     * A member joined: every zone that runs with fewer than the replication factor's backups (because the domain was
     * smaller when it opened, or a backup left with no replacement) takes the newcomer as a backup, with a snapshot
     * from the {@link ZoneSource} ({@link #restoreReplication}); without a source nothing changes.
     */
    @Override
    public void onMemberJoined(final int member)
    {
        if (member == service.ownNodeId() || source == null)
        {
            return;
        }
        for (final OwnedZone owned : zones.values())
        {
            if (owned.backups.size() < replicationFactor && !owned.backups.contains(member))
            {
                synchronized (owned)
                {
                    restoreReplication(owned);
                }
            }
        }
    }

    /**
     * A backup left: it no longer counts in any zone's minimum, so persistedUpTo may advance; then, if a
     * {@link ZoneSource} is set, the zone is re-replicated to replacement backups ({@link #restoreReplication}).
     */
    @Override
    public void onMemberLeft(final int member)
    {
        for (final OwnedZone owned : zones.values())
        {
            if (owned.backups.contains(member))
            {
                synchronized (owned)
                {
                    final List<Integer> next = new ArrayList<>(owned.backups);
                    next.remove(Integer.valueOf(member));
                    owned.backups = List.copyOf(next);
                    owned.acked.remove(member);
                    LOG.warn("durable-log: backup {} of {} left; {} backups remain: {}", member, owned.zone,
                        next.size(), next);
                    owned.recompute(listener);
                    restoreReplication(owned);
                }
            }
        }
    }

    /**
     * Picks replacement backups for a zone that lost some, announces the new backup order to every backup, and
     * sends the new ones a snapshot of the zone's live entries (the tickets just below the next one), ahead of any
     * later batch. Runs under the zone's monitor, so no append of the zone interleaves.
     */
    private void restoreReplication(final OwnedZone owned)
    {
        final ZoneSource zoneSource = source;
        if (zoneSource == null || owned.backups.size() >= replicationFactor)
        {
            if (zoneSource == null && owned.backups.size() < replicationFactor)
            {
                LOG.warn("durable-log: {} runs with {} of {} backups: no zone source to re-replicate from", owned.zone,
                    owned.backups.size(), replicationFactor);
            }
            return;
        }
        final List<Integer> repaired = placement.repair(owned.zone, service.ownNodeId(), owned.backups,
            membership.members(), replicationFactor);
        final List<Integer> added = new ArrayList<>(repaired);
        added.removeAll(owned.backups);
        if (added.isEmpty())
        {
            LOG.warn("durable-log: {} runs with {} of {} backups: no live member left to take a copy", owned.zone,
                owned.backups.size(), replicationFactor);
            return;
        }
        send(owned); // the pending batch still goes to the surviving backups only
        final ReplicationMessages.CreateZone create = new ReplicationMessages.CreateZone(owned.zone,
            service.ownNodeId(), List.copyOf(repaired));
        for (final int backup : repaired)
        {
            sendQuietly(create, backup);
        }
        final long entries = new SnapshotSender(owned, added).send(zoneSource);
        owned.backups = List.copyOf(repaired);
        LOG.info("durable-log: {} re-replicated to new backups {} ({} live entries); backups now {}", owned.zone,
            added, entries, repaired);
    }

    /** Streams a zone's live entries to new backups as batches of at most {@code batchBytes}. Control path. */
    private final class SnapshotSender implements ZoneSource.EntrySink
    {
        private final OwnedZone owned;
        private final List<Integer> targets;
        private final java.io.ByteArrayOutputStream collected = new java.io.ByteArrayOutputStream();
        private final ByteBuffer header = ByteBuffer.allocate(ReplicationMessages.ENTRY_HEADER_BYTES)
            .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        private int count;

        SnapshotSender(final OwnedZone owned, final List<Integer> targets)
        {
            this.owned = owned;
            this.targets = targets;
        }

        @Override
        public void onEntry(final long keyHash, final long sequence, final ByteBuffer payload, final int offset,
            final int length)
        {
            header.clear();
            header.put(0, (byte)0).putLong(1, keyHash).putLong(9, sequence).putInt(17, length);
            collected.write(header.array(), 0, ReplicationMessages.ENTRY_HEADER_BYTES);
            final byte[] bytes = new byte[length];
            payload.get(offset, bytes);
            collected.write(bytes, 0, length);
            count++;
        }

        long send(final ZoneSource zoneSource)
        {
            zoneSource.forEachLive(owned.zone, this);
            if (count == 0)
            {
                // No live entry: an empty batch tells the new backups they hold the whole zone up to the last ticket.
                final ReplicationMessages.LogBatch empty = new ReplicationMessages.LogBatch();
                empty.zone = owned.zone;
                empty.firstTicket = owned.nextTicket;
                empty.data = new byte[0];
                for (final int backup : targets)
                {
                    sendQuietly(empty, backup);
                }
                return 0;
            }
            final byte[] all = collected.toByteArray();
            final ByteBuffer view = ByteBuffer.wrap(all).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            long ticket = owned.nextTicket - count; // the last snapshot entry carries the last ticket given out
            int start = 0;
            int p = 0;
            int inBatch = 0;
            for (int i = 0; i <= count; i++)
            {
                final boolean last = i == count;
                final int entryLength = last ? 0 : ReplicationMessages.ENTRY_HEADER_BYTES + view.getInt(p + 17);
                if (inBatch > 0 && (last || p + entryLength - start > batchBytes))
                {
                    final ReplicationMessages.LogBatch batch = new ReplicationMessages.LogBatch();
                    batch.zone = owned.zone;
                    batch.firstTicket = ticket;
                    batch.count = inBatch;
                    batch.data = java.util.Arrays.copyOfRange(all, start, p);
                    batch.length = p - start;
                    for (final int backup : targets)
                    {
                        sendQuietly(batch, backup);
                    }
                    ticket += inBatch;
                    start = p;
                    inBatch = 0;
                }
                p += entryLength;
                inBatch++;
            }
            return count;
        }
    }

    private static final class OwnedZone
    {
        final ZoneId zone;
        volatile List<Integer> backups;
        final ConcurrentHashMap<Integer, Long> acked = new ConcurrentHashMap<>();
        volatile long persisted = -1;
        final ReplicationMessages.LogBatch message = new ReplicationMessages.LogBatch();
        byte[] batch;
        ByteBuffer batchView;
        int batchLength;
        int batchCount;
        long batchFirstTicket;
        long nextTicket;

        OwnedZone(final ZoneId zone, final List<Integer> backups, final int batchBytes)
        {
            this.zone = zone;
            this.backups = backups;
            this.batch = new byte[Math.max(4096, batchBytes + 1024)];
            this.batchView = ByteBuffer.wrap(batch).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        }

        long add(final int flags, final long keyHash, final long sequence, final ByteBuffer payload, final int offset,
            final int length)
        {
            final int need = ReplicationMessages.ENTRY_HEADER_BYTES + length;
            if (batchLength + need > batch.length)
            {
                batch = Arrays.copyOf(batch, Math.max(batch.length * 2, batchLength + need));
                batchView = ByteBuffer.wrap(batch).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            }
            final int p = batchLength;
            batchView.put(p, (byte)flags).putLong(p + 1, keyHash).putLong(p + 9, sequence).putInt(p + 17, length);
            if (length > 0)
            {
                batchView.put(p + ReplicationMessages.ENTRY_HEADER_BYTES, payload, offset, length);
            }
            batchLength += need;
            batchCount++;
            return nextTicket++;
        }

        void recompute(final PersistedUpToListener listener)
        {
            final List<Integer> current = backups;
            if (current.isEmpty())
            {
                return;
            }
            long min = Long.MAX_VALUE;
            for (final int backup : current)
            {
                min = Math.min(min, acked.getOrDefault(backup, -1L));
            }
            synchronized (this)
            {
                // Control path (one ack per backup per flush cycle): keep the reported figure monotonic.
                if (min > persisted)
                {
                    persisted = min;
                    listener.onPersistedUpTo(zone, min);
                }
            }
        }
    }
}
