package io.sirocco.pubsub.sub;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongFunction;
import java.util.function.Supplier;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.core.TimeImpl;
import io.sirocco.pubsub.qos.Matching;
import io.sirocco.pubsub.sub.MatchedWriters.WriterState;
import io.sirocco.pubsub.sub.cache.ReaderHistoryCache;
import io.sirocco.pubsub.topic.builtin.PublicationDataImpl;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.topic.PublicationBuiltinTopicData;

/**
 * How one DataReader gains and loses writers: it matches a writer announced by discovery, or one whose first sample
 * overtook its announcement; it drops a writer that left (its instances lose a writer in the cache); and it answers
 * the matched-publication queries and waitForHistoricalData. The listener calls that follow stay with the reader,
 * which is told by the return values.
 *
 * <p>Concurrency: every method takes the reader's {@code lock} (or, for {@link #lateMatch}, runs under it on the
 * delivery thread); {@code historyArrived} is that lock's condition, signalled when a writer's TRANSIENT_LOCAL
 * history is complete or the writer is gone. Callers: the discovery thread, the delivery thread, application threads.
 */
final class ReaderMatching<T>
{
    private final ServiceEnvironment env;
    private final String name;
    private final ReentrantLock lock;
    private final Condition historyArrived;
    private final MatchedWriters writers;
    private final ReaderHistoryCache<T> cache;
    private final Supplier<EndpointRecord> reader;
    private final boolean transientLocal;
    private final LongFunction<EndpointRecord> discovered;
    private final ReaderLiveliness liveliness;
    private final CoherentArrivals coherentSets;

    /**
     * @param name       the reader, for error messages.
     * @param reader     the reader's own announcement, as it is now (a setQos replaces it).
     * @param discovered the participant's discovered endpoint by GUID, or null if unknown.
     * @param liveliness told of each writer matched (alive) and unmatched (it leaves its count).
     * @param coherentSets told of each writer unmatched (its unfinished coherent set is dropped).
     */
    ReaderMatching(final ServiceEnvironment env, final String name, final ReentrantLock lock,
        final Condition historyArrived, final MatchedWriters writers, final ReaderHistoryCache<T> cache,
        final Supplier<EndpointRecord> reader, final boolean transientLocal, final LongFunction<EndpointRecord> discovered,
        final ReaderLiveliness liveliness, final CoherentArrivals coherentSets)
    {
        this.coherentSets = coherentSets;
        this.env = env;
        this.name = name;
        this.lock = lock;
        this.historyArrived = historyArrived;
        this.writers = writers;
        this.cache = cache;
        this.reader = reader;
        this.transientLocal = transientLocal;
        this.discovered = discovered;
        this.liveliness = liveliness;
    }

    private boolean matches(final EndpointRecord writer)
    {
        final EndpointRecord own = reader.get();
        return writer.isWriter() && Matching.sameTopic(writer, own) &&
            Matching.partitionsMatch(writer.partitions(), own.partitions()) &&
            Matching.incompatible(writer, own).isEmpty();
    }

    /** Under {@code lock}: adds the writer (alive); null if it already was matched. */
    private WriterState addMatchedWriter(final EndpointRecord writer)
    {
        final WriterState added = writers.add(writer, transientLocal &&
            writer.durabilityKind() >= Durability.Kind.TRANSIENT_LOCAL.ordinal());
        if (added != null)
        {
            liveliness.matched(added, System.nanoTime());
        }
        return added;
    }

    /**
     * Delivery thread, under {@code lock}: the writer's first sample overtook its announcement on the discovery
     * thread; matches it here if discovery knows it and it matches. Null if not; {@code onMatched} runs if so.
     */
    WriterState lateMatch(final long writerGuid, final Runnable onMatched)
    {
        final EndpointRecord writer = discovered.apply(writerGuid);
        if (writer == null || !matches(writer) || addMatchedWriter(writer) == null)
        {
            return null;
        }
        onMatched.run();
        return writers.get(writerGuid);
    }

    /**
     * Discovery thread, for a compatible writer: whether it was newly matched. A matched writer announced again
     * changed its OWNERSHIP_STRENGTH or its LIFESPAN (read from {@code known.record} on delivery).
     */
    boolean writerDiscovered(final EndpointRecord writer)
    {
        lock.lock();
        try
        {
            final WriterState known = writers.get(writer.guid());
            if (known != null)
            {
                known.record = writer;
                known.strength = writer.ownershipStrength();
                cache.strengthChanged(writer.guid(), known.strength);
                return false;
            }
            return addMatchedWriter(writer) != null;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Whether the writer was matched (and now is not); its instances lose it in the cache. */
    boolean writerGone(final long writerGuid, final boolean writerFailed)
    {
        lock.lock();
        try
        {
            liveliness.unmatched(writerGuid);
            if (!writers.remove(writerGuid, writerFailed))
            {
                return false;
            }
            coherentSets.writerGone(writerGuid);
            cache.writerGone(writerGuid, TimeImpl.nowNs());
            historyArrived.signalAll();
        }
        finally
        {
            lock.unlock();
        }
        coherentSets.settle(); // a GROUP set that waited for this writer's part is discarded
        return true;
    }

    /** Waits until every matched TRANSIENT_LOCAL writer's history has arrived. */
    void awaitHistory(final long maxWait, final TimeUnit unit) throws TimeoutException
    {
        long remainingNs = unit.toNanos(maxWait);
        lock.lock();
        try
        {
            while (true)
            {
                if (!writers.awaitingHistory())
                {
                    return;
                }
                if (remainingNs <= 0)
                {
                    throw new TimeoutException(name + ": TRANSIENT_LOCAL history of every matched writer " +
                        "did not arrive within " + unit.toMillis(maxWait) + " ms");
                }
                remainingNs = historyArrived.awaitNanos(remainingNs);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new TimeoutException(name + ": waitForHistoricalData interrupted");
        }
        finally
        {
            lock.unlock();
        }
    }

    Set<InstanceHandle> publications()
    {
        lock.lock();
        try
        {
            return writers.handles(env);
        }
        finally
        {
            lock.unlock();
        }
    }

    PublicationBuiltinTopicData publicationData(final InstanceHandle handle)
    {
        lock.lock();
        try
        {
            final EndpointRecord writer = writers.record(HandleImpl.valueOf(handle));
            if (writer == null)
            {
                throw new IllegalArgumentException(name + ": " + handle + " is not a matched publication");
            }
            return new PublicationDataImpl(env, writer);
        }
        finally
        {
            lock.unlock();
        }
    }
}
