package io.sirocco.multicast.contact;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.view.LocalRegistry;
import io.sirocco.multicast.view.MembershipRegistry;
import io.sirocco.transport.agent.Agents;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * beacon threads ({@link HeardMembers}); every send runs on one outbox thread ({@link RegistryOutbox}), in call order,
 * so callers (the predicate thread during a view change) never block on a connect. Received messages are applied on
 * the endpoint's single handler thread ({@link RegistryEndpoint}). Greetings go out from the ticker agent
 * ({@link RegistryTicker}, thread {@code sirocco-registry-tick-<group>}), paced by a sleep of one beacon period.
 */
public final class NetRegistry implements MembershipRegistry
{
    private static final Logger LOG = LoggerFactory.getLogger(NetRegistry.class);

    private final String groupName;
    private final long memberId;
    private final ContactSettings settings;
    private final LocalRegistry replica = new LocalRegistry();
    private final RegistryEndpoint endpoint;
    private final String contact;
    private final boolean mayForm;
    private final BeaconChannel beacons;
    private final RegistryOutbox outbox;
    private final RegistrySender send;
    private final AgentRunner ticker;
    private final HeardMembers heard = new HeardMembers();
    private final LogRateLimit malformedLog = new LogRateLimit();
    /** Start of the current discovery wait: construction, then each {@link #rediscover()}. */
    private volatile long lookStartNs = System.nanoTime();
    /** Leader id of the group this member leaves its own for (0: none), chosen by {@link #survivingGroup(View)}. */
    private volatile long chosenSurvivor;
    private volatile Member own;
    /**
     * Predicate thread only ({@link #survivingGroup}): this member's group identity when last asked, and since when
     * it has had it; only members heard since then count towards a merge.
     */
    private GroupIdentity ownIdentity;
    private long ownIdentitySinceNs;
    private volatile boolean closed;
    /** Ticker thread only: ticks since start, for the once-a-second merge probe. */
    private long ticks;

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
        this.endpoint = new RegistryEndpoint(groupName, settings);
        this.contact = endpoint.contact();
        this.outbox = new RegistryOutbox(groupName, endpoint);
        this.beacons = settings.multicast() ? openBeacons() : null;
        this.mayForm = beacons != null || endpoint.listed() || settings.peers().isEmpty();
        this.send = new RegistrySender(groupName, memberId, mayForm, replica, heard, endpoint, outbox);
        LOG.debug("group '{}': member {} serves its membership registry on {}; static peers {}{}; multicast {}; "
            + "may form the group: {}", groupName, memberId, contact, settings.peers(), endpoint.listed()
            ? " (this member is one of them)" : "", beacons != null ? settings.multicastGroup() + ":"
            + settings.multicastPort() : "off", mayForm);
        endpoint.onMessages(this::onMessage);
        this.ticker = Agents.start(new RegistryTicker("registry-tick-" + groupName, this::tick),
            new SleepingMillisIdleStrategy(settings.beaconPeriodMs()));
    }

    /** @return the beacon channel, or null (logged) when UDP multicast cannot be used here. */
    private BeaconChannel openBeacons()
    {
        try
        {
            return new BeaconChannel(groupName, settings.bindHost(), settings.multicastGroup(),
                settings.multicastPort(), this::onBeacon);
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.warn("group '{}': UDP multicast discovery FAILED on {} ({}:{}): {}; FALLING BACK to the static "
                + "peers {}", groupName, settings.bindHost(), settings.multicastGroup(), settings.multicastPort(),
                ex.toString(), settings.peers().isEmpty() ? "(none: this member can only form its own group)"
                : settings.peers());
            return null;
        }
    }

    /**
     * The messaging node id of a registry endpoint ({@link RegistryEndpoint#nodeOf}).
     */
    static int nodeOf(final String contact)
    {
        return RegistryEndpoint.nodeOf(contact);
    }

    /** @return the endpoint this registry listens on ({@code host:port}). */
    @Override
    public String contactAddress()
    {
        return contact;
    }

    /** How long a member heard counts as present. */
    private long freshNs()
    {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(5 * settings.beaconPeriodMs(), settings.discoveryWaitMs()));
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
        if (send.inView())
        {
            send.toMembers(RegistryMessage.ANNOUNCE, 0, body, send.viewMembers(null));
        }
        else
        {
            send.toContacts(RegistryMessage.ANNOUNCE, RegistryMessage.RELAY, body);
        }
    }

    @Override
    public void withdraw(final long id)
    {
        final Set<Member> to = send.viewMembers(null);
        replica.withdraw(id);
        send.toMembers(RegistryMessage.WITHDRAW, 0, Long.toString(id), to);
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
        final long leader = GroupIdentity.of(latest).leaderId();
        final long now = System.nanoTime();
        final long freshNs = freshNs();
        all.removeIf(member -> heard.inOtherGroup(member.memberId(), leader, now, freshNs)
            && latest.rankOf(member.memberId()) < 0);
        return all;
    }

    @Override
    public void publish(final String key, final View view)
    {
        final Set<Member> to = send.viewMembers(view);
        replica.publish(key, view);
        send.toMembers(RegistryMessage.PUBLISH, 0, key + "\n" + view.encode(), to);
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
        if (!mayForm || send.inView() || send.mergeTargetActive() || System.nanoTime() - lookStartNs
            < TimeUnit.MILLISECONDS.toNanos(settings.discoveryWaitMs()))
        {
            return false;
        }
        return heard.noneRunsOrOutranks(groupName, memberId, System.nanoTime(), freshNs());
    }

    @Override
    public Optional<String> survivingGroup(final View current)
    {
        final GroupIdentity mine = GroupIdentity.of(current);
        final long now = System.nanoTime();
        if (!mine.equals(ownIdentity))
        {
            ownIdentity = mine;
            ownIdentitySinceNs = now;
        }
        final HeardMembers.Peer best = heard.survivor(current, ownIdentitySinceNs, now, freshNs(),
            TimeUnit.MILLISECONDS.toNanos(settings.mergeDelayMs()));
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
        return heard.runs(view, memberId, lookStartNs) || view.members().size() == 1;
    }

    @Override
    public void rediscover()
    {
        replica.forgetViews();
        final long now = System.nanoTime();
        lookStartNs = now;
        final long survivor = chosenSurvivor;
        chosenSurvivor = 0;
        send.mergeTarget(survivor, now + TimeUnit.MILLISECONDS.toNanos(Math.max(10_000,
            4 * (settings.discoveryWaitMs() + settings.mergeDelayMs()))));
        LOG.debug("group '{}': member {} looks for the group again{}", groupName, memberId, survivor == 0
            ? " through its contacts" : ", announcing itself only to the group led by member " + survivor);
        final Member self = own;
        if (self != null)
        {
            send.toContacts(RegistryMessage.ANNOUNCE, RegistryMessage.RELAY, self.encode());
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
        // Interrupting ends the ticker's sleep; the runner then stops it without waiting for the period.
        final Thread tickerThread = ticker.thread();
        if (tickerThread != null)
        {
            tickerThread.interrupt();
        }
        ticker.close();
        if (beacons != null)
        {
            beacons.close();
        }
        outbox.close();
        endpoint.close();
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
            final long skipped = malformedLog.admit();
            if (skipped >= 0)
            {
                LOG.error("group '{}': member {} at {} has the registry node id of this member ({}); it cannot be "
                    + "reached (restart one of them){}", groupName, m.senderMemberId, m.senderContact, contact,
                    LogRateLimit.suffix(skipped));
            }
            return;
        }
        endpoint.learn(senderNode, m.senderContact);
        try
        {
            switch (m.kind)
            {
                case RegistryMessage.HELLO -> onHello(m, senderNode);
                case RegistryMessage.ANNOUNCE -> onAnnounce(m);
                case RegistryMessage.WITHDRAW ->
                {
                    if (fromOwnGroup(m))
                    {
                        replica.withdraw(Long.parseLong(m.body.trim()));
                    }
                }
                case RegistryMessage.PUBLISH -> onPublish(m);
                default -> dropped(m, "unknown kind", null);
            }
        }
        catch (final RuntimeException ex)
        {
            dropped(m, "malformed", ex);
        }
    }

    /** A message a remote peer sent that cannot be applied: WARN, at most one a second. */
    private void dropped(final RegistryMessage m, final String why, final RuntimeException ex)
    {
        final long skipped = malformedLog.admit();
        if (skipped >= 0)
        {
            LOG.warn("group '{}': {} registry message (kind {}) from member {} dropped{}{}", groupName, why, m.kind,
                m.senderMemberId, ex == null ? "" : ": " + ex, LogRateLimit.suffix(skipped));
        }
    }

    private void onHello(final RegistryMessage m, final int senderNode)
    {
        final boolean peerInView = m.has(RegistryMessage.IN_VIEW);
        heard.hear(m.senderMemberId, m.senderContact, peerInView, m.has(RegistryMessage.MAY_FORM),
            peerInView ? GroupIdentity.decode(m.body) : null);
        // Members of this member's own view greet each other too (merge probes): they need no answer.
        // A sender outside any view always gets one (it may be in this view already without knowing).
        if (m.has(RegistryMessage.WANT_REPLY) && (!peerInView || replica.latestContaining(memberId)
            .map(v -> v.rankOf(m.senderMemberId) < 0).orElse(true)))
        {
            send.replyHello(senderNode);
        }
    }

    private void onAnnounce(final RegistryMessage m)
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
            final Set<Member> to = send.viewMembers(null);
            to.removeIf(x -> x.memberId() == member.memberId());
            send.toMembers(RegistryMessage.ANNOUNCE, 0, m.body, to);
        }
    }

    private void onPublish(final RegistryMessage m)
    {
        if (!fromOwnGroup(m))
        {
            return;
        }
        final int nl = m.body.indexOf('\n');
        replica.publish(m.body.substring(0, nl), View.decode(m.body.substring(nl + 1)));
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

    private void onBeacon(final long id, final String hostPort, final boolean peerInView, final GroupIdentity group)
    {
        if (id == memberId)
        {
            return;
        }
        final HeardMembers.Peer before = heard.get(id);
        if (!heard.hear(id, hostPort, peerInView, true, peerInView ? group : null))
        {
            // As many members as a group may have are heard already: a flood of forged ids, not a member.
            return;
        }
        endpoint.learn(nodeOf(hostPort), hostPort);
        if (before == null)
        {
            LOG.debug("group '{}': discovered member {} at {} by multicast beacon{}", groupName, id, hostPort,
                peerInView ? " (in a view)" : "");
        }
    }

    /**
     * Ticker thread, once per beacon period: beacons; hellos plus announcements to the contacts while outside any
     * view; in a view, a hello carrying the group's identity to the contacts once a second, so that another group of
     * this name hears of it.
     */
    private void tick()
    {
        if (closed)
        {
            return;
        }
        final GroupIdentity group = send.ownGroup();
        if (beacons != null)
        {
            beacons.send(memberId, contact, group);
        }
        if (group != null)
        {
            send.mergeTarget(0, 0);
            if (++ticks % Math.max(1, 1000 / settings.beaconPeriodMs()) == 0)
            {
                // To the members of its own view too: one just added learns from this that the view runs
                // (runsNow); skipping them left such a member waiting for ever.
                send.toContacts(RegistryMessage.HELLO, RegistryMessage.WANT_REPLY, group.encode());
            }
        }
        else
        {
            send.toContacts(RegistryMessage.HELLO, RegistryMessage.WANT_REPLY, "");
            final Member self = own;
            if (self != null)
            {
                send.toContacts(RegistryMessage.ANNOUNCE, RegistryMessage.RELAY, self.encode());
            }
        }
    }
}
