package io.sirocco.multicast.contact;

import io.sirocco.multicast.Member;
import io.sirocco.multicast.View;
import io.sirocco.multicast.view.LocalRegistry;
import io.sirocco.multicast.view.MembershipRegistry;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A membership registry that needs no shared filesystem: every member keeps a replica ({@link LocalRegistry}) and
 * serves it on a messaging-transport endpoint of its own ({@code host:port}, carried in its {@link Member} record as
 * {@link Member#contact()}); replicas are kept current by {@link RegistryMessage}s.
 *
 * <p><b>Contact protocol.</b>
 * <ol>
 *   <li>A member outside any view sends, every beacon period, a HELLO (asking for a reply) and its ANNOUNCE with the
 *       RELAY flag to every contact it knows: the static peers ({@code SIROCCO_DDS_PEERS}) and every member heard by UDP
 *       multicast beacon or hello.</li>
 *   <li>A contact stores the announcement and, since it is flagged RELAY, forwards it (unflagged) to every member of
 *       its latest view. The leader thus sees the joiner in {@link #announced()} at its next registry poll and adds it
 *       with a view change, like any other joiner.</li>
 *   <li>Registry writes of members go straight to the members of the latest view (and, for a published view, to
 *       that view's members too, so a joiner receives the proposal and the installed view that contain it).</li>
 *   <li>No group anywhere: a member that may form one (it is a listed peer itself, or discovers by multicast) forms
 *       view 1 after {@link ContactSettings#discoveryWaitMs()} if no member it heard is in a view and none that may
 *       form has a lower member id ({@link #formsGroup()}).</li>
 *   <li>Merge: a member in a view greets its contacts once a second (a HELLO carrying its group's
 *       {@link GroupIdentity}; beacons carry it too). A member that keeps hearing, for
 *       {@link ContactSettings#mergeDelayMs()}, a member of another group of its name that survives over its own
 *       ({@link GroupIdentity#survivesOver}) is told so by {@link #survivingGroup(View)}; its group then leaves and
 *       {@link #rediscover()} sends its announcements only to that group's members until it is in a view again.</li>
 * </ol>
 *
 * <p>Threads: the replica is synchronized; the table of heard members is a concurrent map written by the handler and
 * beacon threads; every send runs on one outbox thread, in call order, so callers (the predicate thread during a view
 * change) never block on a connect. Received messages are applied on the endpoint's single handler thread.
 */
public final class NetRegistry implements MembershipRegistry
{
    private static final Logger LOG = LoggerFactory.getLogger(NetRegistry.class);

    private final String groupName;
    private final long memberId;
    private final ContactSettings settings;
    private final LocalRegistry replica = new LocalRegistry();
    private final MessagingService service;
    private final String contact;
    private final List<Integer> staticPeerNodes = new ArrayList<>();
    private final boolean mayForm;
    private final BeaconChannel beacons;
    private final ExecutorService outbox;
    private final Thread ticker;
    /** Start of the current discovery wait: construction, then each {@link #rediscover()}. */
    private volatile long lookStartNs = System.nanoTime();
    private final Map<Long, Peer> heard = new ConcurrentHashMap<>();
    /** Nodes a send just failed to (outbox thread writes, ticker reads): greetings skip them until then. */
    private final Map<Integer, Long> unreachableUntilNs = new ConcurrentHashMap<>();
    private static final long UNREACHABLE_BACKOFF_NS = TimeUnit.SECONDS.toNanos(3);
    /** Leader id of the group this member leaves its own for (0: none), chosen by {@link #survivingGroup(View)}. */
    private volatile long chosenSurvivor;
    /** While rediscovering towards a survivor: its leader id (0: none) and until when announcements go only there. */
    private volatile long mergeTarget;
    private volatile long mergeTargetUntilNs;
    private volatile Member own;
    private volatile boolean closed;

    /**
     * A member this one heard from (hello or beacon).
     *
     * @param group        its group's identity (null: outside any view, or an older member that sends none).
     * @param groupSinceNs since when it has been heard with this identity (the merge delay counts from here).
     */
    private record Peer(long memberId, String contact, boolean inView, boolean mayForm, long heardNs,
        GroupIdentity group, long groupSinceNs)
    {
    }

    /** Handler and beacon threads: records a peer, keeping the time since which its group identity is unchanged. */
    private void hear(final long id, final String hostPort, final boolean inView, final boolean peerMayForm,
        final GroupIdentity group)
    {
        final long now = System.nanoTime();
        heard.compute(id, (k, old) -> new Peer(id, hostPort, inView, peerMayForm, now, group,
            old != null && java.util.Objects.equals(old.group(), group) ? old.groupSinceNs() : now));
    }

    /**
     * Starts the endpoint (and the beacons when configured) and begins looking for the group.
     *
     * @param groupName the group.
     * @param memberId  this member's id.
     * @param settings  endpoint and discovery settings.
     */
    public NetRegistry(final String groupName, final long memberId, final ContactSettings settings)
    {
        this.groupName = groupName;
        this.memberId = memberId;
        this.settings = settings;
        this.outbox = Executors.newSingleThreadExecutor(r ->
            Thread.ofPlatform().daemon().name("sirocco-registry-out-" + groupName).unstarted(r));
        final String host = canonicalHost(settings.bindHost());
        String chosen = host + ":" + settings.port();
        MessagingService started;
        try
        {
            started = startEndpoint(host, settings.port());
        }
        catch (final IllegalStateException ex)
        {
            if (settings.port() == 0)
            {
                throw new IllegalStateException("group '" + groupName + "': cannot start the registry endpoint on "
                    + host + ": " + ex.getMessage(), ex);
            }
            final int port = freePort(host);
            LOG.info("group '{}': registry port {} is taken (another member on this host holds it: {}); listening "
                + "on {}:{} instead, so reach this member through that one", groupName, chosen, ex.getMessage(), host,
                port);
            chosen = host + ":" + port;
            started = startEndpoint(host, port);
        }
        this.service = started;
        this.contact = chosen;
        boolean listed = false;
        for (final InetSocketAddress peer : settings.peers())
        {
            final String key = canonical(peer);
            if (key.equals(contact))
            {
                listed = true;
                continue;
            }
            final int node = nodeOf(key);
            service.addressMap().put(node, peer);
            if (!staticPeerNodes.contains(node))
            {
                staticPeerNodes.add(node);
            }
        }
        BeaconChannel b = null;
        if (settings.multicast())
        {
            try
            {
                b = new BeaconChannel(groupName, settings.bindHost(), settings.multicastGroup(),
                    settings.multicastPort(), this::onBeacon);
            }
            catch (final java.io.IOException | RuntimeException ex)
            {
                LOG.warn("group '{}': UDP multicast discovery FAILED on {} ({}:{}): {}; FALLING BACK to the static "
                    + "peers {}", groupName, settings.bindHost(), settings.multicastGroup(), settings.multicastPort(),
                    ex.toString(), settings.peers().isEmpty() ? "(none: this member can only form its own group)"
                    : settings.peers());
            }
        }
        this.beacons = b;
        this.mayForm = beacons != null || listed || settings.peers().isEmpty();
        LOG.info("group '{}': member {} serves its membership registry on {}; static peers {}{}; multicast {}; "
            + "may form the group: {}", groupName, memberId, contact, settings.peers(), listed ? " (this member is "
            + "one of them)" : "", beacons != null ? settings.multicastGroup() + ":" + settings.multicastPort() : "off",
            mayForm);
        service.register(RegistryMessage.TYPE, RegistryMessage.SUBTYPE, RegistryMessage::new, this::onMessage);
        this.ticker = Thread.ofPlatform().daemon().name("sirocco-registry-tick-" + groupName).start(this::tick);
    }

    private MessagingService startEndpoint(final String host, final int port)
    {
        final int node = nodeOf(host + ":" + port);
        final TransportContext ctx = new TransportContext().ownNodeId(node).transport("nio").handlerThreads(1)
            .connectTimeoutMs(1000).ringBufferBytes(1 << 18).flowControlWindowBytes(1 << 17);
        ctx.addressMap().put(node, host, port);
        return MessagingService.start(ctx);
    }

    private static int freePort(final String host)
    {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getByName(host)))
        {
            return s.getLocalPort();
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException("cannot find a free port on " + host, ex);
        }
    }

    private static String canonicalHost(final String host)
    {
        try
        {
            return InetAddress.getByName(host).getHostAddress();
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("registry address '" + host + "' does not resolve", ex);
        }
    }

    private static String canonical(final InetSocketAddress address)
    {
        final String host = address.getAddress() != null ? address.getAddress().getHostAddress()
            : canonicalHost(address.getHostString());
        return host + ":" + address.getPort();
    }

    /**
     * The messaging node id of a registry endpoint, derived from its canonical {@code ip:port} so that a static
     * peer's id is known before it answers and every pair of members shares exactly one connection per direction.
     * Ids collide with probability ~n^2/130000 for n endpoints; a collision is detected and logged.
     */
    static int nodeOf(final String contact)
    {
        final java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(contact.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return (int)(crc.getValue() % 65_000) + 1;
    }

    /** @return the endpoint this registry listens on ({@code host:port}). */
    @Override
    public String contactAddress()
    {
        return contact;
    }

    private boolean inView()
    {
        return replica.latestContaining(memberId).isPresent();
    }

    /** @return the identity of the group of the latest view containing this member, or null outside any. */
    private GroupIdentity ownGroup()
    {
        return replica.latestContaining(memberId).map(GroupIdentity::of).orElse(null);
    }

    private boolean mergeTargetActive()
    {
        return mergeTarget != 0 && System.nanoTime() - mergeTargetUntilNs < 0;
    }

    // ------------------------------------------------------------------------------------------------------------
    // MembershipRegistry

    @Override
    public void announce(final Member member)
    {
        replica.announce(member);
        if (member.memberId() != memberId)
        {
            return;
        }
        own = member;
        final String body = member.encode();
        if (inView())
        {
            sendToMembers(RegistryMessage.ANNOUNCE, 0, body, viewMembers(null));
        }
        else
        {
            sendToContacts(RegistryMessage.ANNOUNCE, RegistryMessage.RELAY, body);
        }
    }

    @Override
    public void withdraw(final long id)
    {
        final Set<Member> to = viewMembers(null);
        replica.withdraw(id);
        sendToMembers(RegistryMessage.WITHDRAW, 0, Long.toString(id), to);
    }

    /**
     * The announced members, minus those heard lately as members of another group of this name: a member's old
     * announcement (sent while it was looking for a group) must not make this group's leader add it while it runs
     * in the other group; the merge brings the groups together instead.
     */
    @Override
    public List<Member> announced()
    {
        final List<Member> all = replica.announced();
        final View latest = replica.latestContaining(memberId).orElse(null);
        if (latest == null)
        {
            return all;
        }
        final GroupIdentity mine = GroupIdentity.of(latest);
        final long now = System.nanoTime();
        final long freshNs = TimeUnit.MILLISECONDS.toNanos(Math.max(5 * settings.beaconPeriodMs(),
            settings.discoveryWaitMs()));
        all.removeIf(member ->
        {
            final Peer p = heard.get(member.memberId());
            return p != null && p.group() != null && now - p.heardNs() <= freshNs
                && p.group().leaderId() != mine.leaderId() && latest.rankOf(member.memberId()) < 0;
        });
        return all;
    }

    @Override
    public void publish(final String key, final View view)
    {
        final Set<Member> to = viewMembers(view);
        replica.publish(key, view);
        sendToMembers(RegistryMessage.PUBLISH, 0, key + "\n" + view.encode(), to);
    }

    @Override
    public Optional<View> read(final String key)
    {
        return replica.read(key);
    }

    @Override
    public Optional<View> latestContaining(final long id)
    {
        return replica.latestContaining(id);
    }

    @Override
    public boolean formsGroup()
    {
        if (!mayForm || inView() || mergeTargetActive() || System.nanoTime() - lookStartNs
            < TimeUnit.MILLISECONDS.toNanos(settings.discoveryWaitMs()))
        {
            return false;
        }
        final long now = System.nanoTime();
        final long freshNs = TimeUnit.MILLISECONDS.toNanos(Math.max(5 * settings.beaconPeriodMs(),
            settings.discoveryWaitMs()));
        for (final Peer p : heard.values())
        {
            if (now - p.heardNs() > freshNs)
            {
                continue;
            }
            if (p.inView())
            {
                LOG.debug("group '{}': member {} runs the group; waiting to be added", groupName, p.memberId());
                return false;
            }
            if (p.mayForm() && p.memberId() < memberId)
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public Optional<String> survivingGroup(final View current)
    {
        final GroupIdentity mine = GroupIdentity.of(current);
        final long now = System.nanoTime();
        final long freshNs = TimeUnit.MILLISECONDS.toNanos(Math.max(5 * settings.beaconPeriodMs(),
            settings.discoveryWaitMs()));
        final long delayNs = TimeUnit.MILLISECONDS.toNanos(settings.mergeDelayMs());
        Peer best = null;
        for (final Peer p : heard.values())
        {
            if (p.group() == null || !p.inView() || now - p.heardNs() > freshNs || now - p.groupSinceNs() < delayNs
                || current.rankOf(p.memberId()) >= 0 || !p.group().survivesOver(mine))
            {
                continue;
            }
            if (best == null || p.group().survivesOver(best.group()))
            {
                best = p;
            }
        }
        if (best == null)
        {
            return Optional.empty();
        }
        chosenSurvivor = best.group().leaderId();
        return Optional.of("the group of " + best.group().size() + " member(s) led by member "
            + best.group().leaderId() + " (heard from member " + best.memberId() + " at " + best.contact()
            + "; this group: " + mine.size() + " member(s) led by member " + mine.leaderId() + ")");
    }

    /**
     * True once another member of {@code view} was heard, since the last {@link #rediscover()}, greeting as a member
     * of exactly that group (same size and rank-0 member): its members installed it. A view published long ago (a
     * late message, or one re-published by a member that is itself out) is not taken, which would put this member in
     * a view nobody runs.
     */
    @Override
    public boolean runsNow(final View view)
    {
        final GroupIdentity identity = GroupIdentity.of(view);
        final long since = lookStartNs;
        for (final Peer p : heard.values())
        {
            if (p.memberId() != memberId && view.rankOf(p.memberId()) >= 0 && p.heardNs() - since >= 0
                && p.inView() && identity.equals(p.group()))
            {
                return true;
            }
        }
        return view.members().size() == 1;
    }

    @Override
    public void rediscover()
    {
        replica.forgetViews();
        final long now = System.nanoTime();
        lookStartNs = now;
        final long survivor = chosenSurvivor;
        chosenSurvivor = 0;
        mergeTargetUntilNs = now + TimeUnit.MILLISECONDS.toNanos(Math.max(10_000,
            4 * (settings.discoveryWaitMs() + settings.mergeDelayMs())));
        mergeTarget = survivor;
        LOG.info("group '{}': member {} looks for the group again{}", groupName, memberId, survivor == 0
            ? " through its contacts" : ", announcing itself only to the group led by member " + survivor);
        final Member self = own;
        if (self != null)
        {
            sendToContacts(RegistryMessage.ANNOUNCE, RegistryMessage.RELAY, self.encode());
        }
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        ticker.interrupt();
        if (beacons != null)
        {
            beacons.close();
        }
        outbox.shutdown();
        try
        {
            outbox.awaitTermination(2, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        service.close();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Sending

    /** Members of the latest view containing this member, plus those of {@code also}, minus this member. */
    private Set<Member> viewMembers(final View also)
    {
        final Set<Member> to = new LinkedHashSet<>();
        replica.latestContaining(memberId).ifPresent(v -> to.addAll(v.members()));
        if (also != null)
        {
            to.addAll(also.members());
        }
        to.removeIf(m -> m.memberId() == memberId);
        return to;
    }

    private int flags(final int extra)
    {
        return extra | (inView() ? RegistryMessage.IN_VIEW : 0) | (mayForm ? RegistryMessage.MAY_FORM : 0);
    }

    private void sendToMembers(final byte kind, final int flags, final String body, final Set<Member> to)
    {
        if (to.isEmpty())
        {
            return;
        }
        final RegistryMessage m = RegistryMessage.of(kind, flags(flags), memberId, groupName, contact, body);
        for (final Member member : to)
        {
            if (member.contact().isEmpty())
            {
                LOG.warn("group '{}': member {} has no registry address; registry update not sent to it", groupName,
                    member.memberId());
                continue;
            }
            final int node = nodeOf(member.contact());
            learn(node, member.contact());
            submit(m, node);
        }
    }

    /**
     * To the static peers and every member heard; while rediscovering towards a merge survivor, only to the members
     * heard in that group (the old group's members would add this member back).
     */
    private void sendToContacts(final byte kind, final int flags, final String body)
    {
        final boolean towardsSurvivor = mergeTargetActive();
        final long target = mergeTarget;
        final Set<Integer> nodes = new LinkedHashSet<>(towardsSurvivor ? List.of() : staticPeerNodes);
        for (final Peer p : heard.values())
        {
            if (!towardsSurvivor || (p.group() != null && p.group().leaderId() == target))
            {
                nodes.add(nodeOf(p.contact()));
            }
        }
        final long now = System.nanoTime();
        for (final int node : nodes)
        {
            final Long until = unreachableUntilNs.get(node);
            if (until != null && until - now > 0)
            {
                continue;
            }
            // Built when sent, not now: a greeting that waited in the outbox must not claim this member is outside
            // any view when it is in one by then (the receiver would add it to its own group from that).
            submit(() ->
            {
                final Long failed = unreachableUntilNs.get(node);
                if ((failed != null && failed - System.nanoTime() > 0)
                    || (kind == RegistryMessage.ANNOUNCE && inView()))
                {
                    // Also checked here: greetings queued before the first failure would each wait for the timeout.
                    return null;
                }
                return RegistryMessage.of(kind, flags(flags), memberId, groupName, contact,
                    kind == RegistryMessage.HELLO ? helloBody() : body);
            }, node);
        }
    }

    private void submit(final RegistryMessage m, final int node)
    {
        submit(() -> m, node);
    }

    private void submit(final java.util.function.Supplier<RegistryMessage> message, final int node)
    {
        try
        {
            outbox.execute(() ->
            {
                final RegistryMessage m = message.get();
                if (m != null)
                {
                    sendNow(m, node);
                }
            });
        }
        catch (final RejectedExecutionException ex)
        {
            LOG.debug("group '{}': registry closed; message to node {} dropped", groupName, node);
        }
    }

    /** On the outbox thread only. */
    private void sendNow(final RegistryMessage m, final int node)
    {
        try
        {
            service.send(m, node);
        }
        catch (final RuntimeException ex)
        {
            // An unreachable contact or a member that just died: the periodic hello and the view change cover it.
            // Greetings skip it for a while: each attempt holds this single outbox thread for the connect timeout,
            // which delayed every other registry message (proposals too) while a contact was cut off.
            unreachableUntilNs.put(node, System.nanoTime() + UNREACHABLE_BACKOFF_NS);
            LOG.debug("group '{}': registry message {} to node {} ({}) not sent: {}", groupName, m.kind, node,
                service.addressMap().address(node), ex.toString());
        }
    }

    private void learn(final int node, final String hostPort)
    {
        final int colon = hostPort.lastIndexOf(':');
        if (colon <= 0)
        {
            return;
        }
        try
        {
            final InetSocketAddress address = new InetSocketAddress(hostPort.substring(0, colon),
                Integer.parseInt(hostPort.substring(colon + 1)));
            if (!address.equals(service.addressMap().address(node)))
            {
                service.addressMap().put(node, address);
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("group '{}': malformed registry address '{}' ignored: {}", groupName, hostPort, ex.toString());
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Receiving

    private void onMessage(final RegistryMessage m)
    {
        if (!groupName.equals(m.groupName) || m.senderMemberId == memberId)
        {
            return;
        }
        final int senderNode = nodeOf(m.senderContact);
        if (senderNode == nodeOf(contact))
        {
            LOG.error("group '{}': member {} at {} has the registry node id of this member ({}); it cannot be "
                + "reached (restart one of them)", groupName, m.senderMemberId, m.senderContact, contact);
            return;
        }
        learn(senderNode, m.senderContact);
        try
        {
            switch (m.kind)
            {
                case RegistryMessage.HELLO ->
                {
                    final boolean peerInView = m.has(RegistryMessage.IN_VIEW);
                    hear(m.senderMemberId, m.senderContact, peerInView, m.has(RegistryMessage.MAY_FORM),
                        peerInView ? GroupIdentity.decode(m.body) : null);
                    // Members of this member's own view greet each other too (merge probes): they need no answer.
                    // A sender outside any view always gets one (it may be in this view already without knowing).
                    if (m.has(RegistryMessage.WANT_REPLY) && (!peerInView || replica.latestContaining(memberId)
                        .map(v -> v.rankOf(m.senderMemberId) < 0).orElse(true)))
                    {
                        submit(RegistryMessage.of(RegistryMessage.HELLO, flags(0), memberId, groupName, contact,
                            helloBody()), senderNode);
                    }
                }
                case RegistryMessage.ANNOUNCE ->
                {
                    if (m.has(RegistryMessage.RELAY) && m.has(RegistryMessage.IN_VIEW))
                    {
                        // A joiner's greeting from a member that is in a view by now (it travelled late): adding it
                        // would take it from its group; the merge brings groups together instead.
                        return;
                    }
                    final Member member = Member.decode(m.body);
                    replica.announce(member);
                    if (m.has(RegistryMessage.RELAY))
                    {
                        final Set<Member> to = viewMembers(null);
                        to.removeIf(x -> x.memberId() == member.memberId());
                        sendToMembers(RegistryMessage.ANNOUNCE, 0, m.body, to);
                    }
                }
                case RegistryMessage.WITHDRAW ->
                {
                    if (fromOwnGroup(m))
                    {
                        replica.withdraw(Long.parseLong(m.body.trim()));
                    }
                }
                case RegistryMessage.PUBLISH ->
                {
                    if (!fromOwnGroup(m))
                    {
                        return;
                    }
                    final int nl = m.body.indexOf('\n');
                    replica.publish(m.body.substring(0, nl), View.decode(m.body.substring(nl + 1)));
                }
                default -> LOG.warn("group '{}': unknown registry message kind {} from member {} dropped", groupName,
                    m.kind, m.senderMemberId);
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("group '{}': malformed registry message (kind {}) from member {} dropped: {}", groupName, m.kind,
                m.senderMemberId, ex.toString());
        }
    }

    /**
     * Whether a view or withdrawal from this sender may change this replica: always while this member is outside any
     * view (a joiner learns its first view from whoever adds it), else only from members of its latest view. Two
     * groups of one name number their views and proposals alike, so a proposal of the other group (for example one
     * that added this member from an old announcement) would otherwise overwrite this group's under the same key.
     */
    private boolean fromOwnGroup(final RegistryMessage m)
    {
        final Optional<View> latest = replica.latestContaining(memberId);
        if (latest.isEmpty() || latest.get().rankOf(m.senderMemberId) >= 0)
        {
            return true;
        }
        LOG.debug("group '{}': registry message (kind {}) from member {}, which is not in this member's view {}, "
            + "ignored (another group of this name)", groupName, m.kind, m.senderMemberId, latest.get().viewId());
        return false;
    }

    private String helloBody()
    {
        final GroupIdentity group = ownGroup();
        return group == null ? "" : group.encode();
    }

    private void onBeacon(final long id, final String hostPort, final boolean peerInView, final GroupIdentity group)
    {
        if (id == memberId)
        {
            return;
        }
        final Peer before = heard.get(id);
        hear(id, hostPort, peerInView, true, peerInView ? group : null);
        learn(nodeOf(hostPort), hostPort);
        if (before == null)
        {
            LOG.info("group '{}': discovered member {} at {} by multicast beacon{}", groupName, id, hostPort,
                peerInView ? " (in a view)" : "");
        }
    }

    /**
     * Ticker thread: beacons; hellos plus announcements to the contacts while outside any view; in a view, a hello
     * carrying the group's identity to the contacts once a second, so that another group of this name hears of it.
     */
    private void tick()
    {
        final long probeEvery = Math.max(1, 1000 / settings.beaconPeriodMs());
        long ticks = 0;
        while (!closed)
        {
            final GroupIdentity group = ownGroup();
            final boolean member = group != null;
            if (beacons != null)
            {
                beacons.send(memberId, contact, group);
            }
            if (member)
            {
                mergeTarget = 0;
                if (++ticks % probeEvery == 0)
                {
                    // To the members of its own view too: one just added learns from this that the view runs
                    // (runsNow); skipping them left such a member waiting for ever.
                    sendToContacts(RegistryMessage.HELLO, RegistryMessage.WANT_REPLY, group.encode());
                }
            }
            else
            {
                sendToContacts(RegistryMessage.HELLO, RegistryMessage.WANT_REPLY, "");
                final Member self = own;
                if (self != null)
                {
                    sendToContacts(RegistryMessage.ANNOUNCE, RegistryMessage.RELAY, self.encode());
                }
            }
            try
            {
                Thread.sleep(settings.beaconPeriodMs());
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
    }
}
