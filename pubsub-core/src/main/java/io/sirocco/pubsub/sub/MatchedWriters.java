package io.sirocco.pubsub.sub;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.status.MatchedCounts;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.status.SubscriptionMatchedStatus;

/**
 * The writers a DataReader is matched with: per writer its duplicate filter and TRANSIENT_LOCAL history state
 * ({@link WriterState}), the filters of writers that went away without closing ({@code departed}), and the counts
 * behind the SubscriptionMatchedStatus.
 *
 * <p>Concurrency: two locks, both the reader's. The writer map, {@code departed} and the last-writer shortcut are
 * guarded by the reader's {@code ReentrantLock}: every method but {@link #subscriptionStatus} runs with it
 * held (the discovery thread matching or retracting a
 * writer, the delivery thread matching a writer by its first sample and looking writers up per sample, application
 * threads asking for the matched publications). The matched counts are guarded by the reader's status lock, taken
 * here under the reader's lock (never the other way round). A match or unmatch changes the map and the counts in one
 * status-lock section inside the reader's lock, so the SubscriptionMatchedStatus (read under the status lock) and
 * {@link #handles}/{@link #record} (read under the reader's lock) never disagree: no caller sees a writer in one that
 * the other does not know.
 */
final class MatchedWriters
{
    /** How many departed writers' duplicate filters a reader keeps (see {@code departed}). */
    private static final int MAX_DEPARTED = 1024;

    /** What this reader knows about one matched writer. Guarded by the reader's lock. */
    static final class WriterState
    {
        /** As last announced (a writer announces itself again when its OWNERSHIP_STRENGTH changes). */
        EndpointRecord record;
        /** The lease {@link ReaderLiveliness} watches: a MANUAL_* writer's finite lease, else infinite. */
        final long leaseNs;
        boolean awaitingHistory;
        long lastSeq;
        /** When the writer last asserted its liveliness (a sample, an announcement); see {@link ReaderLiveliness}. */
        long heardNs;
        boolean alive;
        /** OWNERSHIP_STRENGTH, as last announced (changeable). */
        int strength;

        WriterState(final EndpointRecord record, final boolean awaitingHistory)
        {
            this.record = record;
            this.awaitingHistory = awaitingHistory;
            this.leaseNs = record.livelinessKind() == Liveliness.Kind.AUTOMATIC.ordinal() ? DurationImpl.INFINITE_NS :
                record.leaseNs();
            this.strength = record.ownershipStrength();
        }
    }

    private final Object statusLock;
    private final Map<Long, WriterState> writers = new HashMap<>();
    /**
     * The duplicate filter of writers that went away without closing (their member left the view, or this member was
     * excluded): writer GUID to the last sequence number taken from it. Such a writer may come back (a rejoin after a
     * false suspicion) and its member then re-sends what was not acknowledged, the samples this reader may already
     * have taken among them, with their original sequence numbers; its new {@link WriterState} starts from here, so
     * none is taken twice. An entry goes when the writer is matched again, or when its closing retraction arrives; a
     * writer that never comes back (or closes while away, whose retraction this member then never sees) stays until
     * {@value #MAX_DEPARTED} newer ones push it out (a restarted writer has a new GUID, so a stale entry never
     * filters anybody else). Written and read under the reader's lock only: by the discovery thread (a retraction, a
     * match) and by the delivery thread (a writer matched by its first sample); never on the per-sample path.
     */
    private final Map<Long, Long> departed = new LinkedHashMap<>(16, 0.75f, false)
    {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<Long, Long> eldest)
        {
            return size() > MAX_DEPARTED;
        }
    };
    /** Under the status lock. */
    private final MatchedCounts matched = new MatchedCounts();
    private long lastWriterGuid = -1;
    private WriterState lastWriter;

    MatchedWriters(final Object statusLock)
    {
        this.statusLock = statusLock;
    }

    /** The matched writer's state, or null; the per-sample lookup (a one-entry shortcut for the last writer). */
    WriterState get(final long writerGuid)
    {
        if (writerGuid == lastWriterGuid)
        {
            return lastWriter;
        }
        final WriterState state = writers.get(writerGuid);
        if (state != null)
        {
            lastWriterGuid = writerGuid;
            lastWriter = state;
        }
        return state;
    }

    /** Matches the writer; null if it already was matched. */
    WriterState add(final EndpointRecord writer, final boolean awaitingHistory)
    {
        if (writers.containsKey(writer.guid()))
        {
            return null;
        }
        final WriterState state = new WriterState(writer, awaitingHistory);
        final Long before = departed.remove(writer.guid());
        if (before != null)
        {
            state.lastSeq = before; // a writer back after a failure: what it re-sends and we already took is dropped
        }
        synchronized (statusLock)
        {
            writers.put(writer.guid(), state);
            matched.matched(writer.guid());
        }
        return state;
    }

    /**
     * Unmatches the writer; false if it was not matched.
     *
     * @param writerFailed the writer did not close: its member left the view, or this member was excluded. It may come
     *                     back with the same GUID, so its duplicate filter is kept (see {@code departed}).
     */
    boolean remove(final long writerGuid, final boolean writerFailed)
    {
        final WriterState gone;
        synchronized (statusLock)
        {
            gone = writers.remove(writerGuid);
            if (gone != null)
            {
                matched.unmatched(writerGuid);
            }
        }
        if (gone == null)
        {
            if (!writerFailed)
            {
                departed.remove(writerGuid);
            }
            return false;
        }
        if (writerFailed && gone.lastSeq > 0)
        {
            departed.put(writerGuid, gone.lastSeq);
        }
        if (lastWriterGuid == writerGuid)
        {
            lastWriterGuid = -1;
            lastWriter = null;
        }
        return true;
    }

    /** The matched writers' states (under the reader's lock). */
    Collection<WriterState> states()
    {
        return writers.values();
    }

    /** Whether a matched TRANSIENT_LOCAL writer's history has not arrived yet. */
    boolean awaitingHistory()
    {
        boolean waiting = false;
        for (final WriterState writer : writers.values())
        {
            waiting |= writer.awaitingHistory;
        }
        return waiting;
    }

    /** The handles of the matched writers. */
    Set<InstanceHandle> handles(final ServiceEnvironment env)
    {
        final Set<InstanceHandle> handles = new HashSet<>();
        for (final Long writerGuid : writers.keySet())
        {
            handles.add(new HandleImpl(env, writerGuid));
        }
        return handles;
    }

    /** The announcement of a matched writer, or null. */
    EndpointRecord record(final long writerGuid)
    {
        final WriterState writer = writers.get(writerGuid);
        return writer == null ? null : writer.record;
    }

    /** Under the status lock: the SubscriptionMatchedStatus; resets its change counts. */
    SubscriptionMatchedStatus subscriptionStatus(final ServiceEnvironment env)
    {
        return matched.subscription(env);
    }
}
