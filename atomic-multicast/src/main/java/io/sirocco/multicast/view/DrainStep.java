package io.sirocco.multicast.view;

import io.sirocco.multicast.smc.SubgroupEngine;
import io.sirocco.multicast.sst.SstLayout;

/**
 * Steps 1 and 5 of a view change ({@link ViewManager}): this member wedges (its subgroups stop claiming and sending,
 * everything committed is published, then {@code WEDGED} is pushed), and once every live member wedged and a proposal
 * is committed, it drains (receives until nothing is new) and pushes {@code DRAINED}.
 *
 * <p><b>Threads.</b> Predicate thread only, on the shared {@link ViewState}; {@code WEDGED} and {@code DRAINED} are
 * stored with release semantics after what they announce, then pushed.
 */
final class DrainStep
{
    private final ViewState s;

    DrainStep(final ViewState state)
    {
        this.s = state;
    }

    /** @return false while an application thread holds an open claim on some subgroup (retry next pass). */
    boolean wedge()
    {
        boolean all = true;
        for (final SubgroupEngine e : s.ctx.engines)
        {
            all &= e.wedge();
        }
        if (!all)
        {
            return false;
        }
        s.table.setRelease(s.me, SstLayout.WEDGED, 1);
        s.ctx.transport.pushCounters(SstLayout.WEDGED, 1);
        s.ctx.transport.flush();
        s.wedgedPushed = true;
        return true;
    }

    /** @return false while some live member has not wedged yet. */
    boolean drain()
    {
        for (int r = 0; r < s.members; r++)
        {
            if (s.live(r) && s.table.getAcquire(r, SstLayout.WEDGED) == 0)
            {
                return false;
            }
        }
        for (final SubgroupEngine e : s.ctx.engines)
        {
            while (e.receiveTrigger())
            {
                // Take everything the wedged members published before their WEDGED flag.
            }
        }
        s.table.setRelease(s.me, SstLayout.DRAINED, 1);
        s.ctx.transport.pushCounters(SstLayout.DRAINED, 1);
        s.ctx.transport.flush();
        s.drainedPushed = true;
        return true;
    }
}
