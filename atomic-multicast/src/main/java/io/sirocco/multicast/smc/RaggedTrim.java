package io.sirocco.multicast.smc;

import io.sirocco.multicast.fault.FaultInjector;
import io.sirocco.multicast.fault.FaultPoint;

/**
 * One subgroup's part of the ragged trim at a view change: the shard leader computes {@code TRIM[k]} (the minimum over
 * live members of {@code RECEIVED[k]}) or adopts a previous leader's, followers echo it, and a member seeing a larger
 * ready trim adopts the element-wise maximum. Delivering up to the trim is {@link OrderedDelivery#deliverTrim()}.
 *
 * <p><b>Threads.</b> Predicate thread only. {@code TRIM[]} is stored with release semantics and pushed before
 * {@code TRIM_READY} (also release, then pushed), so a member that acquires another's {@code TRIM_READY} reads its
 * whole trim.
 */
final class RaggedTrim extends SubgroupSlots
{
    /** Predicate thread only (set once when the view's context is built). */
    private FaultInjector faults = FaultInjector.NONE;
    private long viewId;

    RaggedTrim(final SubgroupSlots slots)
    {
        super(slots);
    }

    /** See {@link SubgroupEngine#faultInjector}. */
    void faultInjector(final FaultInjector injector, final long view)
    {
        this.faults = injector;
        this.viewId = view;
    }

    /** See {@link SubgroupEngine#leadTrim}. */
    void leadTrim(final boolean[] live)
    {
        for (final int m : memberRanks)
        {
            if (table.getAcquire(m, offTrimReady) != 0)
            {
                copyTrimFrom(m);
                return;
            }
        }
        for (int k = 0; k < senders; k++)
        {
            long min = Long.MAX_VALUE;
            for (final int m : memberRanks)
            {
                if (live[m])
                {
                    min = Math.min(min, table.getAcquire(m, offReceived + 8L * k));
                }
            }
            table.setRelease(myRank, offTrim + 8L * k, min == Long.MAX_VALUE ? 0 : min);
        }
        publishTrim();
    }

    /** See {@link SubgroupEngine#copyTrimFrom}. */
    void copyTrimFrom(final int from)
    {
        for (int k = 0; k < senders; k++)
        {
            table.setRelease(myRank, offTrim + 8L * k, table.getAcquire(from, offTrim + 8L * k));
        }
        publishTrim();
    }

    private void publishTrim()
    {
        transport.pushCounters(offTrim, senders);
        transport.flush();
        faults.at(FaultPoint.TRIM_VALUES_PUSHED, viewId, name);
        table.setRelease(myRank, offTrimReady, 1);
        transport.pushCounters(offTrimReady, 1);
        transport.flush();
        faults.at(FaultPoint.TRIM_READY_PUSHED, viewId, name);
    }

    /** See {@link SubgroupEngine#compareTrim}. */
    int compareTrim(final int rank)
    {
        int result = 0;
        for (int k = 0; k < senders; k++)
        {
            final long theirs = table.getAcquire(rank, offTrim + 8L * k);
            final long mine = table.getAcquire(myRank, offTrim + 8L * k);
            if (theirs > mine)
            {
                return 1;
            }
            if (theirs < mine)
            {
                result = -1;
            }
        }
        return result;
    }

    /** See {@link SubgroupEngine#adoptMaxTrim}. */
    void adoptMaxTrim(final int rank)
    {
        for (int k = 0; k < senders; k++)
        {
            final long theirs = table.getAcquire(rank, offTrim + 8L * k);
            if (theirs > table.getAcquire(myRank, offTrim + 8L * k))
            {
                table.setRelease(myRank, offTrim + 8L * k, theirs);
            }
        }
        publishTrim();
    }

    boolean trimReady(final int rank)
    {
        return table.getAcquire(rank, offTrimReady) != 0;
    }
}
