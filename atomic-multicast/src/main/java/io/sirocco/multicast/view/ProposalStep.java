package io.sirocco.multicast.view;

import io.sirocco.multicast.model.View;
import io.sirocco.multicast.fault.FaultPoint;
import io.sirocco.multicast.sst.SstLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * Steps 2 to 4 of a view change ({@link ViewManager}): the leader proposes the next view (or re-proposes with a larger
 * mask; a takeover adopts older proposals), members acknowledge the leader's latest proposal once their registry holds
 * it, the leader commits once every live member acknowledged, and every member follows (and echoes) the highest
 * commit in any row.
 *
 * <p><b>Threads.</b> Predicate thread only, on the shared {@link ViewState}. Each control word is stored in this
 * member's row with release semantics, then pushed; other rows are read with acquire semantics. A step that excludes
 * this member returns at once; the caller checks {@link ViewState#excluded}.
 */
final class ProposalStep
{
    private static final Logger LOG = LoggerFactory.getLogger(ProposalStep.class);

    private final ViewState s;

    ProposalStep(final ViewState state)
    {
        this.s = state;
    }

    /** Leader, nothing committed: (re-)proposes when there is no proposal yet or the mask grew. */
    boolean propose()
    {
        long mask = s.suspected;
        long highest = 0;
        for (int r = 0; r < s.members; r++)
        {
            mask |= s.table.getAcquire(r, SstLayout.PROPOSAL_MASK);
            highest = Math.max(highest, Math.max(s.table.getAcquire(r, SstLayout.PROPOSAL_NO),
                s.table.getAcquire(r, SstLayout.ACK_NO)));
        }
        if (mask != s.suspected)
        {
            s.suspect(mask);
        }
        if (s.myProposal != 0 && mask == s.myProposalMask)
        {
            return false;
        }
        final ViewContext ctx = s.ctx;
        final long no = (((highest >>> 8) + 1) << 8) | s.me;
        final View next = new View(ctx.view.viewId() + 1, s.joinersAndUpdates());
        s.registry.publish("p" + no, next);
        s.myProposal = no;
        s.myProposalMask = mask;
        s.table.setRelease(s.me, SstLayout.PROPOSAL_MASK, mask);
        ctx.transport.pushCounters(SstLayout.PROPOSAL_MASK, 1);
        s.table.setRelease(s.me, SstLayout.PROPOSAL_NO, no);
        ctx.transport.pushCounters(SstLayout.PROPOSAL_NO, 1);
        ctx.transport.flush();
        LOG.info("view {}: leader rank {} proposes {} (remove mask {})", ctx.view.viewId(), s.me,
            next, Long.toBinaryString(mask));
        ctx.faults.at(FaultPoint.PROPOSAL_PUSHED, ctx.view.viewId(), "");
        return true;
    }

    /** Acknowledges the leader's latest proposal once this member's registry holds it. */
    boolean acknowledge(final int leader, final boolean committed)
    {
        final ViewContext ctx = s.ctx;
        final long proposal = s.table.getAcquire(leader, SstLayout.PROPOSAL_NO);
        final boolean toAck = proposal > s.acked && !committed;
        if (toAck && (s.table.getAcquire(leader, SstLayout.PROPOSAL_MASK) & (1L << s.me)) != 0)
        {
            s.exclude("the leader's proposal removes this member from view " + ctx.view.viewId());
            return true;
        }
        if (toAck && !proposalHeld(proposal))
        {
            awaitProposal(proposal);
            return false;
        }
        if (!toAck)
        {
            return false;
        }
        final long mask = s.table.getAcquire(leader, SstLayout.PROPOSAL_MASK);
        if ((mask | s.suspected) != s.suspected)
        {
            s.suspect(mask | s.suspected);
        }
        s.table.setRelease(s.me, SstLayout.PROPOSAL_MASK, mask);
        ctx.transport.pushCounters(SstLayout.PROPOSAL_MASK, 1);
        s.acked = proposal;
        if (s.ackCount == s.ackHistory.length)
        {
            s.ackHistory = java.util.Arrays.copyOf(s.ackHistory, 2 * s.ackCount);
        }
        s.ackHistory[s.ackCount++] = proposal;
        s.table.setRelease(s.me, SstLayout.ACK_NO, proposal);
        ctx.transport.pushCounters(SstLayout.ACK_NO, 1);
        ctx.transport.flush();
        return true;
    }

    /**
     * Bounded like the wait for a committed proposal at install: a registry that never gets it (a lost connection)
     * must not stall the change for ever.
     */
    private void awaitProposal(final long proposal)
    {
        final long now = System.nanoTime();
        if (s.ackWaitProposal != proposal)
        {
            s.ackWaitProposal = proposal;
            s.ackWaitStartNs = now;
            LOG.info("view {}: proposal p{} not in the registry yet; acknowledging it once it is",
                s.ctx.view.viewId(), proposal);
        }
        else if (now - s.ackWaitStartNs > s.joinGraceNs)
        {
            s.exclude("proposal p" + proposal + " of view " + s.ctx.view.viewId()
                + " is missing from the registry after " + s.joinGraceNs / 1_000_000 + " ms");
        }
    }

    /** The leader commits, if the survivors are a majority of the view (not counting members that left). */
    boolean commit(final int leader, final boolean committed)
    {
        if (leader != s.me || s.myProposal == 0 || s.acked != s.myProposal || committed)
        {
            return false;
        }
        final ViewContext ctx = s.ctx;
        if (!s.majority())
        {
            s.exclude("partitioned: the members this one still sees are not a majority of view "
                + ctx.view.viewId() + " (suspected mask " + Long.toBinaryString(s.suspected) + ")");
            return true;
        }
        boolean all = true;
        for (int r = 0; r < s.members && all; r++)
        {
            all = !s.live(r) || s.table.getAcquire(r, SstLayout.ACK_NO) == s.myProposal;
        }
        if (!all)
        {
            return false;
        }
        s.table.setRelease(s.me, SstLayout.COMMIT_NO, s.myProposal);
        ctx.transport.pushCounters(SstLayout.COMMIT_NO, 1);
        ctx.transport.flush();
        ctx.faults.at(FaultPoint.COMMIT_PUSHED, ctx.view.viewId(), "");
        return true;
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
    boolean followCommit()
    {
        long highest = 0;
        for (int r = 0; r < s.members; r++)
        {
            highest = Math.max(highest, s.table.getAcquire(r, SstLayout.COMMIT_NO));
        }
        if (highest == 0 || highest == s.commitNo)
        {
            return true;
        }
        final ViewContext ctx = s.ctx;
        if (!acknowledged(highest))
        {
            s.exclude("proposal " + highest + " of view " + ctx.view.viewId()
                + " was committed without this member's acknowledgement: it removes this member");
            return false;
        }
        if (s.commitNo != 0)
        {
            LOG.info("view {}: follows commit {} instead of {}", ctx.view.viewId(), highest, s.commitNo);
        }
        s.commitNo = highest;
        s.acked = Math.max(s.acked, highest);
        s.table.setRelease(s.me, SstLayout.COMMIT_NO, highest);
        ctx.transport.pushCounters(SstLayout.COMMIT_NO, 1);
        ctx.transport.flush();
        return true;
    }

    private boolean acknowledged(final long proposal)
    {
        for (int i = 0; i < s.ackCount; i++)
        {
            if (s.ackHistory[i] == proposal)
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
        final Optional<View> p = s.registry.read("p" + proposal);
        return p.isPresent() && p.get().viewId() == s.ctx.view.viewId() + 1;
    }
}
