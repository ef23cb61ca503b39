package io.sirocco.pubsub.pub;

import java.util.concurrent.atomic.AtomicBoolean;

import io.sirocco.pubsub.status.Statuses;
import io.sirocco.pubsub.timer.ParticipantTimers;
import io.sirocco.pubsub.timer.TimedCheck;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.status.LivelinessLostStatus;

/**
 * A DataWriter's offered LIVELINESS (DDS 1.4 §2.2.3.11) and its LivelinessLost status. Only a MANUAL_BY_PARTICIPANT or
 * MANUAL_BY_TOPIC writer with a finite lease is watched: it stays alive while each lease holds a write (any message
 * it sends), a {@code DataWriter.assertLiveliness}, or (MANUAL_BY_PARTICIPANT) a
 * {@code DomainParticipant.assertLiveliness}; a lease that ends without one counts one loss, and the writer stays
 * lost until it asserts again. An AUTOMATIC writer is alive while its participant is a member of the domain's group:
 * the multicast's failure detector, not a lease here, takes it out.
 *
 * <p>Readers learn of an assertion from the writer's messages only: an {@code assertLiveliness} that sends nothing
 * renews this writer's own lease but does not reach its readers yet (that needs a liveliness message kind on the
 * bus; see docs/dds.md).
 *
 * <p>Threads: {@link #sent} runs on the write path under the writer's lock (two volatile stores, no allocation);
 * {@link #asserted} on application threads; the lease check on the participant's timer thread. {@code armed} says
 * whether the check is on the wheel: the check drops itself when it counts a loss, and the next assertion puts it
 * back (a compare-and-set, so once). The counts are guarded by the writer's {@code statusLock}.
 */
public final class WriterLiveliness implements TimedCheck
{
    private final boolean watched;
    private final long leaseNs;
    private final Object statusLock;
    private final ParticipantTimers timers;
    private final Runnable raiseLost;
    private final AtomicBoolean armed = new AtomicBoolean();
    private volatile long assertedNs;
    private volatile boolean closed;
    private int lostTotal;
    private int lostChange;

    /**
     * @param raiseLost raises LivelinessLost (status bit, listener); run on the timer thread, no lock held.
     */
    public WriterLiveliness(final Liveliness liveliness, final long leaseNs, final Object statusLock,
        final ParticipantTimers timers, final Runnable raiseLost)
    {
        this.watched = liveliness.getKind() != Liveliness.Kind.AUTOMATIC && leaseNs != Long.MAX_VALUE;
        this.leaseNs = leaseNs;
        this.statusLock = statusLock;
        this.timers = timers;
        this.raiseLost = raiseLost;
    }

    /** The writer is enabled: its first lease starts now. */
    public void start(final long nowNs)
    {
        if (watched)
        {
            assertedNs = nowNs;
            // A participant's assertLiveliness before this writer was enabled may have armed the check already.
            if (armed.compareAndSet(false, true))
            {
                timers.add(this, nowNs + leaseNs);
            }
        }
    }

    /** The writer sent a message (write, dispose, unregister): an assertion its readers see with the message. */
    void sent(final long nowNs)
    {
        if (watched)
        {
            assertedNs = nowNs;
            rearm(nowNs);
        }
    }

    /** {@code assertLiveliness} on the writer (or, for MANUAL_BY_PARTICIPANT, on its participant). */
    public void asserted(final long nowNs)
    {
        sent(nowNs);
    }

    private void rearm(final long nowNs)
    {
        if (!armed.get() && !closed && armed.compareAndSet(false, true))
        {
            timers.add(this, nowNs + leaseNs);
        }
    }

    @Override
    public long onDeadline(final long nowNs)
    {
        if (closed)
        {
            return DONE;
        }
        final long due = assertedNs + leaseNs;
        if (nowNs - due < 0)
        {
            return due;
        }
        armed.set(false);
        // An assertion between the read above and this point saw the check still armed: it is not a loss.
        final long since = assertedNs;
        if (nowNs - since - leaseNs < 0)
        {
            return armed.compareAndSet(false, true) ? since + leaseNs : DONE;
        }
        synchronized (statusLock)
        {
            lostTotal++;
            lostChange++;
        }
        raiseLost.run();
        return DONE;
    }

    /** Under the writer's status lock: the LivelinessLostStatus; resets its change count. */
    public LivelinessLostStatus status(final ServiceEnvironment env)
    {
        final LivelinessLostStatus status = new Statuses.LivelinessLostStatusImpl(env, lostTotal, lostChange);
        lostChange = 0;
        return status;
    }

    /** The writer is closing: no more checks. */
    public void close()
    {
        closed = true;
    }
}
