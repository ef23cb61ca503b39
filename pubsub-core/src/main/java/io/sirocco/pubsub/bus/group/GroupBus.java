package io.sirocco.pubsub.bus.group;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.multicast.ClaimResult;
import io.sirocco.multicast.DeliveryMode;
import io.sirocco.multicast.Group;
import io.sirocco.multicast.GroupConfig;
import io.sirocco.multicast.Member;
import io.sirocco.multicast.MembershipListener;
import io.sirocco.multicast.Role;
import io.sirocco.multicast.SlotClaim;
import io.sirocco.multicast.Subgroup;
import io.sirocco.multicast.SubgroupSpec;
import io.sirocco.multicast.View;
import io.sirocco.multicast.view.MembershipRegistry;
import io.sirocco.multicast.view.ShmRegistry;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusReader;
import io.sirocco.pubsub.bus.BusWriter;
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
 * <p>Opening a writer or reader registers the subgroup (a view change). An endpoint's record is handed to the DDS
 * layer only once the installed view has its member in the endpoint's subgroups (and this member too, when it has
 * endpoints there), so "matched" means the data path exists. Every member re-announces its records after each view
 * change, so joiners learn the domain and records lost to a view change's trim are restored. A topic subgroup is not
 * ordered with {@code dcps}: samples of a writer whose record has not arrived yet are held by their channel and
 * delivered, in order, when it does ({@code Channel.held}). For the same reason a closing RELIABLE writer first sends
 * an end mark ({@link BusMessage#KIND_WRITER_END}) in its topic subgroup, after its last sample, and then its
 * retraction ({@link RecordCodec#RETRACT_AFTER_MARK}) in {@code dcps}: a member hands that retraction to the DDS
 * layer only once its topic channel delivered the mark and its local reader windows handed everything before it to
 * their readers ({@code awaitingMark}, {@code marked}); else the reader's participant would drop the writer, and the
 * samples still on their way with it. Bounded: the member's departure releases it at once, a missing mark after
 * {@value #MARK_WAIT_S} s.
 *
 * <p>Threads: delivery and view upcalls run on the group's predicate thread; they copy each sample into the reader
 * windows ({@link ReaderQueue}) and return. A reliable reader whose window is full makes the topic's ORDERED subgroup
 * stop delivering ({@code canAccept}): the sample stays undelivered, this member's DELIVERED stops, the writers'
 * claims back-pressure (write throws TimeoutException after max_blocking_time), and the predicate thread goes on
 * with heartbeats and every other subgroup; the reader's delivery thread rings the doorbell when it frees slots.
 * Discovery sends run on their own thread. {@code this} guards the record tables.
 */
public final class GroupBus implements DomainBus, MembershipListener
{
    private static final Logger LOG = LoggerFactory.getLogger(GroupBus.class);
    static final int HEADER = 56;
    /** Per topic subgroup: samples held for writers not discovered yet (see {@code Channel.held}). */
    private static final int MAX_HELD = 16_384;
    private static final int MAX_RETIRED = 1024;
    private static final String DCPS = "dcps";
    /** How long a retraction waits for its writer's end mark before it is applied anyway (WARN). */
    private static final long MARK_WAIT_S = 30;
    /** How long the end mark's send may wait for room in the topic subgroup; on failure the retraction is plain. */
    private static final long MARK_SEND_NS = TimeUnit.SECONDS.toNanos(5);
    /** How long a retraction waits for the local reader windows to hand over what came before its end mark. */
    private static final long DRAIN_WAIT_NS = TimeUnit.SECONDS.toNanos(10);

    private final int domainId;
    private final String groupName;
    private final long memberId;
    private final long participantGuid;
    private final DiscoveryHandler discovery;
    private final SiroccoConfig config;
    private final String transport;
    private final Group group;
    private final Subgroup dcps;
    private final ExecutorService sender;
    /** Applies retractions that waited for their writers' end marks (it may wait for reader windows to drain). */
    private final java.util.concurrent.ScheduledExecutorService retirer;
    /** This member's RELIABLE writers by GUID: {@link #retract} sends their end marks. */
    private final Map<Long, GroupWriter> ownWriters = new ConcurrentHashMap<>();
    /**
     * Under {@code this}: remote RELIABLE writers whose {@code RETRACT_AFTER_MARK} arrived before their end mark, with
     * the channel the mark comes in; and the writers whose end mark arrived before their retraction. Every entry goes
     * with the retraction, the mark, the timeout or its member's departure.
     */
    private final Map<Long, Channel> awaitingMark = new HashMap<>();
    private final java.util.Set<Long> marked = new java.util.HashSet<>();
    private final Map<String, Channel> channels = new ConcurrentHashMap<>();
    private final Map<Long, EndpointRecord> localRecords = new LinkedHashMap<>();
    private final Map<Long, EndpointRecord> pending = new LinkedHashMap<>();
    private final Map<Long, EndpointRecord> forwarded = new HashMap<>();
    /**
     * The GUIDs of the writers in {@code forwarded}, sorted, replaced on every change (under {@code this}): the
     * predicate thread looks a sample's writer up here without a lock or an allocation.
     */
    private volatile long[] knownWriters = new long[0];
    /**
     * The GUIDs of the last {@value #MAX_RETIRED} retracted entities, sorted (under {@code this}): a sample of one of
     * them is delivered as it always was (a reader that still knows the writer takes it), never held.
     */
    private volatile long[] retired = new long[0];
    private final java.util.ArrayDeque<Long> retiredOrder = new java.util.ArrayDeque<>();
    /** Bumped (under {@code this}) after {@code knownWriters} or {@code retired} change: held samples may go then. */
    private volatile int writersVersion;
    private volatile View view;
    private volatile boolean closed;

    private GroupBus(final int domainId, final DiscoveryHandler discovery, final SiroccoConfig config,
        final String transport) throws TimeoutException
    {
        this.domainId = domainId;
        this.groupName = "dds-d" + domainId;
        this.discovery = discovery;
        this.config = config;
        this.transport = transport;
        long guid;
        do
        {
            guid = ThreadLocalRandom.current().nextLong() & 0x7FFF_FFFF_FFF0_0000L;
        }
        while (guid == 0);
        this.participantGuid = guid;
        this.memberId = guid >>> 20;
        this.sender = Executors.newSingleThreadExecutor(r ->
            Thread.ofPlatform().daemon().name("sirocco-dcps-d" + domainId).unstarted(r));
        this.retirer = Executors.newSingleThreadScheduledExecutor(r ->
            Thread.ofPlatform().daemon().name("sirocco-retire-d" + domainId).unstarted(r));
        final boolean network = config.networkDiscovery();
        final boolean contact = !network && noLiveMember(groupName);
        GroupConfig groupConfig = GroupConfig.defaults(groupName).withMemberId(memberId)
            .withTransport(transport).withRegistry("shm").withContact(contact, 1)
            .withIdle(config.idleSpins(), config.idleYields(), config.idleParkNs());
        groupConfig = groupConfig.withFailureDetection(groupConfig.heartbeatPeriodMs(), config.suspicionTimeoutMs());
        // tcp and mixed (tcp to other hosts) rows need an endpoint.
        final boolean tcpRows = "tcp".equals(transport) || "mixed".equals(transport);
        final String bindAddress = tcpRows || network ? TcpEndpoints.chooseAddress(config, domainId) : null;
        if (tcpRows)
        {
            final String endpoint = bindAddress + ":" + TcpEndpoints.tcpPort(config, memberId);
            LOG.info("domain {}: {} row transport binds {}", domainId, transport, endpoint);
            groupConfig = groupConfig.withEndpoint(endpoint);
        }
        final MembershipRegistry registry = network
            ? NetDiscovery.registry(config, domainId, groupName, memberId, bindAddress) : null;
        final SubgroupSpec dcpsSpec = SubgroupSpec.of(DCPS, DeliveryMode.ORDERED).withWindow(64).withSlotSize(1024)
            .withMaxMessage(65_536);
        final long startNs = System.nanoTime();
        try
        {
            this.group = Group.join(groupConfig, registry, List.of(new Group.SubgroupRegistration(dcpsSpec,
                Role.WRITER_READER, new DiscoveryChannel())), this, Duration.ofSeconds(30));
        }
        catch (final TimeoutException | RuntimeException ex)
        {
            if (registry != null)
            {
                registry.close();
            }
            sender.shutdownNow();
            retirer.shutdownNow();
            throw ex;
        }
        group.predicateEngine().spinWindowNs(config.idleSpinNs());
        group.predicateEngine().adaptiveSpinNs(config.idleAdaptiveNs());
        this.dcps = group.subgroup(DCPS);
        this.view = group.view();
        final boolean formed = view.viewId() == 1 && view.members().size() == 1;
        LOG.info("domain {}: joined group '{}' as member {} ({}) over row transport '{}' with discovery '{}'{} in {} "
            + "ms; view {}", domainId, groupName, memberId, formed ? "first member, formed the view"
            : "joined the running group", transport, config.discovery(), registry == null ? ""
            : " (registry at " + registry.contactAddress() + ")",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs), view.viewId());
    }

    /** Joins the domain's group over {@code transport} (shm, tcp or mixed); throws when it cannot be joined. */
    public static GroupBus join(final int domainId, final DiscoveryHandler discovery, final SiroccoConfig config,
        final String transport) throws TimeoutException
    {
        return new GroupBus(domainId, discovery, config, transport);
    }

    /**
     * Zero-config on one host: the first process of a domain forms the group. The per-domain registry
     * ({@code /dev/shm/sirocco-dds-d<N>}) lists the announced members; if none of them is a live process, a stale
     * directory from a crashed run is removed and this member becomes the contact.
     */
    private static boolean noLiveMember(final String groupName)
    {
        final ShmRegistry registry = new ShmRegistry(groupName);
        for (final Member member : registry.announced())
        {
            final Optional<ProcessHandle> process = ProcessHandle.of(member.pid());
            if (process.isPresent() && process.get().isAlive())
            {
                return false;
            }
        }
        if (!registry.announced().isEmpty())
        {
            LOG.warn("group '{}': registry {} lists only dead processes; removing it and forming a new group",
                groupName, registry.directory());
        }
        ShmRegistry.destroy(groupName);
        return true;
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

    static long memberOf(final long participantGuid)
    {
        return participantGuid >>> 20;
    }

    static String subgroupName(final String topicName, final boolean reliable)
    {
        final StringBuilder name = new StringBuilder("t.");
        for (final char c : topicName.toCharArray())
        {
            if (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '/' || c == ':' || c == '-')
            {
                name.append(c);
            }
            else
            {
                name.append(String.format("%%%04x", (int)c));
            }
        }
        return name.append(reliable ? ".R" : ".B").toString();
    }

    private static List<String> channelsOf(final EndpointRecord record)
    {
        final boolean reliable = record.reliabilityKind() == 1;
        if (record.isWriter())
        {
            return List.of(subgroupName(record.topicName(), reliable));
        }
        if (record.isReader())
        {
            return reliable ? List.of(subgroupName(record.topicName(), true)) :
                List.of(subgroupName(record.topicName(), true), subgroupName(record.topicName(), false));
        }
        return List.of();
    }

    private static boolean inSubgroup(final View v, final String subgroup, final long member)
    {
        final int rank = v.rankOf(member);
        if (rank < 0)
        {
            return false;
        }
        for (final View.SubgroupInfo info : v.subgroups())
        {
            if (info.name().equals(subgroup))
            {
                for (final int r : info.memberRanks())
                {
                    if (r == rank)
                    {
                        return true;
                    }
                }
                return false;
            }
        }
        return false;
    }

    /** Under {@code this}: whether the data path for this record's endpoint exists in the installed view. */
    private boolean ready(final EndpointRecord record)
    {
        final View v = view;
        if (v == null)
        {
            return false;
        }
        for (final String name : channelsOf(record))
        {
            if (!inSubgroup(v, name, memberOf(record.participantGuid())))
            {
                return false;
            }
            if (channels.containsKey(name) && !inSubgroup(v, name, memberId))
            {
                return false;
            }
        }
        return true;
    }

    /** @return whether a writer's record was handed to the DDS layer (its held samples may go now). */
    private synchronized boolean offerRecord(final EndpointRecord record)
    {
        if (closed)
        {
            return false;
        }
        final EndpointRecord known = forwarded.get(record.guid());
        if (known != null && java.util.Arrays.equals(RecordCodec.announce(known), RecordCodec.announce(record)))
        {
            return false;
        }
        if (ready(record))
        {
            pending.remove(record.guid());
            forwarded.put(record.guid(), record);
            discovery.onAnnounce(record);
            if (record.isWriter() && known == null)
            {
                updateKnownWriters();
                return true;
            }
        }
        else
        {
            pending.put(record.guid(), record);
        }
        return false;
    }

    /**
     * @param failed the writer's member left the view, or this member was excluded: the entity did not close, and if
     *               its member comes back (a rejoin after a false suspicion), its samples in the new view, the re-sent
     *               ones first, may arrive before its re-announced record. It is therefore not retired: its samples
     *               are held until the record is handed to the DDS layer again (a reader drops the samples of a
     *               writer it does not know, silently). A closed entity's GUID never comes back: it is retired, and
     *               samples of it still on their way are delivered as they always were.
     */
    private synchronized void retractRecord(final long guid, final boolean failed)
    {
        pending.remove(guid);
        marked.remove(guid);
        if (!failed)
        {
            retiredOrder.addLast(guid);
            if (retiredOrder.size() > MAX_RETIRED)
            {
                retiredOrder.pollFirst();
            }
            retired = retiredOrder.stream().mapToLong(Long::longValue).sorted().toArray();
        }
        final EndpointRecord removed = forwarded.remove(guid);
        if (removed != null)
        {
            if (removed.isWriter())
            {
                updateKnownWriters();
            }
            discovery.onRetract(guid, failed);
        }
        writersVersion++;
    }

    /** Under {@code this}: publishes the sorted writer GUIDs of {@code forwarded}. */
    private void updateKnownWriters()
    {
        knownWriters = forwarded.values().stream().filter(EndpointRecord::isWriter).mapToLong(EndpointRecord::guid)
            .sorted().toArray();
        writersVersion++;
    }

    /** Whether samples of this writer go to the readers now: its record is known, or it was retracted. */
    private boolean deliverable(final long[] known, final long[] gone, final long writerGuid)
    {
        return java.util.Arrays.binarySearch(known, writerGuid) >= 0 ||
            java.util.Arrays.binarySearch(gone, writerGuid) >= 0;
    }

    /**
     * Predicate thread, a remote writer's {@code RETRACT_AFTER_MARK}: whether it waits for the writer's end mark (or
     * for the local windows to drain, the mark being here already). Not when the writer was never handed to the DDS
     * layer (nothing can be dropped) or this member has no channel of its topic (no mark comes here).
     */
    private synchronized boolean deferRetraction(final long guid)
    {
        final EndpointRecord record = forwarded.get(guid);
        if (closed || record == null || !record.isWriter() || record.reliabilityKind() != 1)
        {
            return false;
        }
        final Channel channel = channels.get(subgroupName(record.topicName(), true));
        if (channel == null)
        {
            return false;
        }
        if (marked.remove(guid))
        {
            return drainThenRetract(guid, channel);
        }
        try
        {
            retirer.schedule(() -> markMissing(guid), MARK_WAIT_S, TimeUnit.SECONDS);
        }
        catch (final java.util.concurrent.RejectedExecutionException ex)
        {
            return false; // closing
        }
        awaitingMark.put(guid, channel);
        return true;
    }

    /** Predicate thread: a remote writer's end mark was delivered by {@code channel}, after all its samples. */
    private synchronized void onEndMark(final long writerGuid, final Channel channel)
    {
        if (awaitingMark.remove(writerGuid) != null)
        {
            if (!drainThenRetract(writerGuid, channel))
            {
                retractRecord(writerGuid, false);
            }
            return;
        }
        final View v = view;
        if (java.util.Arrays.binarySearch(retired, writerGuid) < 0 && v != null &&
            v.rankOf(memberOf(writerGuid)) >= 0)
        {
            marked.add(writerGuid); // its retraction is still on its way in dcps
        }
    }

    /**
     * Under {@code this}: on the retirer thread, waits until the channel's local reader windows handed everything
     * offered so far (the writer's samples included) to their readers, then retracts the writer. False if closing.
     */
    private boolean drainThenRetract(final long guid, final Channel channel)
    {
        final ReaderQueue[] windows = channel.readerArray;
        try
        {
            retirer.execute(() ->
            {
                final long deadlineNs = System.nanoTime() + DRAIN_WAIT_NS;
                for (final ReaderQueue window : windows)
                {
                    if (!window.awaitDelivered(Math.max(0, deadlineNs - System.nanoTime())))
                    {
                        LOG.warn("domain {}: topic subgroup {}: reader {} did not take the samples before writer " +
                            "{}'s retraction within {} s; retracting it anyway", domainId, channel.name,
                            String.format("%016x", window.readerGuid()), String.format("%016x", guid),
                            TimeUnit.NANOSECONDS.toSeconds(DRAIN_WAIT_NS));
                    }
                }
                retractRecord(guid, false);
            });
            return true;
        }
        catch (final java.util.concurrent.RejectedExecutionException ex)
        {
            return false;
        }
    }

    /** Retirer thread: a retraction's end mark did not come in time (e.g. trimmed by a view change, never re-sent). */
    private void markMissing(final long guid)
    {
        synchronized (this)
        {
            if (awaitingMark.remove(guid) == null)
            {
                return;
            }
        }
        LOG.warn("domain {}: writer {} was retracted but its end mark did not arrive within {} s; retracting it " +
            "now (samples of it still on their way may be dropped)", domainId, String.format("%016x", guid),
            MARK_WAIT_S);
        retractRecord(guid, false);
    }

    /** Predicate thread: every topic channel delivers the samples it held for writers that are known now. */
    private void releaseHeld()
    {
        for (final Channel channel : channels.values())
        {
            channel.releaseHeld();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Discovery

    @Override
    public void announce(final EndpointRecord record)
    {
        synchronized (this)
        {
            localRecords.put(record.guid(), record);
        }
        offerRecord(record);
        final byte[] message = RecordCodec.announce(record);
        sender.execute(() -> sendDiscovery(message));
    }

    @Override
    public void retract(final long guid)
    {
        // A RELIABLE writer's end mark goes first, in its topic subgroup, so that no member hands the retraction to
        // its DDS layer before the writer's last samples (see the class comment).
        final GroupWriter own = ownWriters.remove(guid);
        final boolean endMarked = own != null && !closed && own.sendEndMark(guid, MARK_SEND_NS);
        synchronized (this)
        {
            localRecords.remove(guid);
        }
        retractRecord(guid, false);
        final byte[] message = endMarked ? RecordCodec.retractAfterMark(guid) : RecordCodec.retract(guid);
        if (!sender.isShutdown())
        {
            sender.execute(() -> sendDiscovery(message));
        }
    }

    private final SlotClaim dcpsClaim = new SlotClaim();

    /** On the discovery sender thread only (it owns {@code dcpsClaim}). */
    private void sendDiscovery(final byte[] message)
    {
        if (closed)
        {
            return;
        }
        final int rc = dcps.claim(message.length, dcpsClaim, TimeUnit.SECONDS.toNanos(5));
        if (rc != ClaimResult.OK)
        {
            LOG.warn("domain {}: discovery message not sent (claim result {}); it is re-sent after the next view " +
                "change", domainId, rc);
            return;
        }
        MemorySegment.copy(message, 0, dcpsClaim.buffer(), ValueLayout.JAVA_BYTE, 0, message.length);
        dcpsClaim.commit();
    }

    private final class DiscoveryChannel implements io.sirocco.multicast.DeliveryHandler
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
                        return; // applied after the writer's end mark (onEndMark)
                    }
                    retractRecord(guid, false);
                    releaseHeld(); // samples held for a writer retracted before its record came go as they always did
                    return;
                }
                final EndpointRecord record = RecordCodec.decode(message);
                if (memberOf(record.participantGuid()) != senderId)
                {
                    LOG.warn("domain {}: member {} announced an entity of another member; ignored", domainId,
                        senderId);
                    return;
                }
                if (offerRecord(record))
                {
                    releaseHeld();
                }
            }
            catch (final IllegalArgumentException ex)
            {
                LOG.warn("domain {}: malformed discovery message from member {} dropped: {}", domainId, senderId,
                    ex.getMessage());
            }
        }
    }

    @Override
    public void onViewInstalled(final View installed, final List<Long> joined, final List<Long> left)
    {
        final List<Long> retracted = new ArrayList<>();
        final List<Long> closedOnes = new ArrayList<>();
        synchronized (this)
        {
            view = installed;
            for (final EndpointRecord record : new ArrayList<>(forwarded.values()))
            {
                if (left.contains(memberOf(record.participantGuid())))
                {
                    // A writer whose retraction waited for its end mark: nothing more comes from its member, and what
                    // came (the view change delivered it before this upcall) goes once the reader windows took it.
                    final Channel waiting = awaitingMark.remove(record.guid());
                    if (waiting == null)
                    {
                        retracted.add(record.guid());
                    }
                    else if (!drainThenRetract(record.guid(), waiting))
                    {
                        closedOnes.add(record.guid());
                    }
                }
            }
            marked.removeIf(guid -> left.contains(memberOf(guid)));
            for (final EndpointRecord record : new ArrayList<>(pending.values()))
            {
                if (left.contains(memberOf(record.participantGuid())))
                {
                    pending.remove(record.guid());
                }
            }
        }
        for (final Long guid : closedOnes)
        {
            retractRecord(guid, false);
        }
        for (final Long guid : retracted)
        {
            retractRecord(guid, true);
        }
        final List<EndpointRecord> retry;
        synchronized (this)
        {
            retry = new ArrayList<>(pending.values());
        }
        boolean writerForwarded = false;
        for (final EndpointRecord record : retry)
        {
            writerForwarded |= offerRecord(record);
        }
        for (final Channel channel : channels.values())
        {
            channel.dropHeldOf(left);
        }
        if (writerForwarded)
        {
            releaseHeld();
        }
        if (!left.isEmpty())
        {
            LOG.info("domain {}: view {}: members {} left", domainId, installed.viewId(), left);
        }
        final List<byte[]> mine = new ArrayList<>();
        synchronized (this)
        {
            for (final EndpointRecord record : localRecords.values())
            {
                mine.add(RecordCodec.announce(record));
            }
        }
        if (!closed && !sender.isShutdown())
        {
            try
            {
                sender.execute(() -> mine.forEach(GroupBus.this::sendDiscovery));
            }
            catch (final java.util.concurrent.RejectedExecutionException ex)
            {
                LOG.debug("domain {}: closing; no re-announcement after view {}", domainId, installed.viewId());
            }
        }
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
        long unacknowledged = 0;
        for (final Channel channel : channels.values())
        {
            synchronized (channel.pendingLock)
            {
                unacknowledged += channel.unconfirmed.size();
            }
        }
        LOG.warn("domain {}: participant {} (member {}) is out of the domain's group: {}; every remote entity is now "
            + "considered gone; {} reliable sample(s) written before are not acknowledged by every member: they are "
            + "re-sent into the view that takes this participant back (it looks for the domain by itself unless "
            + "sirocco.multicast.rejoin=false), so a reader not in that view misses them", domainId,
            String.format("%016x", participantGuid), memberId, reason, unacknowledged);
        final List<Long> remote = new ArrayList<>();
        synchronized (this)
        {
            for (final EndpointRecord record : forwarded.values())
            {
                if (record.participantGuid() != participantGuid)
                {
                    remote.add(record.guid());
                }
            }
            pending.clear();
            awaitingMark.clear();
            marked.clear();
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
     * null-sends in the ORDERED round-robin). A subgroup's role cannot grow later.
     */
    private Channel channel(final String topicName, final boolean reliable, final boolean writing)
    {
        final String name = subgroupName(topicName, reliable);
        synchronized (channels)
        {
            Channel channel = channels.get(name);
            if (channel != null && writing && !channel.subgroup.role().sends())
            {
                throw new UnsupportedOperationException("topic '" + topicName + "': this participant joined " +
                    "subgroup " + name + " as a reader only, and the atomic-multicast layer cannot add the writer " +
                    "role later; create the DataWriter before the DataReader in one participant, or use two " +
                    "participants");
            }
            if (channel == null)
            {
                final SubgroupSpec spec = new SubgroupSpec(name, reliable ? DeliveryMode.ORDERED :
                    DeliveryMode.UNORDERED_LOSSY, config.windowSlots(), Math.max(HEADER + 64,
                    HEADER + config.slotBytes()), 16 << 20);
                channel = new Channel(name, reliable, spec.slotSizeBytes());
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
            config.slotBytes(), handler);
        final io.sirocco.multicast.predicate.PredicateEngine engine = group.predicateEngine();
        queue.onRoom(engine::wake);
        final List<Channel> joined = new ArrayList<>(2);
        joined.add(channel(topicName, true, false));
        if (!reliable)
        {
            joined.add(channel(topicName, false, false));
        }
        for (final Channel channel : joined)
        {
            channel.readers.add(queue);
            channel.readerArray = channel.readers.toArray(new ReaderQueue[0]);
        }
        return () ->
        {
            for (final Channel channel : joined)
            {
                channel.readers.remove(queue);
                channel.readerArray = channel.readers.toArray(new ReaderQueue[0]);
            }
            queue.close();
            engine.wake(); // a delivery stopped at this reader's full window may go on without it
        };
    }

    /** One topic subgroup as this member sees it: its local reader windows and its delivery upcall. */
    final class Channel implements io.sirocco.multicast.DeliveryHandler
    {
        final String name;
        final boolean ordered;
        final CopyOnWriteArrayList<ReaderQueue> readers = new CopyOnWriteArrayList<>();
        /** Snapshot of {@code readers} for the predicate thread: replaced on every change, read without iterators. */
        volatile ReaderQueue[] readerArray = new ReaderQueue[0];
        private final BusMessage scratch = new BusMessage(2048);
        /** Predicate thread only: the windows offered to in the current delivery batch. */
        private ReaderQueue[] touched = new ReaderQueue[4];
        private int touchedCount;
        volatile Subgroup subgroup;
        volatile long sent;
        volatile long deliveredOwn;
        /**
         * RELIABLE only: copies of this member's messages not yet delivered back to it, oldest first. In ORDERED mode
         * a member delivers its own message exactly when every member of the view does, so what is still here when
         * a new view is installed was removed by the view change's ragged trim and is sent again (readers drop
         * duplicates by writer sequence number). Guarded by {@code pendingLock}; the pool bounds allocation.
         */
        final java.util.ArrayDeque<byte[]> unconfirmed = new java.util.ArrayDeque<>();
        final java.util.ArrayDeque<byte[]> pool = new java.util.ArrayDeque<>();
        final Object pendingLock = new Object();
        /** The subgroup's slot size: a message up to this long (header included) is sent in a slot, not in bulk. */
        final int slotBytes;
        /**
         * Predicate thread only: copies of samples (header and payload) from writers whose records this member has not
         * handed to the DDS layer yet, oldest first. The topic subgroup is not ordered with {@code dcps}, so a writer's
         * first samples, or the end-of-history mark it replays to a TRANSIENT_LOCAL reader, can arrive before its
         * record; a reader would drop them (no matched writer), and a TRANSIENT_LOCAL one would then wait for a mark
         * that has gone by and drop the whole stream. They are delivered, in order, once the record is known.
         */
        private final java.util.ArrayDeque<byte[]> held = new java.util.ArrayDeque<>();
        /** Predicate thread only: the last writer found deliverable (0: none), at {@code lastKnownVersion}. */
        private long lastKnownWriter;
        private int lastKnownVersion = -1;
        /** Predicate thread only: the {@code writersVersion} that {@code held} was last released against. */
        private int releasedVersion = -1;
        private boolean heldOverflowLogged;

        Channel(final String name, final boolean ordered, final int slotBytes)
        {
            this.name = name;
            this.ordered = ordered;
            this.slotBytes = slotBytes;
        }

        /** Whether the caller is the group's predicate thread (an inline listener). */
        boolean onPredicateThread()
        {
            return group.predicateEngine().onEngineThread();
        }

        @Override
        public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
            final MemorySegment payload, final int length)
        {
            if (senderId == memberId)
            {
                deliveredOwn++;
                if (ordered)
                {
                    synchronized (pendingLock)
                    {
                        final byte[] done = unconfirmed.pollFirst();
                        if (done != null)
                        {
                            pool.addLast(done);
                        }
                    }
                }
            }
            if (length < HEADER)
            {
                return;
            }
            if (payload.get(ValueLayout.JAVA_INT_UNALIGNED, 0) == BusMessage.KIND_WRITER_END)
            {
                if (senderId != memberId)
                {
                    onEndMark(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 8), this);
                }
                return; // never a reader's: it only releases the writer's retraction
            }
            if (readerArray.length == 0)
            {
                return;
            }
            if (!held.isEmpty() && releasedVersion != writersVersion)
            {
                releaseKnown();
            }
            final long writerGuid = payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
            // The version is read before the tables (they are published before it is bumped): a writer retracted
            // since the last look is looked up again, not waved through by the cache.
            final int version = writersVersion;
            if (writerGuid != lastKnownWriter || version != lastKnownVersion)
            {
                if (!deliverable(knownWriters, retired, writerGuid))
                {
                    hold(payload, length, writerGuid);
                    return;
                }
                lastKnownWriter = writerGuid;
                lastKnownVersion = version;
            }
            deliver(senderId, payload, length);
        }

        /** Predicate thread: keeps a copy of a sample whose writer is not known yet (bounded: oldest dropped). */
        private void hold(final MemorySegment payload, final int length, final long writerGuid)
        {
            if (held.size() >= MAX_HELD)
            {
                held.pollFirst();
                if (!heldOverflowLogged)
                {
                    heldOverflowLogged = true;
                    LOG.warn("domain {}: topic subgroup {}: more than {} samples from writers not discovered yet " +
                        "(latest {}); the oldest are dropped", domainId, name, MAX_HELD, String.format("%016x",
                        writerGuid));
                }
            }
            held.addLast(payload.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
        }

        /**
         * Predicate thread, inside a delivery batch: delivers the held samples of writers known (or retracted) now, in
         * order; the others stay held.
         */
        private void releaseKnown()
        {
            releasedVersion = writersVersion;
            final long[] known = knownWriters;
            final long[] gone = retired;
            for (int n = held.size(); n > 0; n--)
            {
                final byte[] message = held.pollFirst();
                final MemorySegment segment = MemorySegment.ofArray(message);
                if (deliverable(known, gone, segment.get(ValueLayout.JAVA_LONG_UNALIGNED, 8)))
                {
                    deliver(0, segment, message.length);
                }
                else
                {
                    held.addLast(message);
                }
            }
        }

        /** Predicate thread, outside a delivery batch (a writer's record just arrived): releases and ends the batch. */
        void releaseHeld()
        {
            if (!held.isEmpty())
            {
                releaseKnown();
                onBatchEnd(0);
            }
        }

        /** Predicate thread: forgets the held samples of members that left the view (their records never come). */
        void dropHeldOf(final List<Long> leftMembers)
        {
            if (!held.isEmpty() && !leftMembers.isEmpty())
            {
                held.removeIf(m -> leftMembers.contains(
                    memberOf(MemorySegment.ofArray(m).get(ValueLayout.JAVA_LONG_UNALIGNED, 8))));
            }
        }

        /** Predicate thread: copies one sample into the local reader windows it is for. */
        private void deliver(final long senderId, final MemorySegment payload, final int length)
        {
            final int payloadLength = payload.get(ValueLayout.JAVA_INT_UNALIGNED, 4);
            if (payloadLength < 0 || payloadLength > length - HEADER)
            {
                LOG.warn("topic subgroup {}: malformed sample from member {} dropped", name, senderId);
                return;
            }
            scratch.kind(payload.get(ValueLayout.JAVA_INT_UNALIGNED, 0))
                .writerGuid(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 8))
                .seq(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 16))
                .sourceTimeNs(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 24))
                .keyHash(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 32),
                    payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 40));
            final long target = payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 48);
            scratch.ensureCapacity(payloadLength);
            MemorySegment.copy(payload, HEADER, scratch.payloadSegment(), 0, payloadLength);
            scratch.payloadLength(payloadLength);
            final ReaderQueue[] current = readerArray;
            for (int i = 0; i < current.length; i++)
            {
                final ReaderQueue reader = current[i];
                if (target != 0 && target != reader.readerGuid())
                {
                    continue;
                }
                if (ordered && reader.reliable())
                {
                    // canAccept() saw room; only a view change's trim delivers past a full window (overflow).
                    reader.acceptInBatch(scratch);
                }
                else
                {
                    reader.offerInBatch(scratch, false, 0);
                }
                touch(reader);
            }
        }

        /**
         * Predicate thread, before each message of this ORDERED subgroup: false while a local RELIABLE reader's window
         * is full, which stops delivery there (the writers back-pressure) until that reader's delivery thread frees a
         * slot and rings the doorbell. Asked for every message, even one targeted at another reader: a short delay
         * for that one, never a loss or a reordering.
         */
        @Override
        public boolean canAccept()
        {
            if (!ordered)
            {
                return true;
            }
            final ReaderQueue[] current = readerArray;
            for (int i = 0; i < current.length; i++)
            {
                if (current[i].reliable() && !current[i].acceptsNow())
                {
                    return false;
                }
            }
            return true;
        }

        /** Predicate thread: remembers a window offered to in this delivery batch (even if it is closed meanwhile). */
        private void touch(final ReaderQueue reader)
        {
            for (int i = 0; i < touchedCount; i++)
            {
                if (touched[i] == reader)
                {
                    return;
                }
            }
            if (touchedCount == touched.length)
            {
                touched = java.util.Arrays.copyOf(touched, touchedCount * 2);
            }
            touched[touchedCount++] = reader;
        }

        @Override
        public void onBatchEnd(final int messages)
        {
            for (int i = 0; i < touchedCount; i++)
            {
                touched[i].endBatch();
                touched[i] = null;
            }
            touchedCount = 0;
        }

        @Override
        public void onLost(final long senderId, final long count)
        {
            for (final ReaderQueue reader : readers)
            {
                reader.addLost((int)Math.min(Integer.MAX_VALUE, count));
            }
        }
    }

    /**
     * A DataWriter's sender on its subgroup: one SlotClaim, used under the DataWriter's lock.
     *
     * <p><b>Send lock.</b> {@code sendLock} orders this writer's sends against {@link #awaitDelivered}'s re-send
     * after a view change (uncontended otherwise: the DataWriter's lock already serializes writes). An in-place send
     * holds it from {@link #claim} to {@link #commitClaim}/{@link #abortClaim}, the same span in which the subgroup
     * engine holds its sender lock, so a re-send can never slip between a claimed slot and its commit.
     */
    private static final class GroupWriter implements BusWriter
    {
        private final Channel channel;
        private final boolean reliable;
        private final long writerGuid;
        private final Map<Long, GroupWriter> registry;
        private final SlotClaim claim = new SlotClaim();
        private final java.util.concurrent.locks.ReentrantLock sendLock =
            new java.util.concurrent.locks.ReentrantLock();
        private Object lastEngine;

        GroupWriter(final Channel channel, final boolean reliable, final long writerGuid,
            final Map<Long, GroupWriter> registry)
        {
            this.channel = channel;
            this.reliable = reliable;
            this.writerGuid = writerGuid;
            this.registry = registry;
        }

        /**
         * The writer is closing: sends its end mark after its last sample (once, not per sample). False when it could
         * not be sent (no view holds the subgroup yet, or no room in time): the retraction is then a plain one.
         */
        boolean sendEndMark(final long guid, final long timeoutNs)
        {
            if (!reliable)
            {
                return false;
            }
            final BusMessage mark = new BusMessage(16).kind(BusMessage.KIND_WRITER_END).writerGuid(guid).seq(0)
                .payloadLength(0);
            return sendMessage(mark, 0, timeoutNs) == SENT;
        }

        /**
         * Under {@code sendLock}: the engine of the current view, after re-sending what a view change trimmed since
         * the last send; {@code null} when no view holds the subgroup yet (no reader can be matched: nothing to
         * send); {@link #RESEND_FAILED} when the re-send timed out.
         */
        private Object currentEngine(final Subgroup subgroup, final long timeoutNs)
        {
            final Object engine = subgroup.currentEngine();
            if (engine != null && reliable && engine != lastEngine)
            {
                if (lastEngine != null && !resendTrimmed(subgroup, timeoutNs))
                {
                    return RESEND_FAILED;
                }
                lastEngine = engine;
            }
            return engine;
        }

        private static final Object RESEND_FAILED = new Object();

        /**
         * A write from a listener running on the predicate thread must not wait for room: only that thread can make
         * room (its delivery trigger), so it fails at once and the writer reports the timeout.
         */
        private long claimTimeout(final long timeoutNs)
        {
            return channel.onPredicateThread() ? 0 : timeoutNs;
        }

        private static final int SENT = 1;
        private static final int NO_VIEW = 0;
        private static final int FAILED = -1;

        private boolean send(final BusMessage message, final long target, final long timeoutNs)
        {
            return sendMessage(message, target, timeoutNs) != FAILED;
        }

        /** {@link #SENT}; {@link #NO_VIEW} when no view holds the subgroup (no reader can be matched); or FAILED. */
        private int sendMessage(final BusMessage message, final long target, final long timeoutNs)
        {
            sendLock.lock();
            try
            {
                final int length = HEADER + message.payloadLength();
                final Subgroup subgroup = channel.subgroup;
                final Object engine = currentEngine(subgroup, timeoutNs);
                if (engine == null)
                {
                    return NO_VIEW;
                }
                if (engine == RESEND_FAILED)
                {
                    return FAILED;
                }
                final int rc = subgroup.claim(length, claim, claimTimeout(timeoutNs));
                if (rc != ClaimResult.OK)
                {
                    if (rc == ClaimResult.TOO_LARGE)
                    {
                        throw new IllegalArgumentException("sample of " + message.payloadLength() + " bytes exceeds " +
                            "the largest message of topic subgroup " + channel.name);
                    }
                    return FAILED;
                }
                final MemorySegment buffer = claim.buffer();
                writeHeader(buffer, message, message.payloadLength(), target);
                MemorySegment.copy(message.payloadSegment(), 0, buffer, HEADER, message.payloadLength());
                if (reliable)
                {
                    remember(buffer, length);
                }
                claim.commit();
                channel.sent++;
                return SENT;
            }
            finally
            {
                sendLock.unlock();
            }
        }

        private static void writeHeader(final MemorySegment buffer, final BusMessage message, final int payloadLength,
            final long target)
        {
            buffer.set(ValueLayout.JAVA_INT_UNALIGNED, 0, message.kind());
            buffer.set(ValueLayout.JAVA_INT_UNALIGNED, 4, payloadLength);
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, message.writerGuid());
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 16, message.seq());
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 24, message.sourceTimeNs());
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 32, message.keyHashHi());
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 40, message.keyHashLo());
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 48, target);
        }

        /**
         * Claims a slot for a payload of up to {@code maxPayload} bytes; only slot-sized messages are claimed in
         * place (a larger one goes through {@link #publish} and the bulk region). On {@link #CLAIMED} both this
         * writer's send lock and the subgroup's sender lock stay held until {@link #commitClaim}/{@link #abortClaim}.
         */
        @Override
        public int claim(final int maxPayload, final long timeoutNs)
        {
            if (maxPayload < 0 || maxPayload > channel.slotBytes - HEADER)
            {
                return NOT_IN_PLACE;
            }
            sendLock.lock();
            final Subgroup subgroup = channel.subgroup;
            final Object engine = currentEngine(subgroup, timeoutNs);
            if (engine == null)
            {
                sendLock.unlock();
                return NOT_IN_PLACE;
            }
            if (engine == RESEND_FAILED)
            {
                sendLock.unlock();
                return TIMED_OUT;
            }
            final int rc;
            try
            {
                rc = subgroup.claim(HEADER + maxPayload, claim, claimTimeout(timeoutNs));
            }
            catch (final RuntimeException ex)
            {
                // E.g. this thread already holds an open claim of the subgroup (a loan of another writer).
                sendLock.unlock();
                throw ex;
            }
            if (rc == ClaimResult.OK)
            {
                return CLAIMED;
            }
            sendLock.unlock();
            return rc == ClaimResult.BACK_PRESSURED || rc == ClaimResult.VIEW_CHANGING ? TIMED_OUT : NOT_IN_PLACE;
        }

        @Override
        public MemorySegment claimedBuffer()
        {
            return claim.buffer();
        }

        @Override
        public int claimedOffset()
        {
            return HEADER;
        }

        @Override
        public void commitClaim(final BusMessage header, final int payloadLength)
        {
            if (!sendLock.isHeldByCurrentThread())
            {
                throw new IllegalStateException("topic subgroup " + channel.name + ": commit without a claim");
            }
            try
            {
                final MemorySegment buffer = claim.buffer();
                final int length = HEADER + payloadLength;
                writeHeader(buffer, header, payloadLength, 0);
                if (reliable)
                {
                    remember(buffer, length);
                }
                claim.commit(length);
                channel.sent++;
            }
            finally
            {
                sendLock.unlock();
            }
        }

        @Override
        public void abortClaim()
        {
            if (!sendLock.isHeldByCurrentThread())
            {
                throw new IllegalStateException("topic subgroup " + channel.name + ": abort without a claim");
            }
            try
            {
                claim.abort();
            }
            finally
            {
                sendLock.unlock();
            }
        }

        private void remember(final MemorySegment buffer, final int length)
        {
            synchronized (channel.pendingLock)
            {
                byte[] copy = channel.pool.pollFirst();
                if (copy == null || copy.length != length)
                {
                    copy = new byte[length];
                }
                MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, copy, 0, length);
                channel.unconfirmed.addLast(copy);
            }
        }

        /**
         * While waiting for acknowledgments: a view installed since the last send trimmed what is still unconfirmed,
         * and no further write may come to re-send it, so re-send it here (else the wait could only time out).
         */
        private void resendAfterViewChange(final long timeoutNs)
        {
            sendLock.lock();
            try
            {
                final Subgroup subgroup = channel.subgroup;
                final Object engine = subgroup.currentEngine();
                if (engine != null && engine != lastEngine && lastEngine != null && resendTrimmed(subgroup, timeoutNs))
                {
                    lastEngine = engine;
                }
            }
            finally
            {
                sendLock.unlock();
            }
        }

        /** A view changed since the last send: send again, in order, what the old view's trim dropped. */
        private boolean resendTrimmed(final Subgroup subgroup, final long timeoutNs)
        {
            final List<byte[]> trimmed;
            synchronized (channel.pendingLock)
            {
                trimmed = new ArrayList<>(channel.unconfirmed);
                channel.unconfirmed.clear();
            }
            if (!trimmed.isEmpty())
            {
                LOG.info("topic subgroup {}: re-sending {} message(s) removed by a view change", channel.name,
                    trimmed.size());
            }
            for (final byte[] message : trimmed)
            {
                final int rc = subgroup.claim(message.length, claim, timeoutNs);
                if (rc != ClaimResult.OK)
                {
                    synchronized (channel.pendingLock)
                    {
                        channel.unconfirmed.addAll(trimmed.subList(trimmed.indexOf(message), trimmed.size()));
                    }
                    return false;
                }
                MemorySegment.copy(message, 0, claim.buffer(), ValueLayout.JAVA_BYTE, 0, message.length);
                remember(claim.buffer(), message.length);
                claim.commit();
            }
            return true;
        }

        @Override
        public boolean publish(final BusMessage message, final long timeoutNs)
        {
            return send(message, 0, timeoutNs);
        }

        @Override
        public boolean sendDirected(final long readerGuid, final BusMessage message, final long timeoutNs)
        {
            return send(message, readerGuid, timeoutNs);
        }

        @Override
        public boolean awaitDelivered(final long timeoutNs)
        {
            if (!reliable)
            {
                return true;
            }
            final long target = channel.sent;
            final long deadlineNs = System.nanoTime() + Math.min(timeoutNs, Long.MAX_VALUE / 4);
            while (channel.deliveredOwn < target)
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    return false;
                }
                resendAfterViewChange(Math.max(0, deadlineNs - System.nanoTime()));
                java.util.concurrent.locks.LockSupport.parkNanos(50_000);
            }
            return true;
        }

        @Override
        public void close()
        {
            registry.remove(writerGuid, this);
        }
    }

    @Override
    public void close()
    {
        final List<Long> mine;
        synchronized (this)
        {
            mine = new ArrayList<>(localRecords.keySet());
        }
        for (final Long guid : mine)
        {
            retract(guid);
        }
        sender.shutdown();
        try
        {
            sender.awaitTermination(2, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        closed = true;
        retirer.shutdownNow();
        group.close();
        LOG.info("domain {}: member {} left group '{}'", domainId, memberId, groupName);
    }
}
