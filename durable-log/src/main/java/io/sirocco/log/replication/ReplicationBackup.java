package io.sirocco.log.replication;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.log.BackupStore;
import io.sirocco.log.config.LogConfig;
import io.sirocco.log.disk.LogStorageException;
import io.sirocco.log.PersistListener;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.ZoneHandle;
import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.membership.Membership;
import io.sirocco.log.membership.MembershipListener;
import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;
import io.sirocco.log.zone.ZonePlacement;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.agent.Agents;

/**
 * The backup's side of replication: logs the batches of the zones it backs up into its {@link BackupStore} and
 * acknowledges per zone once the store's sync policy is met; and, when a zone's owner leaves the membership, the
 * zone's first live backup recovers it (all such zones in parallel), hands it to the {@link FailoverListener},
 * and re-replicates it as the zone's new owner to backups chosen to restore the replication factor.
 *
 * <p>Threads: batches arrive on the transport's ordered handler thread (one per source node, so a zone's batches
 * are appended in order); acknowledgements are sent from the store's flusher thread ({@code GROUP}/{@code EACH}) or
 * from the handler after a batch ({@code NONE}); failover recoveries run on their own threads.
 */
public final class ReplicationBackup implements MembershipListener, AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationBackup.class);

    private final MessagingService service;
    private final Membership membership;
    private final ZonePlacement placement;
    private final ReplicationOwner owner;
    private final FailoverListener failover;
    private final int replicationFactor;
    private final ZoneStores stores;
    private final ConcurrentHashMap<ZoneId, ZoneInfo> zones = new ConcurrentHashMap<>();
    private final AtomicInteger recoveriesRunning = new AtomicInteger();
    /**
     * Zones found in the stores at start whose owner has not spoken since (no CreateZone): after a restart of the
     * whole domain their owner is gone for good, and no view change will say so; see {@link #onMemberJoined}.
     */
    private final java.util.Set<ZoneId> fromDisk = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * Opens the store in {@code storeDirectory} and registers the handlers; PERSISTENT zones live in it too.
     *
     * @param owner the member's owner role, used to re-replicate recovered zones (may be null: no re-replication).
     */
    public ReplicationBackup(final MessagingService service, final Path storeDirectory, final LogConfig config,
        final Membership membership, final ZonePlacement placement, final ReplicationOwner owner,
        final FailoverListener failover)
    {
        this(service, storeDirectory, config, null, null, membership, placement, owner, failover);
    }

    /**
     * Opens the store in {@code storeDirectory} and registers the handlers; PERSISTENT zones
     * ({@link ZoneId#persistent()}) go to a second store in {@code diskDirectory} with {@code diskConfig} (usually
     * group commit), opened at the first such zone, or at once if the directory exists (a restart).
     *
     * @param diskDirectory null: PERSISTENT zones live in the main store.
     * @param owner         the member's owner role, used to re-replicate recovered zones (may be null).
     */
    public ReplicationBackup(final MessagingService service, final Path storeDirectory, final LogConfig config,
        final Path diskDirectory, final LogConfig diskConfig, final Membership membership,
        final ZonePlacement placement, final ReplicationOwner owner, final FailoverListener failover)
    {
        this.service = service;
        this.membership = membership;
        this.placement = placement;
        this.owner = owner;
        this.failover = failover;
        this.replicationFactor = config.replicationFactor();
        this.stores = new ZoneStores(storeDirectory, config, diskDirectory, diskConfig, this::listenerFor);
        for (final BackupStore store : stores.open())
        {
            loadZoneTable(store);
        }
        service.registerHandler(ReplicationMessages.TYPE, ReplicationMessages.CREATE_ZONE, this::onCreateZone);
        service.registerHandler(ReplicationMessages.TYPE, ReplicationMessages.LOG_BATCH, this::onLogBatch);
        membership.addListener(this);
    }

    /** A store's acknowledgements: from its flusher after each sync, unless it acknowledges from memory. */
    private PersistListener listenerFor(final LogConfig config)
    {
        final boolean fromFlusher = config.syncPolicy() != SyncPolicy.NONE;
        return new PersistListener()
        {
            @Override
            public void onPersisted(final ZoneId zone, final long ticket)
            {
                if (fromFlusher)
                {
                    acknowledge(zone, ticket);
                }
            }

            @Override
            public void onFailure(final LogStorageException failure)
            {
                LOG.error("durable-log: backup {} stops acknowledging: {}", service.ownNodeId(), failure.getMessage());
            }
        };
    }

    /** The main store (TRANSIENT zones, and PERSISTENT ones when no disk directory is configured). */
    public BackupStore store()
    {
        return stores.main();
    }

    /** The store that holds the zone (the disk store for a PERSISTENT zone, when configured). */
    public BackupStore storeOf(final ZoneId zone)
    {
        return stores.of(zone);
    }

    /** Failover recoveries still running on this member. */
    public int recoveriesRunning()
    {
        return recoveriesRunning.get();
    }

    private void acknowledge(final ZoneId zone, final long ticket)
    {
        final ZoneInfo info = zones.get(zone);
        if (info == null || info.owner == service.ownNodeId())
        {
            return;
        }
        try
        {
            service.send(new ReplicationMessages.ZoneAck(zone, ticket), info.owner);
        }
        catch (final NodeUnreachableException ex)
        {
            LOG.debug("durable-log: ack of {} to owner {} not sent: {}", zone, info.owner, ex.toString());
        }
    }

    private void onCreateZone(final ReplicationMessages.CreateZone create)
    {
        if (closed)
        {
            LOG.debug("durable-log: backup {} is closed; {} from {} dropped", service.ownNodeId(), create.zone,
                create.owner);
            return;
        }
        final BackupStore store;
        final ZoneHandle handle;
        try
        {
            store = stores.of(create.zone);
            handle = store.createZone(create.zone);
        }
        catch (final LogStorageException ex)
        {
            storageFailure("create", create.zone, ex);
            return;
        }
        final ZoneInfo info = new ZoneInfo(create.owner, List.copyOf(create.backups), store, handle);
        zones.put(create.zone, info);
        fromDisk.remove(create.zone);
        saveZoneInfo(create.zone, info);
    }

    /** A store failed while handling a message: an error, unless this backup is closing (then it is expected). */
    private void storageFailure(final String action, final ZoneId zone, final LogStorageException ex)
    {
        if (!closed)
        {
            LOG.error("durable-log: backup {} cannot {} {}: {}", service.ownNodeId(), action, zone, ex.getMessage());
        }
    }

    private Path zoneTableFile(final ZoneId zone)
    {
        return stores.of(zone).directory().resolve(zone.directoryName()).resolve("replication.meta");
    }

    /**
     * Records the zone's owner and backup order next to its logs (written to a temporary file, then renamed), so a
     * backup that restarts still knows which zones to take over when their owner fails.
     */
    private void saveZoneInfo(final ZoneId zone, final ZoneInfo info)
    {
        final Path file = zoneTableFile(zone);
        final StringBuilder text = new StringBuilder("owner=").append(info.owner()).append("\nbackups=");
        for (int i = 0; i < info.backups().size(); i++)
        {
            text.append(i == 0 ? "" : ",").append(info.backups().get(i));
        }
        text.append('\n');
        try
        {
            final Path temporary = file.resolveSibling("replication.meta.tmp");
            java.nio.file.Files.writeString(temporary, text);
            java.nio.file.Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final java.io.IOException ex)
        {
            LOG.warn("durable-log: cannot record the backup order of {} in {}: {}", zone, file, ex.toString());
        }
    }

    private void loadZoneTable(final BackupStore store)
    {
        for (final ZoneId zone : store.zones())
        {
            final Path file = zoneTableFile(zone);
            if (!java.nio.file.Files.exists(file))
            {
                continue;
            }
            try
            {
                int zoneOwner = -1;
                final List<Integer> backups = new ArrayList<>();
                for (final String line : java.nio.file.Files.readAllLines(file))
                {
                    if (line.startsWith("owner="))
                    {
                        zoneOwner = Integer.parseInt(line.substring(6).trim());
                    }
                    else if (line.startsWith("backups=") && line.length() > 8)
                    {
                        for (final String id : line.substring(8).split(","))
                        {
                            backups.add(Integer.parseInt(id.trim()));
                        }
                    }
                }
                if (zoneOwner >= 0)
                {
                    zones.put(zone, new ZoneInfo(zoneOwner, List.copyOf(backups), store, store.zone(zone)));
                    fromDisk.add(zone);
                }
            }
            catch (final java.io.IOException | RuntimeException ex)
            {
                LOG.warn("durable-log: unreadable backup order {} ({}); {} will not be taken over", file,
                    ex.toString(), zone);
            }
        }
    }

    private void onLogBatch(final ReplicationMessages.LogBatch batch)
    {
        if (closed)
        {
            return; // shutting down: the owner counts this member out once it leaves
        }
        final ZoneInfo info = zones.get(batch.zone);
        if (info == null)
        {
            LOG.warn("durable-log: backup {} got a batch for unknown {} from {}; dropped", service.ownNodeId(),
                batch.zone, batch.sourceNodeId());
            return;
        }
        if (batch.count == 0)
        {
            acknowledge(batch.zone, batch.firstTicket - 1); // an empty snapshot: nothing to persist, nothing missing
            return;
        }
        final ByteBuffer data = ByteBuffer.wrap(batch.data, 0, batch.length).order(ByteOrder.LITTLE_ENDIAN);
        int p = 0;
        long ticket = batch.firstTicket;
        try
        {
            for (int i = 0; i < batch.count; i++)
            {
                final int flags = data.get(p);
                final long keyHash = data.getLong(p + 1);
                final long sequence = data.getLong(p + 9);
                final int length = data.getInt(p + 17);
                if (length < 0 || p + ReplicationMessages.ENTRY_HEADER_BYTES + length > batch.length)
                {
                    LOG.warn("durable-log: malformed batch for {} from {} at entry {}; rest dropped", batch.zone,
                        batch.sourceNodeId(), i);
                    return;
                }
                if ((flags & 1) != 0)
                {
                    info.store.delete(info.handle, ticket, keyHash, sequence);
                }
                else
                {
                    info.store.append(info.handle, ticket, keyHash, sequence, data, p + ReplicationMessages.ENTRY_HEADER_BYTES,
                        length);
                }
                ticket++;
                p += ReplicationMessages.ENTRY_HEADER_BYTES + length;
            }
        }
        catch (final LogStorageException ex)
        {
            storageFailure("log", batch.zone, ex);
            return;
        }
        if (info.store.config().syncPolicy() == SyncPolicy.NONE)
        {
            acknowledge(batch.zone, ticket - 1);
        }
    }

    /**
     * A member joined: a zone found on disk at start whose owner is not a member is an orphan of a restart. Once
     * every backup of its recorded order is a member again, each of them sees the same order, and the first one
     * recovers the zone, exactly as after its owner's failure (so one restorer, with no coordinator). A zone whose
     * backups do not all come back stays unrecovered (logged at DEBUG on each join).
     */
    @Override
    public void onMemberJoined(final int member)
    {
        final SortedSet<Integer> live = membership.members();
        for (final ZoneId zone : fromDisk)
        {
            final ZoneInfo info = zones.get(zone);
            if (info == null || live.contains(info.owner) || info.owner == service.ownNodeId()
                || info.backups.isEmpty())
            {
                continue;
            }
            if (!live.containsAll(info.backups))
            {
                LOG.debug("durable-log: {} of gone owner {} waits for its backups {} (members {})", zone, info.owner,
                    info.backups, live);
                continue;
            }
            if (info.backups.get(0) == service.ownNodeId() && fromDisk.remove(zone))
            {
                LOG.info("durable-log: {} of owner {} (gone since a restart) is recovered by node {}", zone,
                    info.owner, service.ownNodeId());
                recoveriesRunning.incrementAndGet();
                Agents.threadFactory("log-failover-" + zone.zoneIndex()).newThread(() -> recoverZone(zone,
                    info.owner)).start();
            }
        }
    }

    @Override
    public void onMemberLeft(final int member)
    {
        final SortedSet<Integer> live = membership.members();
        final List<ZoneId> mine = new ArrayList<>();
        for (final var entry : zones.entrySet())
        {
            final ZoneInfo info = entry.getValue();
            if (info.owner != member)
            {
                continue;
            }
            Integer firstLive = null;
            for (final int backup : info.backups)
            {
                if (live.contains(backup))
                {
                    firstLive = backup;
                    break;
                }
            }
            if (firstLive != null && firstLive == service.ownNodeId())
            {
                mine.add(entry.getKey());
            }
        }
        if (mine.isEmpty())
        {
            return;
        }
        LOG.info("durable-log: owner {} left; node {} recovers {} of its zones in parallel", member,
            service.ownNodeId(), mine.size());
        recoveriesRunning.addAndGet(mine.size());
        for (final ZoneId zone : mine)
        {
            Agents.threadFactory("log-failover-" + zone.zoneIndex()).newThread(() -> recoverZone(zone, member)).start();
        }
    }

    private void recoverZone(final ZoneId zone, final int failedOwner)
    {
        try
        {
            final RecoveryConsumer target = failover.consumerFor(zone, failedOwner);
            final ZoneInfo info = zones.get(zone);
            final List<Integer> newBackups = owner == null ? List.of() : placement.repair(zone,
                service.ownNodeId(), info.backups, membership.members(), replicationFactor);
            if (owner != null)
            {
                owner.openZone(zone, newBackups);
            }
            final RecoveryReport report = info.store.recover(zone, handOverThenReplicate(zone, failedOwner, target));
            if (owner != null)
            {
                owner.flush(zone);
                final ZoneInfo mine = new ZoneInfo(service.ownNodeId(), newBackups, info.store, info.handle);
                zones.put(zone, mine);
                saveZoneInfo(zone, mine);
            }
            failover.onZoneRecovered(zone, failedOwner, report, newBackups);
        }
        catch (final RuntimeException ex)
        {
            LOG.error("durable-log: node {} failed to recover {} of failed owner {}", service.ownNodeId(), zone,
                failedOwner, ex);
        }
        finally
        {
            recoveriesRunning.decrementAndGet();
        }
    }

    /**
     * The recovery's consumers: first {@code target} takes every entry and is told the history is complete
     * ({@link FailoverListener#onHistoryRecovered}), then, in a second pass over the same images, the entries are
     * appended to the zone's new backups (this member is its owner now), which waits on the network and their disks.
     */
    private RecoveryConsumer handOverThenReplicate(final ZoneId zone, final int failedOwner,
        final RecoveryConsumer target)
    {
        final RecoveryConsumer replicate = new RecoveryConsumer()
        {
            @Override
            public void onEntry(final ZoneId id, final long keyHash, final long sequence, final int epoch,
                final int version, final ByteBuffer buffer, final int offset, final int length)
            {
                owner.append(zone, keyHash, sequence, buffer, offset, length);
            }
        };
        return new RecoveryConsumer()
        {
            @Override
            public void onEntry(final ZoneId id, final long keyHash, final long sequence, final int epoch,
                final int version, final ByteBuffer buffer, final int offset, final int length)
            {
                target.onEntry(id, keyHash, sequence, epoch, version, buffer, offset, length);
            }

            @Override
            public void onComplete(final RecoveryReport report)
            {
                target.onComplete(report);
                failover.onHistoryRecovered(zone, failedOwner, report);
            }

            @Override
            public RecoveryConsumer then()
            {
                return owner == null ? null : replicate;
            }
        };
    }

    /**
     * Closes the stores. The transport may still deliver (its handlers stop when the service closes, usually just
     * after): from now on they drop what arrives instead of opening zones or appending to closed stores.
     */
    @Override
    public void close()
    {
        closed = true;
        stores.close();
    }

    private record ZoneInfo(int owner, List<Integer> backups, BackupStore store, ZoneHandle handle)
    {
    }
}
