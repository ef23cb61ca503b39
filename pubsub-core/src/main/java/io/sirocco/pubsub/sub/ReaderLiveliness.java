package io.sirocco.pubsub.sub;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;

import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.status.Statuses;
import io.sirocco.pubsub.sub.MatchedWriters.WriterState;
import io.sirocco.pubsub.timer.ParticipantTimers;
import io.sirocco.pubsub.timer.TimedCheck;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.status.LivelinessChangedStatus;

/**
 * A DataReader's view of its matched writers' LIVELINESS (DDS 1.4 §2.2.3.11) and its LivelinessChanged status. A
 * matched writer starts alive. A MANUAL_BY_PARTICIPANT or MANUAL_BY_TOPIC writer with a finite lease stays alive while
 * each of its leases holds a message from it (a sample, a dispose, an unregister); a lease that
 * ends without one makes it not alive, and the instances only it wrote become NOT_ALIVE_NO_WRITERS; its next sample or
 * assertion makes it alive again. An AUTOMATIC writer is alive while matched: the multicast's failure detector
 * unmatches it when its participant fails.
 *
 * <p>Threads: {@link #matched}, {@link #unmatched} and {@link #heard} run under the reader's lock (discovery and
 * delivery threads); the lease check on the participant's timer thread, which takes the reader's lock to walk the
 * writers. The counts are guarded by the reader's status lock, taken inside the reader's lock. One check is on the
 * wheel at a time ({@code generation}): arming it for an earlier due time replaces the scheduled one.
 */
final class ReaderLiveliness
{
    private final ReentrantLock lock;
    private final Object statusLock;
    private final MatchedWriters writers;
    private final ParticipantTimers timers;
    private final LongConsumer writerLost;
    private final Runnable raise;
    private volatile boolean closed;
    // Under lock: the generation and due time of the check on the wheel (Long.MAX_VALUE: none).
    private long generation;
    private long scheduledNs = Long.MAX_VALUE;
    /** Under lock: whether the last {@link #scan} found a writer lost. */
    private boolean scanLost;
    // Under statusLock.
    private int aliveCount;
    private int notAliveCount;
    private int aliveChange;
    private int notAliveChange;
    private long lastWriter;

    /**
     * @param writerLost under the reader's lock: a writer lost its liveliness (its instances lose their writer).
     * @param raise      outside the lock: raise LivelinessChanged (and the samples the state changes made).
     */
    ReaderLiveliness(final ReentrantLock lock, final Object statusLock, final MatchedWriters writers,
        final ParticipantTimers timers, final LongConsumer writerLost, final Runnable raise)
    {
        this.lock = lock;
        this.statusLock = statusLock;
        this.writers = writers;
        this.timers = timers;
        this.writerLost = writerLost;
        this.raise = raise;
    }

    /** Under the reader's lock: the writer is matched, alive. */
    void matched(final WriterState writer, final long nowNs)
    {
        writer.heardNs = nowNs;
        writer.alive = true;
        synchronized (statusLock)
        {
            aliveCount++;
            aliveChange++;
            lastWriter = writer.record.guid();
        }
        arm(writer, nowNs);
    }

    /** Under the reader's lock, before the writer leaves {@code writers}: it leaves the count it was in. */
    void unmatched(final long writerGuid)
    {
        final WriterState writer = writers.get(writerGuid);
        if (writer == null)
        {
            return;
        }
        synchronized (statusLock)
        {
            if (writer.alive)
            {
                aliveCount--;
                aliveChange--;
            }
            else
            {
                notAliveCount--;
                notAliveChange--;
            }
            lastWriter = writer.record.guid();
        }
    }

    /**
     * Under the reader's lock, per message of the writer: it asserted its liveliness. No allocation.
     *
     * @return whether it was not alive and now is (the caller raises the status).
     */
    boolean heard(final WriterState writer, final long nowNs)
    {
        if (writer.leaseNs == DurationImpl.INFINITE_NS)
        {
            return false;
        }
        writer.heardNs = nowNs;
        if (writer.alive)
        {
            return false;
        }
        writer.alive = true;
        synchronized (statusLock)
        {
            aliveCount++;
            aliveChange++;
            notAliveCount--;
            notAliveChange--;
            lastWriter = writer.record.guid();
        }
        arm(writer, nowNs);
        return true;
    }

    /** Outside the reader's lock: raises LivelinessChanged after {@link #heard} revived a writer. */
    void raise()
    {
        raise.run();
    }

    private void arm(final WriterState writer, final long nowNs)
    {
        final long due = writer.leaseNs == DurationImpl.INFINITE_NS ? Long.MAX_VALUE : nowNs + writer.leaseNs;
        if (!closed && due - scheduledNs < 0)
        {
            scheduledNs = due;
            timers.add(new Tick(++generation), due);
        }
    }

    /** The reader is closing: the check stops at its next run. */
    void close()
    {
        closed = true;
    }

    /** Under the reader's status lock: the LivelinessChangedStatus; resets its change counts. */
    LivelinessChangedStatus status(final ServiceEnvironment env)
    {
        final LivelinessChangedStatus status = new Statuses.LivelinessChangedStatusImpl(env, aliveCount,
            notAliveCount, aliveChange, notAliveChange,
            lastWriter == 0 ? env.getSPI().nilHandle() : new HandleImpl(env, lastWriter));
        aliveChange = 0;
        notAliveChange = 0;
        return status;
    }

    /** Timer thread, under the reader's lock: each alive leased writer whose lease ended is lost. */
    private long scan(final long nowNs)
    {
        long next = Long.MAX_VALUE;
        scanLost = false;
        for (final WriterState writer : writers.states())
        {
            if (writer.leaseNs == DurationImpl.INFINITE_NS || !writer.alive)
            {
                continue;
            }
            final long due = writer.heardNs + writer.leaseNs;
            if (nowNs - due < 0)
            {
                next = Math.min(next, due);
                continue;
            }
            writer.alive = false;
            synchronized (statusLock)
            {
                aliveCount--;
                aliveChange--;
                notAliveCount++;
                notAliveChange++;
                lastWriter = writer.record.guid();
            }
            writerLost.accept(writer.record.guid());
            scanLost = true;
        }
        return next;
    }

    /** One scheduled run of the lease check. */
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
            final boolean lost;
            final long next;
            lock.lock();
            try
            {
                if (closed || tickGeneration != generation)
                {
                    return DONE;
                }
                next = scan(nowNs);
                lost = scanLost;
                scheduledNs = next;
            }
            finally
            {
                lock.unlock();
            }
            if (lost)
            {
                raise.run();
            }
            return next == Long.MAX_VALUE ? DONE : Math.max(next, nowNs + 1);
        }
    }
}
