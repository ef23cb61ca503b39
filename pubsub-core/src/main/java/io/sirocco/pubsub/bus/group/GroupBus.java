package io.sirocco.pubsub.bus.group;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.DomainGroups;
import io.sirocco.multicast.Group;
import io.sirocco.multicast.GroupConfig;
import io.sirocco.multicast.MembershipListener;
import io.sirocco.multicast.NetworkMembership;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
import io.sirocco.pubsub.bus.BusReader;
import io.sirocco.pubsub.bus.BusWriter;
import io.sirocco.pubsub.bus.DeliveryExecutor;
import io.sirocco.pubsub.bus.DeliveryHandler;
import io.sirocco.pubsub.bus.DiscoveryHandler;
import io.sirocco.pubsub.bus.DomainBus;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.bus.ReaderQueue;
import io.sirocco.pubsub.bus.RecordCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subgroup bus over Sirocco's atomic multicast: a participant is one member of the domain's group
 * ({@code dds-d<domain>}), discovery travels in the ORDERED subgroup {@code dcps}, and each topic is one subgroup
 * per reliability: {@code t.<topic>.R} (ORDERED, DDS RELIABLE) and {@code t.<topic>.B} (UNORDERED_LOSSY, DDS
 * BEST_EFFORT). A best-effort reader joins both, since it also matches reliable writers.
 *
 * <p>Parts: {@link TopicChannel} (a topic subgroup: delivery into the reader windows, samples held for writers not
 * discovered yet), {@link GroupWriter} (a DataWriter's sends), {@link EndpointRecords} (the records and when they are
 * handed to the DDS layer), {@link DiscoverySender} (the {@code dcps} sends), {@link WriterRetirement} (a closed
 * RELIABLE writer's retraction waits for its end mark). This class joins the group, routes discovery messages and
 * view changes to them, and opens channels, writers and readers.
 *
 * <p>Opening a writer or reader registers the subgroup (a view change). Every member re-announces its records after
 * each view change, so joiners learn the domain and records lost to a view change's trim are restored.
 *
 * <p>Threads: delivery and view upcalls run on the group's predicate thread; they copy each sample into the reader
 * windows ({@link ReaderQueue}) and return. A reliable reader whose window is full makes the topic's ORDERED subgroup
 * stop delivering ({@code canAccept}): the sample stays undelivered, this member's DELIVERED stops, the writers'
 * claims back-pressure (write throws TimeoutException after max_blocking_time), and the predicate thread goes on
 * with heartbeats and every other subgroup; the reader's delivery rings the doorbell when it frees slots. Discovery
 * sends and retirements run on their own threads. The {@link EndpointRecords} monitor guards the record tables.
 */
public final class GroupBus implements DomainBus, MembershipListener
{
    private static final Logger LOG = LoggerFactory.getLogger(GroupBus.class);
    private static final String DCPS = "dcps";
    /** How long the end mark's send may wait for room in the topic subgroup; on failure the retraction is plain. */
    private static final long MARK_SEND_NS = TimeUnit.SECONDS.toNanos(5);

    private final int domainId;
    private final String groupName;
    private final long memberId;
    private final long participantGuid;
    private final SiroccoConfig config;
    private final String transport;
    private final Group group;
    private final WriterDirectory writers = new WriterDirectory();
    private final Map<String, TopicChannel> channels = new ConcurrentHashMap<>();
    private final EndpointRecords records;
    private final WriterRetirement retirement;
    private final DiscoverySender sender;
    /** Runs this participant's reader deliveries and listeners. */
    private final DeliveryExecutor delivery;
    /** This member's RELIABLE writers by GUID: {@link #retract} sends their end marks. */
    private final Map<Long, GroupWriter> ownWriters = new ConcurrentHashMap<>();
    /** Discovery input a remote peer controls: warned about at most once a second. */
    private final RateLimitedWarning peerWarning = new RateLimitedWarning(LOG, 1000);
    private volatile boolean closed;

    private GroupBus(final int domainId, final DiscoveryHandler discovery, final SiroccoConfig config,
        final String transport) throws TimeoutException
    {
        this.domainId = domainId;
        this.groupName = "dds-d" + domainId;
        this.config = config;
        this.transport = transport;
        this.participantGuid = newParticipantGuid();
        this.memberId = SubgroupNames.memberOf(participantGuid);
        this.records = new EndpointRecords(memberId, discovery, writers, channels::containsKey, () -> closed);
        this.retirement = new WriterRetirement(domainId, records, writers, this::retractClosed);
        this.sender = new DiscoverySender(domainId, () -> closed);
        this.delivery = new DeliveryExecutor(String.format("d%d-%05x", domainId, memberId & 0xFFFFF));
        final long startNs = System.nanoTime();
        final boolean network = config.networkDiscovery();
        // tcp and mixed (tcp to other hosts) rows need an endpoint.
        final boolean tcpRows = "tcp".equals(transport) || "mixed".equals(transport);
        final String bindAddress = tcpRows || network ? TcpEndpoints.chooseAddress(config, domainId) : null;
        final NetworkMembership registry = network
            ? NetDiscovery.registry(config, domainId, groupName, memberId, bindAddress) : null;
        this.group = joinGroup(DomainGroupConfig.of(domainId, groupName, memberId, transport, config, network,
            tcpRows, bindAddress), registry);
        DomainGroups.tuneIdle(group, config.idleSpinNs(), config.idleAdaptiveNs());
        // A main that returns without closing the participant: retract its entities before leaving, as close() does.
        group.closeOnShutdown(this::close);
        sender.attach(group.subgroup(DCPS));
        records.view(group.view());
        final View view = records.view();
        final boolean formed = view.viewId() == 1 && view.members().size() == 1;
        LOG.info("domain {}: participant {} joined group '{}' as member {} ({}) over transport '{}', interface {}, "
            + "discovery '{}'{} in {} ms", domainId, String.format("%016x", participantGuid), groupName, memberId,
            formed ? "first member, formed the view" : "joined the running group", transport,
            bindAddress == null ? "shared memory only" : bindAddress, config.discovery(),
            registry == null ? "" : " (registry at " + registry.contactAddress() + ")",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
    }

    /** The domain's group this participant is a member of (durability registers its own subgroup on it). */
    public Group group()
    {
        return group;
    }

    /** Joins the domain's group over {@code transport} (shm, tcp or mixed); throws when it cannot be joined. */
    public static GroupBus join(final int domainId, final DiscoveryHandler discovery, final SiroccoConfig config,
        final String transport) throws TimeoutException
    {
        return new GroupBus(domainId, discovery, config, transport);
    }

    private static long newParticipantGuid()
    {
        long guid;
        do
        {
            guid = ThreadLocalRandom.current().nextLong() & 0x7FFF_FFFF_FFF0_0000L;
        }
        while (guid == 0);
        return guid;
    }

    private Group joinGroup(final GroupConfig groupConfig, final NetworkMembership registry) throws TimeoutException
    {
        final SubgroupSpec dcpsSpec = DomainGroupConfig.discovery(DCPS);
        try
        {
            return DomainGroups.join(groupConfig, registry, List.of(new Group.SubgroupRegistration(dcpsSpec,
                Role.WRITER_READER, new DiscoveryInbox())), this, Duration.ofSeconds(30));
        }
        catch (final TimeoutException | RuntimeException ex)
        {
            if (registry != null)
            {
                registry.close();
            }
            sender.shutdownNow();
            retirement.shutdownNow();
            delivery.close();
            throw ex;
        }
    }

    @Override
    public long participantGuid()
    {
        return participantGuid;
    }

    @Override
    public String transportName()
    {
        return transport;
    }

    /** A closed entity's retraction (also {@link WriterRetirement}'s, once a writer's end mark came). */
    private void retractClosed(final long guid)
    {
        retractRecord(guid, false);
    }

    /** See {@link EndpointRecords#retract}; a mark that came before the retraction is forgotten with it. */
    private void retractRecord(final long guid, final boolean failed)
    {
        synchronized (records)
        {
            retirement.forget(guid);
            records.retract(guid, failed);
        }
    }

    /**
     * Predicate thread, a remote writer's {@code RETRACT_AFTER_MARK}: whether it waits for the writer's end mark (or
     * for the local windows to drain, the mark being here already). Not when the writer was never handed to the DDS
     * layer (nothing can be dropped) or this member has no channel of its topic (no mark comes here).
     */
    private boolean deferRetraction(final long guid)
    {
        synchronized (records)
        {
            final EndpointRecord record = records.forwarded(guid);
            if (closed || record == null || !record.isWriter() || record.reliabilityKind() != 1)
            {
                return false;
            }
            final TopicChannel channel = channels.get(SubgroupNames.subgroupName(record.topicName(), true));
            return channel != null && retirement.defer(guid, channel);
        }
    }

    /** Predicate thread: every topic channel delivers the samples it held for writers that are known now. */
    private void releaseHeld()
    {
        for (final TopicChannel channel : channels.values())
        {
            channel.releaseHeld();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Discovery

    @Override
    public void announce(final EndpointRecord record)
    {
        records.putLocal(record);
        records.offer(record);
        sender.send(RecordCodec.announce(record));
    }

    @Override
    public void retract(final long guid)
    {
        // A RELIABLE writer's end mark goes first, in its topic subgroup, so that no member hands the retraction to
        // its DDS layer before the writer's last samples (see WriterRetirement).
        final GroupWriter own = ownWriters.remove(guid);
        final boolean endMarked = own != null && !closed && own.sendEndMark(guid, MARK_SEND_NS);
        records.removeLocal(guid);
        // Local readers too take the writer's last samples (its unregister/dispose) before they see it gone.
        if (!endMarked || !deferRetraction(guid))
        {
            retractRecord(guid, false);
        }
        sender.send(endMarked ? RecordCodec.retractAfterMark(guid) : RecordCodec.retract(guid));
    }

    @Override
    public void withdraw(final long guid)
    {
        ownWriters.remove(guid);
        records.removeLocal(guid);
    }

    /** The {@code dcps} subgroup's delivery upcall (predicate thread): other members' records and retractions. */
    private final class DiscoveryInbox implements io.sirocco.multicast.model.DeliveryHandler
    {
        @Override
        public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
            final MemorySegment payload, final int length)
        {
            if (senderId == memberId || length < 9)
            {
                return;
            }
            final byte[] message = payload.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
            try
            {
                final byte op = RecordCodec.op(message);
                if (op == RecordCodec.RETRACT || op == RecordCodec.RETRACT_AFTER_MARK)
                {
                    final long guid = RecordCodec.retractedGuid(message);
                    if (op == RecordCodec.RETRACT_AFTER_MARK && deferRetraction(guid))
                    {
                        return; // applied after the writer's end mark (WriterRetirement)
                    }
                    retractRecord(guid, false);
                    releaseHeld(); // samples held for a writer retracted before its record came go as they always did
                    return;
                }
                final EndpointRecord record = RecordCodec.decode(message);
                if (SubgroupNames.memberOf(record.participantGuid()) != senderId)
                {
                    peerWarning.warn("domain {}: member {} announced an entity of another member; ignored",
                        domainId, senderId);
                    return;
                }
                if (records.offer(record))
                {
                    releaseHeld();
                }
            }
            catch (final IllegalArgumentException ex)
            {
                peerWarning.warn("domain {}: malformed discovery message from member {} dropped: {}",
                    domainId, senderId, ex.getMessage());
            }
        }
    }

    @Override
    public void onViewInstalled(final View installed, final List<Long> joined, final List<Long> left)
    {
        final List<EndpointRecord> failedReaders = retractDeparted(installed, left);
        boolean writerForwarded = false;
        for (final EndpointRecord record : records.pendingRecords())
        {
            writerForwarded |= records.offer(record);
        }
        for (final TopicChannel channel : channels.values())
        {
            channel.dropHeldOf(left);
        }
        if (writerForwarded)
        {
            releaseHeld();
        }
        AwayReaders.viewInstalled(channels, failedReaders, joined);
        GroupWriter.sendKept(ownWriters.values(), delivery);
        LOG.debug("domain {}: view {} installed: {} members, joined {}, left {}", domainId, installed.viewId(),
            installed.members().size(), joined, left);
        if (!closed && !sender.sendAll(records::localAnnouncements))
        {
            LOG.debug("domain {}: closing; no re-announcement after view {}", domainId, installed.viewId());
        }
    }

    /**
     * Installs the view and retracts the entities of the members that left: as failed, except a writer whose
     * retraction waited for its end mark: nothing more comes from its member, and what came (the view change
     * delivered it before this upcall) goes once the reader windows took it. @return the RELIABLE readers among the
     * failed ones.
     */
    private List<EndpointRecord> retractDeparted(final View installed, final List<Long> left)
    {
        final List<Long> failed = new ArrayList<>();
        final List<EndpointRecord> failedReaders = new ArrayList<>();
        final List<Long> closedOnes = new ArrayList<>();
        synchronized (records)
        {
            records.view(installed);
            for (final Long guid : records.forwardedOf(left))
            {
                final TopicChannel waiting = retirement.stopWaiting(guid);
                if (waiting == null)
                {
                    failed.add(guid);
                    AwayReaders.collect(records.forwarded(guid), failedReaders);
                }
                else if (!retirement.drainThenRetract(guid, waiting))
                {
                    closedOnes.add(guid);
                }
            }
            retirement.forgetMarksOf(left);
            records.dropPendingOf(left);
        }
        for (final Long guid : closedOnes)
        {
            retractRecord(guid, false);
        }
        for (final Long guid : failed)
        {
            retractRecord(guid, true);
        }
        return failedReaders;
    }

    /**
     * The group excluded this member (for example the lone survivor of a two-member view, which is not a majority, or
     * the side of a partition that is not a majority), or it left to merge into another group: from here it can reach
     * nobody, so every remote entity is reported gone (readers see NOT_ALIVE_NO_WRITERS, writers' and readers'
     * matched counts drop). The group layer looks for the domain again and takes this member back in by itself
     * ({@link #onRejoined}); reliable samples not yet acknowledged by every member are re-sent then (counted here).
     */
    @Override
    public void onExcluded(final String reason)
    {
        final long unacknowledged = channels.values().stream().mapToLong(c -> c.unconfirmed.size()).sum();
        LOG.warn("domain {}: participant {} (member {}) is out of the domain's group: {}; every remote entity is now "
            + "considered gone; {} reliable sample(s) written before are not acknowledged by every member: they are "
            + "re-sent into the view that takes this participant back (it looks for the domain by itself unless "
            + "sirocco.multicast.rejoin=false), so a reader not in that view misses them", domainId,
            String.format("%016x", participantGuid), memberId, reason, unacknowledged);
        final List<Long> remote;
        synchronized (records)
        {
            remote = records.remoteGuids(participantGuid);
            records.clearPending();
            retirement.clear();
        }
        for (final Long guid : remote)
        {
            retractRecord(guid, true);
        }
    }

    /** The group took this member back in: the view install that follows re-announces and re-matches everything. */
    @Override
    public void onRejoined(final View rejoined)
    {
        LOG.warn("domain {}: participant {} (member {}) rejoined the domain's group in view {} ({} members); its "
            + "endpoints are announced again and re-matched", domainId, String.format("%016x", participantGuid),
            memberId, rejoined.viewId(), rejoined.members().size());
    }

    // ------------------------------------------------------------------------------------------------------------
    // Data

    /**
     * The channel of a topic and reliability, registering the subgroup on first use: as WRITER_READER when a writer
     * opens it, as READER when a reader does (so that pure readers never take part as senders, which would cost
     * null-sends in the ORDERED round-robin). A writer opened after a reader promotes the subgroup to WRITER_READER.
     */
    private TopicChannel channel(final String topicName, final boolean reliable, final boolean writing)
    {
        final String name = SubgroupNames.subgroupName(topicName, reliable);
        synchronized (channels)
        {
            TopicChannel channel = channels.get(name);
            if (channel != null && writing && !channel.subgroup.role().sends())
            {
                // A reader came first: the next view makes this member a sender (GroupWriter keeps what comes before).
                LOG.debug("domain {}: subgroup {} gains the writer role of member {}", domainId, name, memberId);
                group.promoteToWriter(name);
            }
            if (channel == null)
            {
                final SubgroupSpec spec = new SubgroupSpec(name, reliable ? DeliveryMode.ORDERED :
                    DeliveryMode.UNORDERED_LOSSY, config.windowSlots(), Math.max(BusHeader.LENGTH + 64,
                    BusHeader.LENGTH + config.slotBytes()), TopicChannel.MAX_MESSAGE_BYTES);
                channel = new TopicChannel(name, reliable, spec.slotSizeBytes(), domainId, memberId, writers,
                    (from, writerGuid) -> retirement.onEndMark(writerGuid, from, records.view()),
                    () -> DomainGroups.onPredicateThread(group), config.windowSlots());
                channels.put(name, channel);
                channel.subgroup = group.register(new Group.SubgroupRegistration(spec, writing ? Role.WRITER_READER :
                    Role.READER, channel));
            }
            return channel;
        }
    }

    @Override
    public BusWriter openWriter(final long writerGuid, final String topicName, final boolean reliable)
    {
        final GroupWriter writer = new GroupWriter(channel(topicName, reliable, true), reliable, writerGuid,
            ownWriters);
        if (reliable)
        {
            ownWriters.put(writerGuid, writer);
        }
        return writer;
    }

    @Override
    public BusReader openReader(final long readerGuid, final String topicName, final boolean reliable,
        final DeliveryHandler handler)
    {
        final ReaderQueue queue = new ReaderQueue(readerGuid, topicName, reliable, config.windowSlots(),
            config.slotBytes(), handler, delivery);
        final Runnable doorbell = DomainGroups.doorbell(group);
        queue.onRoom(doorbell);
        final List<TopicChannel> joined = new ArrayList<>(2);
        joined.add(channel(topicName, true, false));
        if (!reliable)
        {
            joined.add(channel(topicName, false, false));
        }
        for (final TopicChannel channel : joined)
        {
            channel.addReader(queue);
        }
        return () ->
        {
            for (final TopicChannel channel : joined)
            {
                channel.removeReader(queue);
            }
            queue.close();
            doorbell.run(); // a delivery stopped at this reader's full window may go on without it
        };
    }

    @Override
    public void close()
    {
        for (final Long guid : records.localGuids())
        {
            retract(guid);
        }
        sender.shutdownAndAwait();
        closed = true;
        retirement.shutdownNow();
        group.close();
        delivery.close();
        LOG.debug("domain {}: member {} left group '{}'", domainId, memberId, groupName);
    }
}
