package io.sirocco.pubsub.status;

import io.sirocco.pubsub.core.HandleImpl;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.status.OfferedDeadlineMissedStatus;
import org.omg.dds.core.status.RequestedDeadlineMissedStatus;

/**
 * The counts of an Offered (writer) or Requested (reader) DeadlineMissed status: total, change since the last read,
 * and the last instance that missed. Guarded by the owning endpoint's {@code statusLock}: every method runs under it.
 */
public final class DeadlineMissedCounts
{
    private int total;
    private int change;
    private long lastInstance;

    /** {@code count} more misses of {@code instanceHandle}. */
    public void missed(final long instanceHandle, final int count)
    {
        total += count;
        change += count;
        lastInstance = instanceHandle;
    }

    public RequestedDeadlineMissedStatus requested(final ServiceEnvironment env)
    {
        final RequestedDeadlineMissedStatus status = new Statuses.RequestedDeadlineMissedStatusImpl(env, total, change,
            lastInstance == 0 ? env.getSPI().nilHandle() : new HandleImpl(env, lastInstance));
        change = 0;
        return status;
    }

    public OfferedDeadlineMissedStatus offered(final ServiceEnvironment env)
    {
        final OfferedDeadlineMissedStatus status = new Statuses.OfferedDeadlineMissedStatusImpl(env, total, change,
            lastInstance == 0 ? env.getSPI().nilHandle() : new HandleImpl(env, lastInstance));
        change = 0;
        return status;
    }
}
