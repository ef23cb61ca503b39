package io.sirocco.pubsub.sub;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.dds.loan.InPlaceSampleListener;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.DeliveryHandler;
import io.sirocco.pubsub.content.ContentFilter;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.sub.MatchedWriters.WriterState;
import io.sirocco.pubsub.sub.cache.LifespanFilter;
import io.sirocco.pubsub.sub.cache.ReaderHistoryCache;
import io.sirocco.pubsub.topic.SampleOps;
import io.sirocco.transport.log.RateLimitedWarning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a DataReader's delivery thread does with each bus message: finds its matched writer, drops what that
 * writer's duplicate filter or TRANSIENT_LOCAL replay state says was seen, and hands the sample to the in-place
 * listener or deserializes it (into a pooled data object) into the history cache. A ContentFilteredTopic's filter
 * runs first, on the serialized bytes where the type has a flat view, else on the deserialized sample: a rejected
 * sample goes nowhere (reader-side filtering).
 *
 * <p>Concurrency: runs on the reader's delivery thread. The bus calls {@link #onMessage} and {@link #onLost} for
 * each message of a batch: the first takes the reader's {@code ReentrantLock} and it stays held until
 * {@link #onBatchEnd}, which releases it before the reader's listeners are called ({@link Host#batchEnded}). All
 * the state touched here (the cache, the matched writers, the pending counts) is guarded by that lock.
 * {@code inPlace} is volatile: set by an application thread, read per message.
 */
final class ReaderDelivery<T> implements DeliveryHandler, CoherentArrivals.Sink
{
    private static final Logger LOG = LoggerFactory.getLogger(ReaderDelivery.class);

    /** What the delivery needs from its reader. */
    interface Host
    {
        /** Under the reader's lock: matches a writer whose first sample overtook its announcement; null if none. */
        WriterState lateMatch(long writerGuid);

        /** Whether the bus may run this reader's batches on its own thread (see {@link DeliveryHandler}). */
        boolean inlineSafe();

        /** After a batch, outside the reader's lock: statuses, WaitSets and listeners. */
        void batchEnded();
    }

    private final String name;
    private final ReentrantLock lock;
    private final Condition historyArrived;
    private final MatchedWriters writers;
    private final ReaderHistoryCache<T> cache;
    private final SampleOps<T> ops;
    private final SampleStatusCounts sampleStatuses;
    private final boolean keepAll;
    private final Host host;
    private final ReaderLiveliness liveliness;
    /** The coherent sets this reader holds until they are complete (PRESENTATION coherent_access). */
    private final CoherentArrivals coherentSets;
    /** A GROUP-scope part ended in this batch (delivery thread only): the subscriber settles at its end. */
    private boolean partEnded;
    /** A writer came back to life in this batch (delivery thread only): LivelinessChanged is raised at its end. */
    private boolean revived;
    private volatile InPlaceSampleListener inPlace;
    /** The reader's content filter (ContentFilteredTopic), or null; set once before the reader is enabled. */
    private volatile ContentFilter<T> filter;
    /** A sample deserialized to evaluate the filter, handed on to the cache by the same receive (under the lock). */
    private T passed;
    private final RateLimitedWarning malformed = new RateLimitedWarning(LOG);

    ReaderDelivery(final String name, final ReentrantLock lock, final Condition historyArrived,
        final MatchedWriters writers, final ReaderHistoryCache<T> cache, final SampleOps<T> ops,
        final SampleStatusCounts sampleStatuses, final boolean keepAll, final ReaderLiveliness liveliness,
        final CoherentArrivals coherentSets, final Host host)
    {
        this.coherentSets = coherentSets;
        this.liveliness = liveliness;
        this.name = name;
        this.lock = lock;
        this.historyArrived = historyArrived;
        this.writers = writers;
        this.cache = cache;
        this.ops = ops;
        this.sampleStatuses = sampleStatuses;
        this.keepAll = keepAll;
        this.host = host;
        coherentSets.sink(this);
    }

    /** Samples of this reader go to {@code listener} as bytes, not into the cache (null: into the cache again). */
    void inPlace(final InPlaceSampleListener listener)
    {
        inPlace = listener;
    }

    /** Keeps only the samples that pass {@code contentFilter} (reader-side filtering of a ContentFilteredTopic). */
    void filter(final ContentFilter<T> contentFilter)
    {
        filter = contentFilter;
    }

    @Override
    public void onMessage(final BusMessage message)
    {
        if (!lock.isHeldByCurrentThread())
        {
            lock.lock();
        }
        try
        {
            receive(message);
        }
        catch (final RuntimeException ex)
        {
            // a peer can send samples that do not decode at will: counted as lost, logged at a bounded rate
            sampleStatuses.lost(1);
            malformed.warn("{}: dropped a malformed sample from writer {}: {}", name,
                Long.toHexString(message.writerGuid()), ex.toString());
        }
    }

    @Override
    public void onLost(final int count)
    {
        if (!lock.isHeldByCurrentThread())
        {
            lock.lock();
        }
        sampleStatuses.lost(count);
    }

    @Override
    public boolean keepsNewest()
    {
        return !keepAll;
    }

    @Override
    public boolean inlineSafe()
    {
        // a GROUP set's end stores other readers' parts too: never on the multicast's predicate thread
        return !coherentSets.grouped() && host.inlineSafe();
    }

    @Override
    public void onBatchEnd()
    {
        if (lock.isHeldByCurrentThread())
        {
            lock.unlock();
        }
        if (partEnded)
        {
            partEnded = false;
            coherentSets.settle();
        }
        host.batchEnded();
        if (revived)
        {
            revived = false;
            liveliness.raise();
        }
    }

    private WriterState writerState(final long writerGuid)
    {
        final WriterState state = writers.get(writerGuid);
        return state != null ? state : host.lateMatch(writerGuid);
    }

    private void receive(final BusMessage message)
    {
        final WriterState writer = writerState(message.writerGuid());
        if (writer == null)
        {
            return;
        }
        if (writer.leaseNs != DurationImpl.INFINITE_NS)
        {
            revived |= liveliness.heard(writer, System.nanoTime());
        }
        int kind = message.kind();
        if (kind == BusMessage.KIND_HISTORY_END)
        {
            writer.awaitingHistory = false;
            writer.lastSeq = Math.max(writer.lastSeq, message.seq());
            historyArrived.signalAll();
            return;
        }
        final boolean replay = (kind & BusMessage.KIND_HISTORY) != 0;
        kind &= ~BusMessage.KIND_HISTORY;
        if (!admit(writer, replay, message.seq()) || coherent(writer, kind, message))
        {
            return;
        }
        deliverHeld(writer, message, kind & ~BusMessage.KIND_COHERENT);
    }

    /**
     * Whether the message is a coherent set's (held, or its end mark) and so goes no further now; a reader that does
     * not hold sets takes the set's messages as they come and ignores the end marks.
     */
    private boolean coherent(final WriterState writer, final int kind, final BusMessage message)
    {
        if ((kind & BusMessage.KIND_COHERENT_END) != 0)
        {
            if (coherentSets.holds())
            {
                coherentSets.ended(writer, message);
                partEnded |= coherentSets.grouped();
            }
            return true;
        }
        if ((kind & BusMessage.KIND_COHERENT) != 0 && coherentSets.holds())
        {
            coherentSets.hold(writer, message);
            return true;
        }
        return false;
    }

    @Override
    public void deliverHeld(final WriterState writer, final BusMessage message)
    {
        deliverHeld(writer, message, message.kind());
    }

    /** An admitted message, past any coherent set: the content filter, then the cache (or in-place listener). */
    private void deliverHeld(final WriterState writer, final BusMessage message, final int kind)
    {
        final ContentFilter<T> contentFilter = filter;
        if (contentFilter != null && kind == BusMessage.KIND_DATA && rejects(contentFilter, message))
        {
            return;
        }
        final T data = passed;
        passed = null;
        store(writer, kind, message, data);
    }

    /**
     * Hands an admitted sample or lifecycle change to the in-place listener or to the cache, with the sample's
     * LIFESPAN expiry; {@code filtered} is the sample a content filter already deserialized, or null.
     */
    private void store(final WriterState writer, final int kind, final BusMessage message, final T filtered)
    {
        T data = filtered;
        final long expiresNs = LifespanFilter.expiry(message.sourceTimeNs(), writer.record.lifespanNs());
        final InPlaceSampleListener direct = inPlace;
        if (direct != null && kind == BusMessage.KIND_DATA)
        {
            if (data != null)
            {
                cache.recycleData(data);
            }
            if (LifespanFilter.expiredNow(expiresNs))
            {
                return;
            }
            direct.onSample(message.payloadSegment(), message.payloadLength(), message.sourceTimeNs(),
                message.writerGuid());
            return;
        }
        if (data != null)
        {
            cache.accept(kind, message.writerGuid(), writer.strength, message.sourceTimeNs(), expiresNs,
                message.keyHashHi(), message.keyHashLo(), data);
            return;
        }
        if ((kind & BusMessage.KIND_DATA) != 0 || !ops.isKeyed())
        {
            data = ops.deserialize(message, cache.pollFreeData());
        }
        else if (!cache.knows(message.keyHashHi(), message.keyHashLo()))
        {
            data = ops.deserialize(message, cache.pollFreeData());
        }
        cache.accept(kind, message.writerGuid(), writer.strength, message.sourceTimeNs(), expiresNs,
            message.keyHashHi(), message.keyHashLo(), data);
    }

    /**
     * Whether the content filter rejects this data sample: read in place when the type allows, else deserialized
     * (a sample that passes is then left in {@link #passed} for the cache; a rejected one goes back to the pool).
     */
    private boolean rejects(final ContentFilter<T> contentFilter, final BusMessage message)
    {
        final int verdict = contentFilter.matchSerialized(message.payloadSegment(), 0, message.payloadLength());
        if (verdict != ContentFilter.DESERIALIZE)
        {
            return verdict == ContentFilter.NO_MATCH;
        }
        final T data = ops.deserialize(message, cache.pollFreeData());
        if (contentFilter.matches(data))
        {
            passed = data;
            return false;
        }
        cache.recycleData(data);
        return true;
    }

    /** Whether a sample of {@code writer} is new to this reader (a live one then advances its duplicate filter). */
    private static boolean admit(final WriterState writer, final boolean replay, final long seq)
    {
        if (writer.awaitingHistory)
        {
            // Live samples that precede the replay are in the replay (or were replaced in the writer's history).
            // A replay by a writer back after a failure (lastSeq kept) repeats samples this reader took before.
            return replay && seq > writer.lastSeq;
        }
        if (replay || seq <= writer.lastSeq)
        {
            return false;
        }
        writer.lastSeq = seq;
        return true;
    }
}
