package io.sirocco.pubsub.durability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.sirocco.log.config.DurableSettings;
import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.membership.Membership;
import io.sirocco.log.membership.ViewMembership;
import io.sirocco.log.replication.ReplicationBackup;
import io.sirocco.log.replication.ReplicationMessages;
import io.sirocco.log.replication.ReplicationOwner;
import io.sirocco.log.zone.EligiblePlacement;
import io.sirocco.log.zone.RandomPlacement;
import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.zone.ZonePlacement;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.Group;
import io.sirocco.multicast.MembershipListener;
import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.DurabilityService;
import org.omg.dds.core.policy.History;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One participant's part in DDS durability: a durable-log node of the domain. It runs a messaging-transport node
 * (nio on the participant's interface, loopback on shared memory), announces it to the domain through the
 * {@code durable} subgroup ({@link NodeHellos}), and feeds the log's membership from the multicast view
 * ({@link ViewMembership}): members that announced a log node and are in the view. It owns the zones of this
 * participant's durable writers ({@link ReplicationOwner}) and, when configured as a backup
 * ({@link DurabilityConfig#backup}), holds other writers' zones in a {@link ReplicationBackup}.
 *
 * <p>Threads: hellos arrive on the predicate thread and are handed to the membership's event thread; replication
 * runs on the messaging-transport threads; this object's fields are set once in the constructor, apart from the
 * concurrent set of eligible backups.
 */
public final class DurabilityNode implements AutoCloseable, MembershipListener, NodeHellos.Inbox
{
    private static final Logger LOG = LoggerFactory.getLogger(DurabilityNode.class);
    /** The subgroup of the hellos. */
    static final String SUBGROUP = "durable";
    private static final int BATCH_BYTES = 64 * 1024;

    private final int domainId;
    private final Group group;
    private final DurabilityConfig config;
    private final int nodeId;
    private final MessagingService service;
    private final ViewMembership membership;
    private final Set<Integer> backups = ConcurrentHashMap.newKeySet();
    /** The durable writers' own copies of their zones, by zone. */
    private final java.util.Map<io.sirocco.log.zone.ZoneId, io.sirocco.log.replication.ZoneSource> sources =
        new ConcurrentHashMap<>();
    private final ReplicationOwner owner;
    private final ReplicationBackup backup;
    private final RecoveredHistories recovered;
    /** Writers of this participant that took over a served history: GUID to the high-water mark they resumed after. */
    private final java.util.Map<Long, Long> resumedAfter = new ConcurrentHashMap<>();
    private final Path temporaryStore;
    private final NodeHellos hellos;
    private final byte[] hello;

    /**
     * Starts the node and registers the {@code durable} subgroup (a view change).
     *
     * @param group the participant's domain group; the node listens on the host of this member's tcp endpoint, or
     *              on loopback when it has none (shared memory: one host).
     */
    public DurabilityNode(final int domainId, final Group group, final DurabilityConfig config)
    {
        this.domainId = domainId;
        this.group = group;
        this.config = config;
        this.nodeId = resumedNodeId(domainId, group.memberId());
        this.recovered = new RecoveredHistories(config.recoveryBlockKib() << 10);
        final String host = listenHost(group);
        final TransportContext context = new TransportContext().ownNodeId(nodeId).transport("nio");
        context.addressMap().put(nodeId, host, 0);
        this.service = MessagingService.start(context);
        ReplicationMessages.registerTypes(service);
        final int port = service.addressMap().address(nodeId).getPort();
        final String name = "d" + domainId + "-" + nodeId;
        this.membership = new ViewMembership(new Membership(), name);
        final ZonePlacement placement = new EligiblePlacement(new RandomPlacement(), backups::contains);
        this.owner = new ReplicationOwner(service, membership.membership(), placement, config.replicas(),
            BATCH_BYTES, null);
        owner.zoneSource((zone, sink) ->
        {
            final io.sirocco.log.replication.ZoneSource source = sources.get(zone);
            if (source != null)
            {
                source.forEachLive(zone, sink);
            }
        });
        this.temporaryStore = config.backup() && config.directory().isEmpty() ? temporaryDirectory() : null;
        this.backup = config.backup() ? new ReplicationBackup(service, storeDirectory(), logConfig(),
            persistentDirectory(), DurableSettings.persistent(logConfig()), membership.membership(), placement, owner,
            recovered) : null;
        this.hello = NodeHellos.encode(new NodeHellos.Hello(group.memberId(), nodeId, host, port, config.backup()));
        this.hellos = new NodeHellos(this, group.memberId());
        group.addMembershipListener(membership);
        group.addMembershipListener(this);
        final View view = group.view();
        membership.onViewInstalled(view, view.members().stream().map(m -> m.memberId()).toList(), List.of());
        hellos.attach(group.register(new Group.SubgroupRegistration(SubgroupSpec.of(SUBGROUP, DeliveryMode.ORDERED)
            .withWindow(16).withSlotSize(256).withMaxMessage(1024), Role.WRITER_READER, hellos)));
        hellos.send(hello);
        LOG.info("domain {}: durability node {} listens at {}:{}{}", domainId, nodeId, host, port,
            config.backup() ? ", holds backups in " + storeDirectory() : " (holds no backups)");
    }

    private static String listenHost(final Group group)
    {
        for (final Member member : group.view().members())
        {
            final int colon = member.endpoint().lastIndexOf(':');
            if (member.memberId() == group.memberId() && colon > 0)
            {
                return member.endpoint().substring(0, colon).replace("[", "").replace("]", "");
            }
        }
        return "127.0.0.1";
    }

    /**
     * A backup with a data directory ({@code sirocco.durable.data.dir}) that held PERSISTENT zones of this domain
     * before a restart takes its old log node id again (from its {@code d<domain>-node<N>} directory): the zones'
     * backup orders name it. Otherwise the id is derived from the member id.
     */
    private static int resumedNodeId(final int domainId, final long memberId)
    {
        final String dataDir = DurableSettings.fromSettings().dataDir();
        final String prefix = "d" + domainId + "-node";
        if (!dataDir.isEmpty() && Files.isDirectory(Path.of(dataDir)))
        {
            try (Stream<Path> entries = Files.list(Path.of(dataDir)))
            {
                final List<Integer> ids = entries.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(prefix) && n.substring(prefix.length()).matches("[0-9]{1,5}"))
                    .map(n -> Integer.parseInt(n.substring(prefix.length()))).toList();
                if (ids.size() == 1)
                {
                    LOG.info("domain {}: durability resumes log node {} from {}", domainId, ids.get(0), dataDir);
                    return ids.get(0);
                }
                if (ids.size() > 1)
                {
                    LOG.warn("domain {}: {} holds the stores of log nodes {}; one process per data directory: a new "
                        + "node id is used", domainId, dataDir, ids);
                }
            }
            catch (final IOException ex)
            {
                LOG.warn("domain {}: cannot list data directory {}: {}", domainId, dataDir, ex.toString());
            }
        }
        return nodeIdOf(memberId);
    }

    /** The log node id of a multicast member (16 bits; a clash between two members is logged by the membership). */
    static int nodeIdOf(final long memberId)
    {
        return (int)(Math.floorMod(memberId, 65_000L) + 1);
    }

    private Path storeDirectory()
    {
        return temporaryStore != null ? temporaryStore
            : Path.of(config.directory()).resolve("d" + domainId + "-node" + nodeId);
    }

    /**
     * Where this backup keeps PERSISTENT zones (group commit): {@code sirocco.durable.data.dir}/d&lt;domain&gt;-node&lt;N&gt;,
     * else the sub-directory {@code persistent} of its backup store (deleted with a temporary store).
     */
    Path persistentDirectory()
    {
        final String dataDir = DurableSettings.fromSettings().dataDir();
        return dataDir.isEmpty() ? storeDirectory().resolve("persistent")
            : Path.of(dataDir).resolve("d" + domainId + "-node" + nodeId);
    }

    private static Path temporaryDirectory()
    {
        try
        {
            return Files.createTempDirectory("sirocco-durable-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("durability: cannot create a temporary backup store directory", ex);
        }
    }

    /**
     * TRANSIENT: acknowledged once in the backup's write buffer (its memory); small buffers, one node per process. A
     * zone's secondary log holds {@link DurabilityConfig#zoneMib} segments of 1 MiB; segment files are created as the
     * zone grows, so an unused capacity costs nothing.
     */
    private LogConfig logConfig()
    {
        return new LogConfig().syncPolicy(SyncPolicy.NONE).writeBufferBytes(LogConfig.MIB)
            .segmentSizeBytes(LogConfig.MIB).secondaryLogSegments(config.zoneMib())
            .zoneSizeLimitBytes((long)config.zoneMib() * LogConfig.MIB).primaryLogSizeBytes(4L * LogConfig.MIB);
    }

    public int nodeId()
    {
        return nodeId;
    }

    /**
     * The zone of a DataWriter if its durability is TRANSIENT or PERSISTENT (its participant's node from
     * {@code node}, which throws UnsupportedOperationException on a bus without log replication), else null. A
     * PERSISTENT writer's zone is kept on the backups' disks ({@link io.sirocco.log.zone.ZoneId#persistent()}).
     */
    public static DurableZoneWriter openIfTransient(final Supplier<DurabilityNode> node, final long writerGuid,
        final String describe, final Durability durability, final DurabilityService service)
    {
        return openIfTransient(node, writerGuid, 0, describe, durability, service);
    }

    /**
     * As {@link #openIfTransient(Supplier, long, String, Durability, DurabilityService)}, in the writer's zone
     * {@code zoneIndex}: a writer with a configured identity opens a fresh zone index per incarnation, since its dead
     * predecessor's zone still lives on the backups that recovered it.
     */
    public static DurableZoneWriter openIfTransient(final Supplier<DurabilityNode> node, final long writerGuid,
        final int zoneIndex, final String describe, final Durability durability, final DurabilityService service)
    {
        if (durability.getKind().ordinal() < Durability.Kind.TRANSIENT.ordinal())
        {
            return null;
        }
        final boolean persistent = durability.getKind() == Durability.Kind.PERSISTENT;
        final ZoneId zone = new ZoneId(writerGuid, persistent ? zoneIndex | ZoneId.PERSISTENT_FLAG : zoneIndex);
        return node.get().openWriter(zone, describe, service.getHistoryKind() == History.Kind.KEEP_ALL,
            service.getHistoryDepth());
    }

    /** Opens the zone of a durable writer on this node's log, its copy registered as the zone's source first. */
    private DurableZoneWriter openWriter(final ZoneId zone, final String describe, final boolean keepAll,
        final int depth)
    {
        final DurableZoneWriter writer = new DurableZoneWriter(owner, config.replicas(), zone, describe, keepAll,
            depth, config.zoneMib());
        sources.put(writer.zone(), writer);
        writer.open();
        return writer;
    }

    /** A replacement writer of this participant resumed after {@code highWaterMark} (see {@link WriterTakeover}). */
    public void resumed(final long writerGuid, final long highWaterMark)
    {
        resumedAfter.put(writerGuid, highWaterMark);
    }

    /** The high-water mark a writer of this participant resumed after when it took over a served history, or -1. */
    public long resumedAfter(final long writerGuid)
    {
        return resumedAfter.getOrDefault(writerGuid, -1L);
    }

    /** The histories of failed writers this node recovered as a backup. */
    public RecoveredHistories recovered()
    {
        return recovered;
    }

    public ReplicationOwner owner()
    {
        return owner;
    }

    /** The log nodes that hold backup stores, as far as this node has heard. */
    public Set<Integer> backupNodes()
    {
        return Set.copyOf(backups);
    }

    /** The members of the log's membership (log node ids). */
    public Set<Integer> logMembers()
    {
        return Set.copyOf(membership.membership().members());
    }

    /** Waits until at least {@code count} backup nodes other than this one are known; false on timeout. */
    public boolean awaitBackups(final int count, final long timeoutNs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutNs;
        while (otherBackups() < count)
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
        return true;
    }

    private int otherBackups()
    {
        int n = 0;
        final Set<Integer> members = membership.membership().members();
        for (final int b : backups)
        {
            if (b != nodeId && members.contains(b))
            {
                n++;
            }
        }
        return n;
    }

    @Override
    public void onHello(final NodeHellos.Hello in)
    {
        if (in.nodeId() != nodeId || in.memberId() == group.memberId())
        {
            service.addressMap().put(in.nodeId(), in.host(), in.port());
            if (in.backup())
            {
                backups.add(in.nodeId());
            }
            membership.learn(in.memberId(), in.nodeId());
        }
        else
        {
            LOG.error("domain {}: member {} announces log node {}, which is this member's own: durability ignores "
                + "it", domainId, in.memberId(), in.nodeId());
        }
    }

    /**
     * A view change: announce this node again, so that members that joined, or that registered the {@code durable}
     * subgroup only now (a participant starts its log node at its first TRANSIENT writer), learn it. Views are rare
     * and a hello is a few bytes (predicate thread: only queues).
     */
    @Override
    public void onViewInstalled(final View view, final List<Long> joined, final List<Long> left)
    {
        hellos.send(hello);
    }

    @Override
    public void close()
    {
        hellos.close();
        membership.close();
        if (backup != null)
        {
            backup.close();
        }
        service.close();
        if (temporaryStore != null)
        {
            try (Stream<Path> files = Files.walk(temporaryStore))
            {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            catch (final IOException ex)
            {
                LOG.debug("durability: temporary store {} not removed: {}", temporaryStore, ex.toString());
            }
        }
    }
}
