package io.sirocco.multicast.view;

import io.sirocco.multicast.Member;
import io.sirocco.multicast.View;
import io.sirocco.multicast.fault.FaultPoint;
import io.sirocco.multicast.smc.SubgroupEngine;
import io.sirocco.multicast.sst.SstLayout;
import io.sirocco.multicast.sst.SstTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
    private final long heartbeatPeriodNs;
    private final long suspicionTimeoutNs;
    private final long registryPollNs;
    private final long joinGraceNs;
    private final long continuingGraceNs;
    private final Set<Long> exitedMemberIds = ConcurrentHashMap.newKeySet();
    private volatile boolean leaveRequested;
    private volatile boolean left;
    /** Fault injection (tests): the next pass suspects every other member ({@link #suspectEveryoneOnce}). */
    private volatile boolean suspectAllOnce;

    private ViewContext ctx;
    private SstTable table;
    private int me;
    private int members;
    private long heartbeat;
    private long nextBeatNs;
    private long[] lastHeartbeat;
    private long[] lastMoveNs;
    /**
     * By rank: the member was in the previous view too, so its silence before its first beat in this view is measured
     * from its last beat in the previous view, with half the join grace, rather than given the join grace from now.
     */
    private boolean[] continuing = new boolean[0];
    /** Processes of the members on this host, by rank (null: another host, this process, or already exited). */
    private ProcessHandle[] sameHostProcesses = new ProcessHandle[0];
    private long suspected;
    /**
     * Ranks the current view's row transport gave up on ({@link io.sirocco.multicast.spi.RowSuspicionListener}):
     * set by the transport's listener on any thread, read by the predicate thread; a fresh mask per view, so a late
     * report of an old view's transport cannot touch the new view's ranks.
     */
    private AtomicLong transportSuspected = new AtomicLong();
    private boolean changing;
    private boolean wedgedPushed;
    private long myProposal;
    private long myProposalMask = -1;
    private long acked;
    /** Every proposal number this member acknowledged in this view (a takeover can make it ack several). */
    private long[] ackHistory = new long[4];
    private int ackCount;
    /** The commit this member follows (0: none yet): the highest commit in any row of a proposal it acknowledged. */
    private long commitNo;
    private boolean drainedPushed;
    private boolean[] trimDelivered;
    private long nextRegistryPollNs;
    private long changeStartNs;
    private long proposalWaitStartNs;
    /** The proposal this member waits for its registry to hold before it acknowledges it, and since when. */
    private long ackWaitProposal;
    private long ackWaitStartNs;
    private boolean excluded;

    public ViewManager(final Host host, final long heartbeatPeriodMs, final long suspicionTimeoutMs,
        final long registryPollMs)
    {
        this.host = host;
        this.heartbeatPeriodNs = heartbeatPeriodMs * 1_000_000L;
        this.suspicionTimeoutNs = suspicionTimeoutMs * 1_000_000L;
        this.registryPollNs = registryPollMs * 1_000_000L;
        // A member that has not beaten once in this view may still be mapping its table: give it longer.
        this.joinGraceNs = Math.max(10_000_000_000L, 5 * suspicionTimeoutNs);
        // Half the join grace for a member of the previous view (see carryLiveness): twice the suspicion timeout was
        // tried first and is tight when installing a view takes seconds under load.
        this.continuingGraceNs = joinGraceNs / 2;
    }

    /** Starts managing a freshly built view. Predicate thread (or before it starts). */
    public void start(final ViewContext context)
    {
        ctx = context;
        table = context.table;
        me = context.myRank;
        members = context.view.members().size();
        final long now = System.nanoTime();
        lastHeartbeat = new long[members];
        lastMoveNs = new long[members];
        java.util.Arrays.fill(lastMoveNs, now);
        continuing = new boolean[members];
        suspected = 0;
        changing = false;
        wedgedPushed = false;
        myProposal = 0;
        myProposalMask = -1;
        acked = 0;
        ackWaitProposal = 0;
        ackCount = 0;
        commitNo = 0;
        drainedPushed = false;
        trimDelivered = new boolean[context.engines.length];
        nextBeatNs = now;
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
        sameHostProcesses = new ProcessHandle[members];
        for (int r = 0; r < members; r++)
        {
            final Member m = context.view.members().get(r);
            if (m.memberId() != host.memberId() && m.host().equals(localHost()) && m.pid() != SELF_PID)
            {
                final int rank = r;
                ProcessHandle.of(m.pid()).ifPresentOrElse(
                    h ->
                    {
                        sameHostProcesses[rank] = h;
                        h.onExit().thenRun(() -> exited(m.memberId()));
                    },
                    () -> exited(m.memberId()));
            }
        }
    }

    /**
     * Starts managing the first view of a member that was out of the group (excluded, or it left to merge) and was
     * taken in again. Predicate thread.
     */
    public void restart(final ViewContext context)
    {
        excluded = false;
        left = false;
        leaveRequested = false;
        proposalWaitStartNs = 0;
        start(context);
    }

    /**
     * Same-host crash detection on the heartbeat period. {@link ProcessHandle#onExit()} alone is slow for a process
     * that is not our child: the JDK polls it every 300 ms plus 30 ms per poll (up to 5 s), so a crash was seen up to
     * several hundred ms late. {@link ProcessHandle#isAlive()} is one {@code /proc} read (it also checks the start time,
     * so a reused pid is not taken for the member). Predicate thread.
     */
    private void pollSameHostProcesses()
    {
        for (int r = 0; r < members; r++)
        {
            final ProcessHandle h = sameHostProcesses[r];
            if (h != null && !h.isAlive())
            {
                sameHostProcesses[r] = null;
                exited(ctx.view.members().get(r).memberId());
            }
        }
    }

    /** Same-host crash detection hook (from {@link ProcessHandle#onExit()}). Any thread. */
    public void exited(final long memberId)
    {
        exitedMemberIds.add(memberId);
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
        return ctx;
    }

    /** The GMS trigger. */
    public boolean gmsTrigger()
    {
        if (excluded || left)
        {
            return false;
        }
        final long now = System.nanoTime();
        boolean progress = false;
        if (now - nextBeatNs >= 0)
        {
            heartbeat++;
            table.setRelease(me, SstLayout.HEARTBEAT, heartbeat);
            ctx.transport.pushCounters(SstLayout.HEARTBEAT, 1);
            ctx.transport.flush();
            nextBeatNs = now + heartbeatPeriodNs;
            pollSameHostProcesses();
        }
        long mask = suspected | (transportSuspected.get() & ~(1L << me));
        if (leaveRequested)
        {
            mask |= 1L << me;
        }
        if (suspectAllOnce)
        {
            suspectAllOnce = false;
            mask |= (members == 64 ? -1L : (1L << members) - 1) & ~(1L << me);
        }
        for (int r = 0; r < members; r++)
        {
            if (r == me || (mask & (1L << r)) != 0)
            {
                continue;
            }
            final long hb = table.getAcquire(r, SstLayout.HEARTBEAT);
            if (hb != lastHeartbeat[r])
            {
                lastHeartbeat[r] = hb;
                lastMoveNs[r] = now;
            }
            else if (now - lastMoveNs[r] > (hb != 0 ? suspicionTimeoutNs
                : continuing[r] ? continuingGraceNs : joinGraceNs))
            {
                LOG.warn("member {} (rank {}) of view {} suspected: no heartbeat for {} ms",
                    ctx.view.members().get(r).memberId(), r, ctx.view.viewId(), suspicionTimeoutNs / 1_000_000);
                mask |= 1L << r;
            }
            if (!exitedMemberIds.isEmpty() && exitedMemberIds.contains(ctx.view.members().get(r).memberId()))
            {
                mask |= 1L << r;
            }
            final long theirs = table.getAcquire(r, SstLayout.SUSPECTED);
            if ((theirs & (1L << me)) != 0 && !leaveRequested)
            {
                exclude("member " + ctx.view.members().get(r).memberId() + " suspects this member in view "
                    + ctx.view.viewId());
                return true;
            }
            mask |= theirs;
        }
        if (mask != suspected)
        {
            suspect(mask);
            progress = true;
        }
        if (leaveRequested)
        {
            left = true;
            return true;
        }
        if (!changing)
        {
            if (suspected != 0 || proposalPending() || leaderSeesRegistryChange(now))
            {
                changing = true;
                changeStartNs = now;
                LOG.info("view {}: change starts (suspected mask {})", ctx.view.viewId(),
                    Long.toBinaryString(suspected));
            }
            else
            {
                return progress;
            }
        }
        return changeStep() | progress;
    }

    private void suspect(final long mask)
    {
        final long added = mask & ~suspected;
        suspected = mask;
        for (int r = 0; r < members; r++)
        {
            if ((added & (1L << r)) != 0 && r != me)
            {
                ctx.transport.freeze(r);
            }
        }
        table.setRelease(me, SstLayout.SUSPECTED, suspected);
        ctx.transport.pushCounters(SstLayout.SUSPECTED, 1);
        ctx.transport.flush();
    }

    private void exclude(final String reason)
    {
        excluded = true;
        LOG.warn("excluded from the group: {}", reason);
        host.excluded(reason);
    }

    private int leader()
    {
        for (int r = 0; r < members; r++)
        {
            if ((suspected & (1L << r)) == 0)
            {
                return r;
            }
        }
        return me;
    }

    private boolean live(final int r)
    {
        return (suspected & (1L << r)) == 0;
    }

    private boolean proposalPending()
    {
        return table.getAcquire(leader(), SstLayout.PROPOSAL_NO) > acked;
    }

    private boolean leaderSeesRegistryChange(final long now)
    {
        if (leader() != me || now - nextRegistryPollNs < 0)
        {
            return false;
        }
        nextRegistryPollNs = now + registryPollNs;
        return !joinersAndUpdates().equals(ctx.view.members());
    }

    /** The next member list: current members minus suspected, with updated registrations, plus live joiners. */
    private List<Member> joinersAndUpdates()
    {
        final List<Member> announced = host.registry().announced();
        final List<Member> next = new ArrayList<>();
        for (int r = 0; r < members; r++)
        {
            if (!live(r))
            {
                continue;
            }
            Member m = ctx.view.members().get(r);
            for (final Member a : announced)
            {
                if (a.memberId() == m.memberId() && a.version() != m.version())
                {
                    m = a;
                }
            }
            next.add(m);
        }
        for (final Member a : announced)
        {
            if (ctx.view.rankOf(a.memberId()) < 0 && alive(a))
            {
                next.add(a);
            }
        }
        return next;
    }

    private static final String LOCAL_HOST = Member.localHost();
    private static final long SELF_PID = ProcessHandle.current().pid();

    static String localHost()
    {
        return LOCAL_HOST;
    }

    /** @return false only for a member of this host whose process is gone (another host's cannot be told). */
    public static boolean alive(final Member m)
    {
        if (!m.host().equals(localHost()))
        {
            return true;
        }
        return ProcessHandle.of(m.pid()).map(ProcessHandle::isAlive).orElse(false);
    }

    private boolean changeStep()
    {
        boolean progress = false;
        // 1. wedge
        if (!wedgedPushed)
        {
            boolean all = true;
            for (final SubgroupEngine e : ctx.engines)
            {
                all &= e.wedge();
            }
            if (!all)
            {
                return false;
            }
            table.setRelease(me, SstLayout.WEDGED, 1);
            ctx.transport.pushCounters(SstLayout.WEDGED, 1);
            ctx.transport.flush();
            wedgedPushed = true;
            progress = true;
        }
        // 2. leader proposes (or re-proposes with a larger mask; takeover adopts older proposals)
        if (!followCommit())
        {
            return true;
        }
        final boolean committed = commitNo != 0;
        if (leader() == me && !committed)
        {
            long mask = suspected;
            long highest = 0;
            for (int r = 0; r < members; r++)
            {
                mask |= table.getAcquire(r, SstLayout.PROPOSAL_MASK);
                highest = Math.max(highest, Math.max(table.getAcquire(r, SstLayout.PROPOSAL_NO),
                    table.getAcquire(r, SstLayout.ACK_NO)));
            }
            if (mask != suspected)
            {
                suspect(mask);
            }
            if (myProposal == 0 || mask != myProposalMask)
            {
                final long no = (((highest >>> 8) + 1) << 8) | me;
                final View next = new View(ctx.view.viewId() + 1, joinersAndUpdates());
                host.registry().publish("p" + no, next);
                myProposal = no;
                myProposalMask = mask;
                table.setRelease(me, SstLayout.PROPOSAL_MASK, mask);
                ctx.transport.pushCounters(SstLayout.PROPOSAL_MASK, 1);
                table.setRelease(me, SstLayout.PROPOSAL_NO, no);
                ctx.transport.pushCounters(SstLayout.PROPOSAL_NO, 1);
                ctx.transport.flush();
                LOG.info("view {}: leader rank {} proposes {} (remove mask {})", ctx.view.viewId(), me,
                    next, Long.toBinaryString(mask));
                ctx.faults.at(FaultPoint.PROPOSAL_PUSHED, ctx.view.viewId(), "");
                progress = true;
            }
        }
        // 3. acknowledge the leader's latest proposal
        final int leader = leader();
        final long proposal = table.getAcquire(leader, SstLayout.PROPOSAL_NO);
        final boolean toAck = proposal > acked && !committed;
        if (toAck && (table.getAcquire(leader, SstLayout.PROPOSAL_MASK) & (1L << me)) != 0)
        {
            exclude("the leader's proposal removes this member from view " + ctx.view.viewId());
            return true;
        }
        if (toAck && !proposalHeld(proposal))
        {
            // Bounded like the wait for a committed proposal at install: a registry that never gets it (a lost
            // connection) must not stall the change for ever.
            final long now = System.nanoTime();
            if (ackWaitProposal != proposal)
            {
                ackWaitProposal = proposal;
                ackWaitStartNs = now;
                LOG.info("view {}: proposal p{} not in the registry yet; acknowledging it once it is",
                    ctx.view.viewId(), proposal);
            }
            else if (now - ackWaitStartNs > joinGraceNs)
            {
                exclude("proposal p" + proposal + " of view " + ctx.view.viewId() + " is missing from the registry after "
                    + joinGraceNs / 1_000_000 + " ms");
                return true;
            }
        }
        else if (toAck)
        {
            final long mask = table.getAcquire(leader, SstLayout.PROPOSAL_MASK);
            if ((mask | suspected) != suspected)
            {
                suspect(mask | suspected);
            }
            table.setRelease(me, SstLayout.PROPOSAL_MASK, mask);
            ctx.transport.pushCounters(SstLayout.PROPOSAL_MASK, 1);
            acked = proposal;
            if (ackCount == ackHistory.length)
            {
                ackHistory = java.util.Arrays.copyOf(ackHistory, 2 * ackCount);
            }
            ackHistory[ackCount++] = proposal;
            table.setRelease(me, SstLayout.ACK_NO, proposal);
            ctx.transport.pushCounters(SstLayout.ACK_NO, 1);
            ctx.transport.flush();
            progress = true;
        }
        // 4. leader commits, if the survivors are a majority of the view (not counting members that left)
        if (leader == me && myProposal != 0 && acked == myProposal && !committed)
        {
            if (!majority())
            {
                exclude("partitioned: the members this one still sees are not a majority of view "
                    + ctx.view.viewId() + " (suspected mask " + Long.toBinaryString(suspected) + ")");
                return true;
            }
            boolean all = true;
            for (int r = 0; r < members && all; r++)
            {
                all = !live(r) || table.getAcquire(r, SstLayout.ACK_NO) == myProposal;
            }
            if (all)
            {
                table.setRelease(me, SstLayout.COMMIT_NO, myProposal);
                ctx.transport.pushCounters(SstLayout.COMMIT_NO, 1);
                ctx.transport.flush();
                ctx.faults.at(FaultPoint.COMMIT_PUSHED, ctx.view.viewId(), "");
                progress = true;
            }
        }
        if (!followCommit())
        {
            return true;
        }
        if (commitNo == 0)
        {
            return progress;
        }
        // 5. drain once every live member wedged
        if (!drainedPushed)
        {
            for (int r = 0; r < members; r++)
            {
                if (live(r) && table.getAcquire(r, SstLayout.WEDGED) == 0)
                {
                    return progress;
                }
            }
            for (final SubgroupEngine e : ctx.engines)
            {
                while (e.receiveTrigger())
                {
                    // Take everything the wedged members published before their WEDGED flag.
                }
            }
            table.setRelease(me, SstLayout.DRAINED, 1);
            ctx.transport.pushCounters(SstLayout.DRAINED, 1);
            ctx.transport.flush();
            drainedPushed = true;
            progress = true;
        }
        // 6. ragged trim per subgroup, only by a member that still sees a majority of the view. The trim is a minimum
        // over the members this member thinks live; when a load spike right after a commit makes members suspect each
        // other (seen in NetnsRejoinTest), each computes a trim over itself alone and may deliver what the others,
        // trimming lower, drop, and all then install the committed view: delivered sequences that differ with nobody
        // excluded. Two majorities always share a member, through whose row each sees the other's trim
        // (the element-wise maximum then converges; the race left is in docs/multicast.md, Known limits); a minority
        // excludes itself here as it would have at the commit.
        if (!majority())
        {
            exclude("partitioned before the ragged trim: the members this one still sees are not a majority of view "
                + ctx.view.viewId() + " (suspected mask " + Long.toBinaryString(suspected) + ")");
            return true;
        }
        final boolean[] liveRanks = new boolean[members];
        for (int r = 0; r < members; r++)
        {
            liveRanks[r] = live(r);
        }
        boolean allDone = true;
        for (int i = 0; i < ctx.engines.length; i++)
        {
            if (!trimDelivered[i])
            {
                progress |= trimStep(i, liveRanks);
                allDone &= trimDelivered[i];
            }
        }
        if (!allDone)
        {
            return progress;
        }
        for (final SubgroupEngine e : ctx.engines)
        {
            if (!e.persistedEverywhere(liveRanks))
            {
                return progress;
            }
        }
        return install() | progress;
    }

    /**
     * A member of the previous view is not a joiner: it has been beating all along, in the previous view's table, until
     * it installs this one. Without this a leader that died after its commit (the committed view still contains it)
     * stayed in the new view for the whole join grace (10 s or more) before anyone suspected it; a view with a dead
     * member that long is one false suspicion under load away from losing its majority. Its suspicion itself is not
     * carried over (Derecho does): when a load spike made every member suspect every other after a commit, each
     * installed the committed view alone-minded, carried its suspicions and excluded itself, where fresh heartbeats in
     * the new table let the view survive (seen in {@code NetnsRejoinTest}). Half the join grace (5 s or more), from the
     * member's last beat this member saw in the previous view, leaves room for a survivor slower than this one to finish
     * the old view's trim and build the new table under load.
     * Predicate thread, right after {@link #start}.
     */
    private void carryLiveness(final View oldView, final long[] oldLastMove)
    {
        for (int r = 0; r < members; r++)
        {
            final int old = oldView.rankOf(ctx.view.members().get(r).memberId());
            if (old >= 0 && r != me)
            {
                continuing[r] = true;
                lastMoveNs[r] = oldLastMove[old];
            }
        }
    }

    /** Failures (suspected members that did not leave) must be fewer than half of the non-leaving members. */
    private boolean majority()
    {
        int leavers = 0;
        int failed = 0;
        for (int r = 0; r < members; r++)
        {
            if (!live(r))
            {
                if ((table.getAcquire(r, SstLayout.SUSPECTED) & (1L << r)) != 0)
                {
                    leavers++;
                }
                else
                {
                    failed++;
                }
            }
        }
        return 2 * failed < members - leavers;
    }

    /**
     * Finds the commit this member follows and echoes it in its own row: the highest {@code COMMIT_NO} in any row (the
     * leader's, or another member's echo). A leader commits only once every member outside its proposal's mask
     * acknowledged it, and a later proposal always carries a higher number, so a highest commit this member never
     * acknowledged is one that removes it. The echo makes a commit survive a leader that dies while pushing it (over
     * tcp it can reach some members and not others; those then waited for a proposal of the next leader, which
     * itself went on with the commit: the change stalled, {@code PartialCommitTest}). It also settles a race between
     * two leaders (a slow leader's commit against the proposal of a successor that suspected it): a member that saw
     * the commit acknowledges nothing more, so the successor's proposal cannot commit, and the successor, which
     * acknowledged the committed proposal too, adopts it through the echo.
     *
     * @return false when this member found itself removed (excluded).
     */
    private boolean followCommit()
    {
        long highest = 0;
        for (int r = 0; r < members; r++)
        {
            highest = Math.max(highest, table.getAcquire(r, SstLayout.COMMIT_NO));
        }
        if (highest == 0 || highest == commitNo)
        {
            return true;
        }
        if (!acknowledged(highest))
        {
            exclude("proposal " + highest + " of view " + ctx.view.viewId()
                + " was committed without this member's acknowledgement: it removes this member");
            return false;
        }
        if (commitNo != 0)
        {
            LOG.info("view {}: follows commit {} instead of {}", ctx.view.viewId(), highest, commitNo);
        }
        commitNo = highest;
        acked = Math.max(acked, highest);
        table.setRelease(me, SstLayout.COMMIT_NO, highest);
        ctx.transport.pushCounters(SstLayout.COMMIT_NO, 1);
        ctx.transport.flush();
        return true;
    }

    private boolean acknowledged(final long proposal)
    {
        for (int i = 0; i < ackCount; i++)
        {
            if (ackHistory[i] == proposal)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether this member's registry holds the proposal it is about to acknowledge. A member acknowledges only then:
     * a network registry carries the proposal on another connection than the row frames, and a leader that dies
     * right after its commit leaves a member that acknowledged without holding the proposal unable to install the
     * committed view (it waited out the join grace and excluded itself, then the others lost their majority).
     */
    private boolean proposalHeld(final long proposal)
    {
        final Optional<View> p = host.registry().read("p" + proposal);
        return p.isPresent() && p.get().viewId() == ctx.view.viewId() + 1;
    }

    private boolean trimStep(final int i, final boolean[] liveRanks)
    {
        final SubgroupEngine e = ctx.engines[i];
        final int[] ranks = e.memberRanks();
        int shardLeader = -1;
        for (final int r : ranks)
        {
            if (liveRanks[r])
            {
                shardLeader = r;
                break;
            }
        }
        if (!e.trimReady(me))
        {
            if (shardLeader == me)
            {
                for (final int r : ranks)
                {
                    if (liveRanks[r] && table.getAcquire(r, SstLayout.DRAINED) == 0)
                    {
                        return false;
                    }
                }
                e.leadTrim(liveRanks);
                return true;
            }
            for (final int r : ranks)
            {
                if (e.trimReady(r))
                {
                    e.copyTrimFrom(r);
                    return true;
                }
            }
            return false;
        }
        // Converge on the element-wise maximum of the ready trims of live members, then deliver.
        boolean allReady = true;
        boolean same = true;
        for (final int r : ranks)
        {
            if (!liveRanks[r] || r == me)
            {
                continue;
            }
            if (!e.trimReady(r))
            {
                allReady = false;
                continue;
            }
            final int cmp = e.compareTrim(r);
            if (cmp > 0)
            {
                e.adoptMaxTrim(r);
                return true;
            }
            same &= cmp == 0;
        }
        if (!allReady || !same)
        {
            return false;
        }
        if (!e.deliverTrim())
        {
            exclude("subgroup " + e.name() + ": the ragged trim of view " + ctx.view.viewId()
                + " covers messages this member never received");
            return true;
        }
        trimDelivered[i] = true;
        return true;
    }

    /** @return whether the view was installed (or this member excluded); false while the proposal is missing. */
    private boolean install()
    {
        final long committedNo = commitNo;
        final Optional<View> next = host.registry().read("p" + committedNo);
        if (next.isEmpty() || next.get().viewId() != ctx.view.viewId() + 1)
        {
            // A network registry carries the proposal on its own connection, which the SST's row frames may overtake:
            // wait for it (bounded), then give up. Proposal numbers restart in every view (they come from the fresh
            // table), so an older view's proposal under the same key is not this one: wait for its replacement.
            final long now = System.nanoTime();
            if (proposalWaitStartNs == 0)
            {
                proposalWaitStartNs = now;
                LOG.info("view {}: committed proposal p{} not in the registry yet{}; waiting for it",
                    ctx.view.viewId(), committedNo, next.isEmpty() ? "" : " (it still holds view " + next.get().viewId()
                    + "'s)");
            }
            if (now - proposalWaitStartNs > joinGraceNs)
            {
                exclude("committed proposal p" + committedNo + " of view " + ctx.view.viewId() + " is missing from "
                    + "the registry after " + joinGraceNs / 1_000_000 + " ms");
                return true;
            }
            return false;
        }
        proposalWaitStartNs = 0;
        final View view = next.get();
        if (!Refounder.publishInstalled(host.registry(), view))
        {
            exclude("view " + view.viewId() + " is already installed with other members (a group re-formed while this "
                + "one was finishing its change): " + host.registry().read("v" + view.viewId()).orElse(null));
            return true;
        }
        final int rank = view.rankOf(host.memberId());
        if (rank < 0)
        {
            exclude("view " + view.viewId() + " does not contain this member");
            return true;
        }
        if (leader() == me)
        {
            ctx.faults.at(FaultPoint.INSTALLING, ctx.view.viewId(), "");
        }
        // Every member, not only the leader, withdraws the members this change removed: a leader that dies between
        // the commit and this point never withdraws them, and a dead member still announced was taken back in by the
        // next leader as a joiner (in one JVM, or on another host, where the pid check cannot tell it is dead).
        for (int r = 0; r < members; r++)
        {
            final long id = ctx.view.members().get(r).memberId();
            if (view.rankOf(id) < 0)
            {
                host.registry().withdraw(id);
            }
        }
        LOG.info("view {} installed after {} ms: {}", view.viewId(), (System.nanoTime() - changeStartNs) / 1_000_000,
            view);
        final ViewContext previous = ctx;
        final ViewContext built = host.build(view, rank);
        final long[] oldLastMove = lastMoveNs;
        final View oldView = ctx.view;
        start(built);
        carryLiveness(oldView, oldLastMove);
        previous.close();
        host.installed(previous, built);
        return true;
    }
}
