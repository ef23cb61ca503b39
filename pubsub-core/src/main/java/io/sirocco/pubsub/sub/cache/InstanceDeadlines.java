package io.sirocco.pubsub.sub.cache;

import io.sirocco.pubsub.status.DeadlineMonitor;
import org.omg.dds.sub.InstanceState;

/** A DataReader's instances as its DEADLINE monitor walks them: the ALIVE ones, each with its arrivals. */
public final class InstanceDeadlines
{
    private InstanceDeadlines()
    {
    }

    /** The timer thread, holding the reader's lock: each ALIVE instance to {@link DeadlineMonitor#visit}. */
    public static void forEachAlive(final ReaderHistoryCache<?> cache, final DeadlineMonitor monitor)
    {
        for (final ReaderInstance<?> instance : cache.ordered())
        {
            if (instance.state == InstanceState.ALIVE)
            {
                monitor.visit(instance.handle, instance.deadline);
            }
        }
    }
}
