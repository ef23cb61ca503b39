package io.sirocco.multicast.view;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.sst.SstLayout;
import io.sirocco.multicast.sst.SstTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The membership state of the current view that the steps of a view change share ({@link ViewManager} runs them:
 * {@link ProposalStep}, {@link DrainStep}, {@link TrimStep}): who is suspected, the proposal this member made or
 * acknowledged, the commit it follows, how far the wedge, drain and trim went; and the rules every step asks (the
 * leader, liveness, the majority), the suspicion push and the exclusion.
 *
 * <p><b>Threads.</b> Confined to the predicate thread (the engine thread: membership triggers never run inline), so
 * nothing here is locked or volatile. Rows are read with acquire and this member's control words stored with release
 * semantics before each push, as in {@link SstLayout}.
 */
final class ViewState
{
    private static final Logger LOG = LoggerFactory.getLogger(ViewState.class);
    private static final String LOCAL_HOST = Member.localHost();

    final MembershipRegistry registry;
    private final Consumer<String> onExcluded;
    /** How long a change waits for a proposal the registry does not hold yet, and a joiner's first beat. */
    final long joinGraceNs;

    ViewContext ctx;
    SstTable table;
    int me;
    int members;
    long suspected;
    boolean excluded;
    boolean changing;
    long changeStartNs;
    boolean wedgedPushed;
    long myProposal;
    long myProposalMask = -1;
    long acked;
    /** Every proposal number this member acknowledged in this view (a takeover can make it ack several). */
    long[] ackHistory = new long[4];
    int ackCount;
    /** The commit this member follows (0: none yet): the highest commit in any row of a proposal it acknowledged. */
    long commitNo;
    boolean drainedPushed;
    boolean[] trimDelivered;
    long proposalWaitStartNs;
    /** The proposal this member waits for its registry to hold before it acknowledges it, and since when. */
    long ackWaitProposal;
    long ackWaitStartNs;

    /**
     * @param registry    the group's registry.
     * @param onExcluded  told once this member is out of the group (the group's host).
     * @param joinGraceNs the join grace.
     */
    ViewState(final MembershipRegistry registry, final Consumer<String> onExcluded, final long joinGraceNs)
    {
        this.registry = registry;
        this.onExcluded = onExcluded;
        this.joinGraceNs = joinGraceNs;
    }

    /** Starts a freshly built view: nothing suspected, no change in progress. */
    void reset(final ViewContext context)
    {
        ctx = context;
        table = context.table;
        me = context.myRank;
        members = context.view.members().size();
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
    }

    /** Suspects the ranks of {@code mask}: freezes the newly suspected ones and pushes SUSPECTED. */
    void suspect(final long mask)
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

    void exclude(final String reason)
    {
        excluded = true;
        LOG.warn("excluded from the group: {}", reason);
        onExcluded.accept(reason);
    }

    int leader()
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

    boolean live(final int r)
    {
        return (suspected & (1L << r)) == 0;
    }

    /**
     * Failures (suspected members that did not leave) must be fewer than half of the non-leaving members. A member of
     * this host whose process is gone counts as a leaver, not a failure: the majority rule guards against a partition
     * whose other side runs on, and a dead process is on no side. Without this, killing the majority of a view's
     * processes at once (a script stopping its helpers, a soak's churn) made the survivors exclude themselves as a
     * minority and drop what was in flight, although no partition could exist. A member whose death cannot be proven
     * (another host, a frozen process, a reused pid) still counts as a failure.
     */
    boolean majority()
    {
        int leavers = 0;
        int failed = 0;
        for (int r = 0; r < members; r++)
        {
            if (!live(r))
            {
                if (leftOrDead((table.getAcquire(r, SstLayout.SUSPECTED) & (1L << r)) != 0, ctx.view.members().get(r)))
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
     * @param left whether the member suspected itself (it leaves).
     * @return whether a suspected member does not count against the majority: it leaves, or its process surely ended.
     */
    static boolean leftOrDead(final boolean left, final Member member)
    {
        return left || !alive(member);
    }

    /** The next member list: current members minus suspected, with updated registrations, plus live joiners. */
    List<Member> joinersAndUpdates()
    {
        final List<Member> announced = registry.announced();
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

    static String localHost()
    {
        return LOCAL_HOST;
    }

    /** @return false only for a member of this host whose process is gone (another host's cannot be told). */
    static boolean alive(final Member m)
    {
        if (!m.host().equals(localHost()))
        {
            return true;
        }
        return ProcessHandle.of(m.pid()).map(ProcessHandle::isAlive).orElse(false);
    }
}
