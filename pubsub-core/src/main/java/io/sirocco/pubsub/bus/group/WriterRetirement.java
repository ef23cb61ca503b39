package io.sirocco.pubsub.bus.group;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import io.sirocco.multicast.model.View;
import io.sirocco.pubsub.bus.ReaderQueue;
import io.sirocco.transport.agent.Agents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retirement of closed RELIABLE writers, remote and this member's own. A closing writer sends an end mark in its
 * topic subgroup after its last sample, then its retraction ({@code RETRACT_AFTER_MARK}) in {@code dcps}; the two
 * subgroups are not ordered with each other, so this member applies the retraction only once its topic channel
 * delivered the mark and the channel's local reader windows handed everything before it to their readers. Else the
 * reader's participant would drop the writer, and the samples still on their way with it. Bounded: a member's
 * departure releases its writers at once, a missing mark after {@value #MARK_WAIT_S} s, a reader window that does
 * not drain after {@value #DRAIN_WAIT_S} s.
 *
 * <p>Concurrency: {@code awaitingMark} and {@code marked} are guarded by the group bus's record lock ({@code lock},
 * the same monitor as the bus's record tables, so a retraction and a view change see them consistently). Waiting for
 * marks and for windows to drain runs on one scheduled thread ({@code sirocco-retire-d<N>}), never on the predicate
 * thread; {@code retract} is called with or without the lock held (it takes it itself).
 */
final class WriterRetirement
{
    private static final Logger LOG = LoggerFactory.getLogger(WriterRetirement.class);
    /** How long a retraction waits for its writer's end mark before it is applied anyway (WARN). */
    static final long MARK_WAIT_S = 30;
    /** How long a retraction waits for the local reader windows to hand over what came before its end mark. */
    static final long DRAIN_WAIT_S = 10;

    private final int domainId;
    private final Object lock;
    private final WriterDirectory writers;
    private final LongConsumer retract;
    private final ScheduledExecutorService retirer;
    /** Remote writers closing are a peer's doing: warned about at most once a second. */
    private final RateLimitedWarning late = new RateLimitedWarning(LOG, 1000);
    /** Writers whose {@code RETRACT_AFTER_MARK} arrived before their end mark, with the channel the mark comes in. */
    private final Map<Long, TopicChannel> awaitingMark = new HashMap<>();
    /** Writers whose end mark arrived before their retraction. */
    private final Set<Long> marked = new HashSet<>();

    /**
     * @param lock    the group bus's record lock.
     * @param retract applies a closed writer's retraction (the bus's {@code retractRecord(guid, false)}).
     */
    WriterRetirement(final int domainId, final Object lock, final WriterDirectory writers,
        final LongConsumer retract)
    {
        this.domainId = domainId;
        this.lock = lock;
        this.writers = writers;
        this.retract = retract;
        this.retirer = Executors.newSingleThreadScheduledExecutor(Agents.threadFactory("retire-d" + domainId));
    }

    /**
     * Under the lock, a remote writer's {@code RETRACT_AFTER_MARK} whose topic channel is {@code channel}: whether
     * the retraction waits (for the end mark, or for the windows to drain, the mark being here already). False when
     * closing: the caller applies it at once.
     */
    boolean defer(final long guid, final TopicChannel channel)
    {
        if (marked.remove(guid))
        {
            return drainThenRetract(guid, channel);
        }
        try
        {
            retirer.schedule(() -> markMissing(guid), MARK_WAIT_S, TimeUnit.SECONDS);
        }
        catch (final RejectedExecutionException ex)
        {
            return false; // closing
        }
        awaitingMark.put(guid, channel);
        return true;
    }

    /** Predicate thread: a writer's end mark (remote or own) was delivered by {@code channel}, after its samples. */
    void onEndMark(final long writerGuid, final TopicChannel channel, final View view)
    {
        synchronized (lock)
        {
            if (awaitingMark.remove(writerGuid) != null)
            {
                if (!drainThenRetract(writerGuid, channel))
                {
                    retract.accept(writerGuid);
                }
                return;
            }
            if (!writers.isRetired(writerGuid) && view != null && view.rankOf(SubgroupNames.memberOf(writerGuid)) >= 0)
            {
                marked.add(writerGuid); // its retraction is still on its way in dcps
            }
        }
    }

    /**
     * Under the lock: on the retirer thread, waits until the channel's local reader windows handed everything offered
     * so far (the writer's samples included) to their readers, then retracts the writer. False if closing.
     */
    boolean drainThenRetract(final long guid, final TopicChannel channel)
    {
        final ReaderQueue[] windows = channel.readerArray;
        try
        {
            retirer.execute(() -> awaitDrained(guid, channel.name, windows));
            return true;
        }
        catch (final RejectedExecutionException ex)
        {
            return false;
        }
    }

    private void awaitDrained(final long guid, final String channelName, final ReaderQueue[] windows)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_WAIT_S);
        for (final ReaderQueue window : windows)
        {
            if (!window.awaitDelivered(Math.max(0, deadlineNs - System.nanoTime())))
            {
                late.warn("domain {}: topic subgroup {}: reader {} did not take the samples before writer {}'s " +
                    "retraction within {} s; retracting it anyway", domainId, channelName,
                    String.format("%016x", window.readerGuid()), String.format("%016x", guid), DRAIN_WAIT_S);
            }
        }
        retract.accept(guid);
    }

    /** Retirer thread: a retraction's end mark did not come in time (e.g. trimmed by a view change, never re-sent). */
    private void markMissing(final long guid)
    {
        synchronized (lock)
        {
            if (awaitingMark.remove(guid) == null)
            {
                return;
            }
        }
        late.warn("domain {}: writer {} was retracted but its end mark did not arrive within {} s; retracting it " +
            "now (samples of it still on their way may be dropped)", domainId, String.format("%016x", guid),
            MARK_WAIT_S);
        retract.accept(guid);
    }

    /** Under the lock: the writer is retracted; a mark of it that came first is forgotten. */
    void forget(final long guid)
    {
        marked.remove(guid);
    }

    /** Under the lock: the channel a writer's deferred retraction waits on, removed; null when it does not wait. */
    TopicChannel stopWaiting(final long guid)
    {
        return awaitingMark.remove(guid);
    }

    /** Under the lock: members left the view; their marks that came before their retractions are forgotten. */
    void forgetMarksOf(final List<Long> leftMembers)
    {
        marked.removeIf(guid -> leftMembers.contains(SubgroupNames.memberOf(guid)));
    }

    /** Under the lock: this member was excluded; nothing waits any longer. */
    void clear()
    {
        awaitingMark.clear();
        marked.clear();
    }

    void shutdownNow()
    {
        retirer.shutdownNow();
    }
}
