package io.sirocco.log.replication;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.log.ZoneId;
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
 * <p>Threads: appends and flushes of one zone come from one thread (the writer's); acknowledgements arrive on the
 * transport's handler thread and only touch the per-backup ack array (volatile stores, single writer per backup
 * through ordered delivery) and the monotonic persisted figure (CAS). Membership events replace a zone's backup
 * list copy-on-write.
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
        final long ticket = owned.add(0, keyHash, sequence, payload, offset, length);
        if (owned.batchLength >= batchBytes)
        {
            send(owned);
        }
        return ticket;
    }

    public long append(final ZoneId zone, final long keyHash, final long sequence, final byte[] payload)
    {
        return append(zone, keyHash, sequence, ByteBuffer.wrap(payload), 0, payload.length);
    }

    /** Deletes a key (a tombstone version on every backup); returns its ticket. */
    public long delete(final ZoneId zone, final long keyHash, final long sequence)
    {
        final OwnedZone owned = zone(zone);
        final long ticket = owned.add(1, keyHash, sequence, null, 0, 0);
        if (owned.batchLength >= batchBytes)
        {
            send(owned);
        }
        return ticket;
    }

    /** Sends the zone's pending batch. */
    public void flush(final ZoneId zone)
    {
        send(zone(zone));
    }

    public void flushAll()
    {
        for (final OwnedZone owned : zones.values())
        {
            send(owned);
        }
    }

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

    @Override
    public void onMemberJoined(final int member)
    {
    }

    /**
     * A backup left: it no longer counts in any zone's minimum, so persistedUpTo may advance. Restoring the
     * replication factor for a zone the owner still writes needs the zone's data at the owner (the DDS history
     * cache, in the later wiring), so it is not done here; the failover path restores it for recovered zones.
     */
    @Override
    public void onMemberLeft(final int member)
    {
        for (final OwnedZone owned : zones.values())
        {
            if (owned.backups.contains(member))
            {
                final List<Integer> next = new ArrayList<>(owned.backups);
                next.remove(Integer.valueOf(member));
                owned.backups = List.copyOf(next);
                owned.acked.remove(member);
                LOG.warn("durable-log: backup {} of {} left; {} backups remain: {}", member, owned.zone, next.size(),
                    next);
                owned.recompute(listener);
            }
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
