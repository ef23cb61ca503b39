package io.sirocco.multicast;

import io.sirocco.multicast.smc.SubgroupEngine;
import io.sirocco.multicast.smc.SubgroupStats;
import io.sirocco.multicast.view.ViewContext;

/**
 * A member's statistics over all its views: the sums of the views it left, plus the current view's counters when
 * asked. Written on the predicate thread when a view is replaced ({@link #retire}); read from any thread as a racy
 * snapshot (benchmarks), like the counters it sums.
 */
final class ViewTotals
{
    private final SubgroupStats retiredStats = new SubgroupStats();
    private volatile long retiredPushes;

    /** Predicate thread: adds the counters of a view being replaced. */
    void retire(final ViewContext previous)
    {
        for (final SubgroupEngine e : previous.engines())
        {
            e.stats().addTo(retiredStats);
        }
        retiredPushes += previous.pushCount();
    }

    /** @return every subgroup's statistics over the retired views and {@code current} (may be null). */
    SubgroupStats stats(final ViewContext current)
    {
        final SubgroupStats total = new SubgroupStats();
        retiredStats.addTo(total);
        if (current != null)
        {
            for (final SubgroupEngine e : current.engines())
            {
                e.stats().addTo(total);
            }
        }
        return total;
    }

    /** @return row pushes over the retired views and {@code current} (may be null). */
    long pushCount(final ViewContext current)
    {
        return retiredPushes + (current == null ? 0 : current.pushCount());
    }
}
