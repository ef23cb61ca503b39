package io.sirocco.pubsub.status;

import java.util.concurrent.locks.Lock;

import io.sirocco.pubsub.timer.DeadlineTrack;
import io.sirocco.pubsub.timer.ParticipantTimers;
import io.sirocco.pubsub.timer.TimedCheck;

/**
 * An endpoint's DEADLINE monitor (DDS 1.4 §2.2.3.7): on the participant's timer wheel, once per period at most, it
 * walks the endpoint's instances under the endpoint's lock, counts each whole period an instance went without an
 * update ({@link DeadlineTrack}) in the Offered or Requested DeadlineMissed counts, and raises the status. The period
 * may change ({@link #period}, from setQos): the check of the old period ends at its next run.
 *
 * <p>Threads: {@link #period} from any thread (synchronized on this monitor); {@link Tick#onDeadline} and
 * {@link #visit} on the timer thread, the latter under the endpoint's lock; the counts under its {@code statusLock}.
 * The status's listener runs on the timer thread, so it delays the participant's other deadlines while it runs.
 */
public final class DeadlineMonitor
{
    /** An endpoint's instances, as the monitor walks them (called under the endpoint's lock). */
    public interface Instances
    {
        void forEach(DeadlineMonitor monitor);
    }

    private final Lock lock;
    private final Object statusLock;
    private final DeadlineMissedCounts counts;
    private final Instances instances;
    private final Runnable raise;
    private final ParticipantTimers timers;
    private volatile long periodNs = Long.MAX_VALUE;
    private volatile boolean closed;
    private long generation;
    // Scan state: timer thread only, under lock.
    private long scanNowNs;
    private long scanPeriodNs;
    private long scanNextNs;
    private boolean scanMissed;

    /**
     * @param lock       the endpoint's lock, which guards its instances.
     * @param statusLock guards {@code counts}.
     * @param raise      raises the status (sets its bit, calls the listener); run outside {@code lock}.
     */
    public DeadlineMonitor(final Lock lock, final Object statusLock, final DeadlineMissedCounts counts,
        final Instances instances, final Runnable raise, final ParticipantTimers timers)
    {
        this.lock = lock;
        this.statusLock = statusLock;
        this.counts = counts;
        this.instances = instances;
        this.raise = raise;
        this.timers = timers;
    }

    /** Whether a finite period is monitored; the data path updates the tracks only then. */
    public boolean active()
    {
        return periodNs != Long.MAX_VALUE;
    }

    /** Sets the period ({@code Long.MAX_VALUE}: infinite, nothing monitored); a finite one starts a check. */
    public synchronized void period(final long newPeriodNs)
    {
        if (newPeriodNs == periodNs || closed)
        {
            return;
        }
        periodNs = newPeriodNs;
        generation++;
        if (newPeriodNs != Long.MAX_VALUE)
        {
            timers.add(new Tick(generation), System.nanoTime() + newPeriodNs);
        }
    }

    /** The endpoint is closed: no more checks. */
    public void close()
    {
        closed = true;
    }

    private synchronized boolean current(final long tickGeneration)
    {
        return !closed && tickGeneration == generation;
    }

    /** {@link Instances#forEach} calls this for each monitored instance (timer thread, under the lock). */
    public void visit(final long instanceHandle, final DeadlineTrack track)
    {
        final int missed = track.missed(scanNowNs, scanPeriodNs);
        if (missed > 0)
        {
            synchronized (statusLock)
            {
                counts.missed(instanceHandle, missed);
            }
            scanMissed = true;
        }
        scanNextNs = Math.min(scanNextNs, track.dueNs(scanPeriodNs));
    }

    /** One scheduled run for one period setting. */
    private final class Tick implements TimedCheck
    {
        private final long tickGeneration;

        Tick(final long tickGeneration)
        {
            this.tickGeneration = tickGeneration;
        }

        @Override
        public long onDeadline(final long nowNs)
        {
            if (!current(tickGeneration))
            {
                return DONE;
            }
            final long period = periodNs;
            lock.lock();
            try
            {
                scanNowNs = nowNs;
                scanPeriodNs = period;
                scanNextNs = nowNs + period;
                scanMissed = false;
                instances.forEach(DeadlineMonitor.this);
            }
            finally
            {
                lock.unlock();
            }
            if (scanMissed)
            {
                raise.run();
            }
            // Never sooner than a tick from now: a track due in the past was just counted.
            return Math.max(scanNextNs, nowNs + 1);
        }
    }
}
