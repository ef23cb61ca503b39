package io.sirocco.multicast.view;

import io.sirocco.multicast.smc.SubgroupEngine;
import io.sirocco.multicast.sst.SstLayout;

/**
 * Step 6 of a view change ({@link ViewManager}), the ragged trim of one subgroup: when all live members drained, the
 * shard leader (lowest live member of the subgroup) publishes the trim, or adopts one some row already holds;
 * followers echo it; a member seeing a larger ready trim in a live row adopts the element-wise maximum; when every
 * live member holds the same ready trim, this member delivers exactly the messages below it.
 *
 * <p><b>Threads.</b> Predicate thread only, on the shared {@link ViewState}; the trim's own release/acquire pairs are
 * the subgroup engine's ({@code TRIM[]} before {@code TRIM_READY}).
 */
final class TrimStep
{
    private final ViewState s;

    TrimStep(final ViewState state)
    {
        this.s = state;
    }

    /**
     * One step of subgroup {@code i}'s trim; sets {@code trimDelivered[i]} once it delivered.
     *
     * @return progress (or this member excluded itself).
     */
    boolean step(final int i, final boolean[] liveRanks)
    {
        final SubgroupEngine e = s.ctx.engines[i];
        if (!e.trimReady(s.me))
        {
            return publish(e, liveRanks);
        }
        // Converge on the element-wise maximum of the ready trims of live members, then deliver.
        boolean allReady = true;
        boolean same = true;
        for (final int r : e.memberRanks())
        {
            if (!liveRanks[r] || r == s.me)
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
            s.exclude("subgroup " + e.name() + ": the ragged trim of view " + s.ctx.view.viewId()
                + " covers messages this member never received");
            return true;
        }
        s.trimDelivered[i] = true;
        return true;
    }

    /** This member holds no trim yet: the shard leader computes it once all drained, the others copy a ready one. */
    private boolean publish(final SubgroupEngine e, final boolean[] liveRanks)
    {
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
        if (shardLeader == s.me)
        {
            for (final int r : ranks)
            {
                if (liveRanks[r] && s.table.getAcquire(r, SstLayout.DRAINED) == 0)
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
}
