package io.sirocco.pubsub.sub;

import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.status.Statuses;
import io.sirocco.pubsub.sub.cache.RejectionSink;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.status.SampleLostStatus;
import org.omg.dds.core.status.SampleRejectedStatus;

/**
 * The counts behind a DataReader's SampleLostStatus and SampleRejectedStatus. A batch counts its losses and
 * rejections as pending; at the batch's end they are published to the statuses, and the listeners are called.
 *
 * <p>Concurrency: the pending counts are guarded by the reader's {@code ReentrantLock} (the delivery thread counts
 * them, the thread that ends the batch drains them). The status counts and the last rejection's reason and instance
 * are guarded by the reader's status lock, taken here under the reader's lock or alone (never the other way round).
 */
final class SampleStatusCounts implements RejectionSink
{
    private final Object statusLock;
    private int pendingLost;
    private int pendingRejected;
    // under statusLock
    private int lostTotal;
    private int lostChange;
    private int rejectedTotal;
    private int rejectedChange;
    private SampleRejectedStatus.Kind rejectedReason = SampleRejectedStatus.Kind.NOT_REJECTED;
    private long rejectedInstance;

    SampleStatusCounts(final Object statusLock)
    {
        this.statusLock = statusLock;
    }

    /** Under the reader's lock: {@code count} samples were lost. */
    void lost(final int count)
    {
        pendingLost += count;
    }

    /** Under the reader's lock. */
    @Override
    public void onRejected(final SampleRejectedStatus.Kind reason, final long instanceHandle)
    {
        pendingRejected++;
        synchronized (statusLock)
        {
            rejectedReason = reason;
            rejectedInstance = instanceHandle;
        }
    }

    /** Under the reader's lock: the losses counted since the last drain; resets them. */
    int drainLost()
    {
        final int lost = pendingLost;
        pendingLost = 0;
        return lost;
    }

    /** Under the reader's lock: the rejections counted since the last drain; resets them. */
    int drainRejected()
    {
        final int rejected = pendingRejected;
        pendingRejected = 0;
        return rejected;
    }

    /** Adds drained counts to the statuses (takes the status lock). */
    void publish(final int lost, final int rejected)
    {
        if (lost > 0)
        {
            synchronized (statusLock)
            {
                lostTotal += lost;
                lostChange += lost;
            }
        }
        if (rejected > 0)
        {
            synchronized (statusLock)
            {
                rejectedTotal += rejected;
                rejectedChange += rejected;
            }
        }
    }

    /** Under the status lock: the SampleLostStatus; resets its change count. */
    SampleLostStatus lostStatus(final ServiceEnvironment env)
    {
        final SampleLostStatus status = new Statuses.SampleLostStatusImpl(env, lostTotal, lostChange);
        lostChange = 0;
        return status;
    }

    /** Under the status lock: the SampleRejectedStatus; resets its change count. */
    SampleRejectedStatus rejectedStatus(final ServiceEnvironment env)
    {
        final SampleRejectedStatus status = new Statuses.SampleRejectedStatusImpl(env, rejectedTotal,
            rejectedChange, rejectedReason, new HandleImpl(env, rejectedInstance));
        rejectedChange = 0;
        return status;
    }
}
