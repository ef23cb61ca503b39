package io.sirocco.multicast.view;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.config.MulticastSettings;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.fault.FaultPoint;
import io.sirocco.multicast.smc.SubgroupEngine;
import io.sirocco.multicast.sst.SstLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Membership of one view, run by the predicate thread after the subgroups' triggers on every pass: heartbeat and
 * failure detection, suspicion merging, and the view change.
 *
 * <p><b>View change</b> (all state in the SST control block, see {@link SstLayout}):
 * <ol>
 *   <li>A suspicion (heartbeat silent for the timeout, the process exited, the member left, or the row transport
 *       reported that its pushes to the member failed), or a joiner or a
 *       changed registration seen by the leader, starts a change. Every member ORs the suspicions it sees into its
 *       own row and <b>wedges</b>: its subgroups stop claiming and sending, everything committed is published, then
 *       {@code WEDGED} is pushed.</li>
 *   <li>The <b>leader</b> (lowest rank this member does not suspect) writes the next view to the registry under
 *       {@code p<proposal>} and pushes {@code PROPOSAL_MASK} then {@code PROPOSAL_NO}. A new leader taking over
 *       adopts the union of every row's proposal mask and a higher proposal number.</li>
 *   <li>Members <b>acknowledge</b> once their registry holds the proposal: copy the mask, suspect its ranks, push
 *       {@code ACK_NO}.</li>
 *   <li>The leader <b>commits</b> once every member outside the mask acknowledged: {@code COMMIT_NO}. Every member
 *       follows the highest {@code COMMIT_NO} in any row and echoes it in its own row, so a commit survives a leader
 *       that died while pushing it; a member that never acknowledged that proposal is removed by it.</li>
 *   <li>Once every live member is wedged, each member drains (receives until nothing is new), pushes its counters,
 *       then {@code DRAINED}.</li>
 *   <li><b>Ragged trim</b>, per subgroup: when all live members drained, the shard leader (lowest live member of the
 *       subgroup) publishes {@code TRIM[k] = min over live members of RECEIVED[k]}, or adopts a trim some row
 *       already holds (a previous shard leader's). Followers echo it; a member seeing a larger ready trim in a live
 *       row adopts the element-wise maximum, so all converge. When every live member holds the same ready trim, each
 *       delivers exactly the messages below it, in seq order, and drops the rest.</li>
 *   <li>With a persistence hold, it waits until every live member persisted what it delivered.</li>
 *   <li><b>Install</b>: read the committed proposal, publish it as {@code v<id>}, withdraw the members it removed
 *       from the registry (every member does, the leader may be dead), build a fresh table and fresh engines for its
 *       layout (a member of the previous view must beat in it within half the join grace of its last beat there; a
 *       joiner gets the join grace), and tell the listener.</li>
 * </ol>
 * The steps live in their own classes over one {@link ViewState}: {@link FailureDetector} (heartbeats, suspicion),
 * {@link DrainStep} (1 and 5), {@link ProposalStep} (2 to 4) and {@link TrimStep} (6); this class orders them and
 * installs the committed view (7, 8).
 * Why no survivor disagrees: a message was delivered somewhere only once every member had received it, so every
 * live member's {@code RECEIVED[k]} covers it and so does the trim; above the trim nobody delivered it.
 */
public final class ViewManager
{
    private static final Logger LOG = LoggerFactory.getLogger(ViewManager.class);

    /** What the manager needs from its group. */
    public interface Host
    {
        /** Builds the context of a newly committed view. */
        ViewContext build(View view, int myRank);

        /** The new context is installed (old one already closed). */
        void installed(ViewContext previous, ViewContext next);

        /** This member is out of the group. */
        void excluded(String reason);

        MembershipRegistry registry();

        long memberId();
    }

    private final Host host;
    private final long registryPollNs;
    private final ViewState s;
    private final FailureDetector detector;
    private final ProposalStep proposals;
    private final DrainStep drain;
    private final TrimStep trims;
    private volatile boolean leaveRequested;
    private volatile boolean left;
    /** Fault injection (tests): the next pass suspects every other member ({@link #suspectEveryoneOnce}). */
    private volatile boolean suspectAllOnce;
    /**
     * Ranks the current view's row transport gave up on ({@link io.sirocco.multicast.spi.RowSuspicionListener}):
     * set by the transport's listener on any thread, read by the predicate thread; a fresh mask per view, so a late
     * report of an old view's transport cannot touch the new view's ranks.
     */
    private AtomicLong transportSuspected = new AtomicLong();
    private long nextRegistryPollNs;

    public ViewManager(final Host host, final long heartbeatPeriodMs, final long suspicionTimeoutMs,
        final long registryPollMs)
    {
        this.host = host;
        final long suspicionTimeoutNs = suspicionTimeoutMs * 1_000_000L;
        this.registryPollNs = registryPollMs * 1_000_000L;
        // A member that has not beaten once in this view may still be mapping its table: give it longer.
        final long joinGraceNs = Math.max(10_000_000_000L, 5 * suspicionTimeoutNs);
        this.s = new ViewState(host.registry(), host::excluded, joinGraceNs);
        // Half the join grace for a member of the previous view (see carryLiveness): twice the suspicion timeout was
        // tried first and is tight when installing a view takes seconds under load.
        this.detector = new FailureDetector(s, host.memberId(), heartbeatPeriodMs * 1_000_000L, suspicionTimeoutNs,
            joinGraceNs / 2, MulticastSettings.suspicionStretch());
        this.proposals = new ProposalStep(s);
        this.drain = new DrainStep(s);
        this.trims = new TrimStep(s);
    }

    /** Starts managing a freshly built view. Predicate thread (or before it starts). */
    public void start(final ViewContext context)
    {
        s.reset(context);
        final long now = System.nanoTime();
        detector.start(now);
        nextRegistryPollNs = now + registryPollNs;
        final AtomicLong reported = new AtomicLong();
        transportSuspected = reported;
        final View view = context.view;
        final int ranks = Math.min(64, view.members().size());
        context.transport.suspicionListener((rank, reason) ->
        {
            if (rank >= 0 && rank < ranks && (reported.getAndUpdate(m -> m | 1L << rank) & 1L << rank) == 0)
            {
                LOG.warn("member {} (rank {}) of view {} suspected: its row transport failed: {}",
                    view.members().get(rank).memberId(), rank, view.viewId(), reason);
            }
        });
    }

    /**
     * Starts managing the first view of a member that was out of the group (excluded, or it left to merge) and was
     * taken in again. Predicate thread.
     */
    public void restart(final ViewContext context)
    {
        s.excluded = false;
        left = false;
        leaveRequested = false;
        s.proposalWaitStartNs = 0;
        start(context);
    }

    /** Same-host crash detection hook (from {@link ProcessHandle#onExit()}). Any thread. */
    public void exited(final long memberId)
    {
        detector.exited(memberId);
    }

    /** Asks to leave gracefully: the member suspects itself, which the others turn into its removal. */
    public void requestLeave()
    {
        leaveRequested = true;
    }

    public boolean left()
    {
        return left;
    }

    /**
     * Fault injection for tests: at its next pass this member suspects every other member of its view at once, as a
     * heartbeat timeout of all of them would after a stall under load. Called on every member, it is the storm in
     * which every member excludes itself (each then suspects all others, which is no majority; a member that reads
     * another's suspicion of itself first is excluded by it), deterministically: pausing heartbeats instead lets the
     * first member to time out remove one peer before the others time out, a different storm on every run. Any thread.
     */
    public void suspectEveryoneOnce()
    {
        suspectAllOnce = true;
    }

    public ViewContext context()
    {
        return s.ctx;
    }

    /** The GMS trigger. */
    public boolean gmsTrigger()
    {
        if (s.excluded || left)
        {
            return false;
        }
        final long now = System.nanoTime();
        boolean progress = false;
        detector.beat(now);
        long mask = s.suspected | (transportSuspected.get() & ~(1L << s.me));
        if (leaveRequested)
        {
            mask |= 1L << s.me;
        }
        if (suspectAllOnce)
        {
            suspectAllOnce = false;
            mask |= (s.members == 64 ? -1L : (1L << s.members) - 1) & ~(1L << s.me);
        }
        mask = detector.scan(mask, now, leaveRequested);
        if (s.excluded)
        {
            return true;
        }
        if (mask != s.suspected)
        {
            s.suspect(mask);
            progress = true;
        }
        if (leaveRequested)
        {
            left = true;
            return true;
        }
        if (!s.changing)
        {
            if (s.suspected == 0 && !proposalPending() && !leaderSeesRegistryChange(now))
            {
                return progress;
            }
            s.changing = true;
            s.changeStartNs = now;
            LOG.info("view {}: change starts (suspected mask {})", s.ctx.view.viewId(),
                Long.toBinaryString(s.suspected));
        }
        return changeStep() | progress;
    }

    private boolean proposalPending()
    {
        return s.table.getAcquire(s.leader(), SstLayout.PROPOSAL_NO) > s.acked;
    }

    private boolean leaderSeesRegistryChange(final long now)
    {
        if (s.leader() != s.me || now - nextRegistryPollNs < 0)
        {
            return false;
        }
        nextRegistryPollNs = now + registryPollNs;
        return !s.joinersAndUpdates().equals(s.ctx.view.members());
    }

    static String localHost()
    {
        return ViewState.localHost();
    }

    /** @return false only for a member of this host whose process is gone (another host's cannot be told). */
    public static boolean alive(final Member m)
    {
        return ViewState.alive(m);
    }

    /** The view change's steps in order; each returns early while it waits (see the class note). */
    private boolean changeStep()
    {
        boolean progress = false;
        if (!s.wedgedPushed)
        {
            if (!drain.wedge())
            {
                return false;
            }
            progress = true;
        }
        if (!proposals.followCommit())
        {
            return true;
        }
        final boolean committed = s.commitNo != 0;
        if (s.leader() == s.me && !committed)
        {
            progress |= proposals.propose();
        }
        final int leader = s.leader();
        progress |= proposals.acknowledge(leader, committed);
        if (s.excluded)
        {
            return true;
        }
        progress |= proposals.commit(leader, committed);
        if (s.excluded || !proposals.followCommit())
        {
            return true;
        }
        if (s.commitNo == 0)
        {
            return progress;
        }
        if (!s.drainedPushed)
        {
            if (!drain.drain())
            {
                return progress;
            }
            progress = true;
        }
        return trimAndInstall(progress);
    }

    /**
     * Step 6, the ragged trim per subgroup, only by a member that still sees a majority of the view; then, with a
     * persistence hold, the wait for persistence; then the install.
     */
    private boolean trimAndInstall(final boolean progressSoFar)
    {
        boolean progress = progressSoFar;
        // The trim is a minimum over the members this member thinks live; when a load spike right after a commit
        // makes members suspect each other (seen in NetnsRejoinTest), each computes a trim over itself alone and may
        // deliver what the others, trimming lower, drop, and all then install the committed view: delivered sequences
        // that differ with nobody excluded. Two majorities always share a member, through whose row each sees the
        // other's trim (the element-wise maximum then converges; the race left is in docs/multicast.md, Known
        // limits); a minority excludes itself here as it would have at the commit.
        if (!s.majority())
        {
            s.exclude("partitioned before the ragged trim: the members this one still sees are not a majority of view "
                + s.ctx.view.viewId() + " (suspected mask " + Long.toBinaryString(s.suspected) + ")");
            return true;
        }
        final boolean[] liveRanks = new boolean[s.members];
        for (int r = 0; r < s.members; r++)
        {
            liveRanks[r] = s.live(r);
        }
        boolean allDone = true;
        for (int i = 0; i < s.ctx.engines.length; i++)
        {
            if (!s.trimDelivered[i])
            {
                progress |= trims.step(i, liveRanks);
                allDone &= s.trimDelivered[i];
            }
        }
        if (!allDone)
        {
            return progress;
        }
        for (final SubgroupEngine e : s.ctx.engines)
        {
            if (!e.persistedEverywhere(liveRanks))
            {
                return progress;
            }
        }
        return install() | progress;
    }

    /** @return whether the view was installed (or this member excluded); false while the proposal is missing. */
    private boolean install()
    {
        final Optional<View> next = committedView();
        if (next == null)
        {
            return true;
        }
        if (next.isEmpty())
        {
            return false;
        }
        final View view = next.get();
        final ViewContext ctx = s.ctx;
        if (!Refounder.publishInstalled(host.registry(), view))
        {
            s.exclude("view " + view.viewId() + " is already installed with other members (a group re-formed while "
                + "this one was finishing its change): " + host.registry().read("v" + view.viewId()).orElse(null));
            return true;
        }
        final int rank = view.rankOf(host.memberId());
        if (rank < 0)
        {
            s.exclude("view " + view.viewId() + " does not contain this member");
            return true;
        }
        if (s.leader() == s.me)
        {
            ctx.faults.at(FaultPoint.INSTALLING, ctx.view.viewId(), "");
        }
        // Every member, not only the leader, withdraws the members this change removed: a leader that dies between
        // the commit and this point never withdraws them, and a dead member still announced was taken back in by the
        // next leader as a joiner (in one JVM, or on another host, where the pid check cannot tell it is dead).
        for (int r = 0; r < s.members; r++)
        {
            final long id = ctx.view.members().get(r).memberId();
            if (view.rankOf(id) < 0)
            {
                host.registry().withdraw(id);
            }
        }
        LOG.info("view {} installed after {} ms: {}", view.viewId(), (System.nanoTime() - s.changeStartNs) / 1_000_000,
            view);
        final ViewContext built = host.build(view, rank);
        final long[] oldSilentNs = detector.silentNs();
        final long[] oldLongestGapNs = detector.longestGapNs();
        start(built);
        detector.carryLiveness(ctx.view, oldSilentNs, oldLongestGapNs);
        ctx.close();
        host.installed(ctx, built);
        return true;
    }

    /**
     * The committed proposal from the registry. A network registry carries the proposal on its own connection, which
     * the SST's row frames may overtake: wait for it (bounded), then give up. Proposal numbers restart in every view
     * (they come from the fresh table), so an older view's proposal under the same key is not this one: wait for its
     * replacement. A later view's proposal under that key means this member is the late one: the others installed the
     * committed view (each publishes it as {@code v<id>} before it builds it) and the leader of that view already
     * proposed the next, overwriting the key; the committed view is then read where its installers published it. A
     * member slower than the leader by one registry poll used to wait for a proposal that never came back, silent in
     * the new view until the others suspected it (SimultaneousStartTest: joiners registering their readers one after
     * the other make such back-to-back changes).
     *
     * @return the view; empty while waiting; null when this member excluded itself after the wait.
     */
    private Optional<View> committedView()
    {
        final long committedNo = s.commitNo;
        final long nextId = s.ctx.view.viewId() + 1;
        final Optional<View> next = host.registry().read("p" + committedNo);
        if (next.isPresent() && next.get().viewId() == nextId)
        {
            s.proposalWaitStartNs = 0;
            return next;
        }
        final Optional<View> installed = next.isPresent() && next.get().viewId() > nextId
            ? host.registry().read("v" + nextId) : Optional.empty();
        if (installed.isPresent())
        {
            LOG.debug("view {}: committed proposal p{} already replaced by view {}'s; installing view {} as the others "
                + "published it", s.ctx.view.viewId(), committedNo, next.get().viewId(), nextId);
            s.proposalWaitStartNs = 0;
            return installed;
        }
        final long now = System.nanoTime();
        if (s.proposalWaitStartNs == 0)
        {
            s.proposalWaitStartNs = now;
            LOG.info("view {}: committed proposal p{} not in the registry yet{}; waiting for it",
                s.ctx.view.viewId(), committedNo, next.isEmpty() ? "" : " (it still holds view "
                + next.get().viewId() + "'s)");
        }
        if (now - s.proposalWaitStartNs > s.joinGraceNs)
        {
            s.exclude("committed proposal p" + committedNo + " of view " + s.ctx.view.viewId() + " is missing from "
                + "the registry after " + s.joinGraceNs / 1_000_000 + " ms");
            return null;
        }
        return Optional.empty();
    }
}
