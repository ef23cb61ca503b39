package io.sirocco.pubsub.sub;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.BusReader;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.StatusKinds;
import io.sirocco.pubsub.core.TimeImpl;
import io.sirocco.pubsub.qos.QosChecks;
import io.sirocco.pubsub.status.DeadlineMonitor;
import io.sirocco.pubsub.sub.MatchedWriters.WriterState;
import io.sirocco.pubsub.sub.cache.ArrivalFilters;
import io.sirocco.pubsub.sub.cache.InstanceDeadlines;
import io.sirocco.pubsub.sub.cache.ReaderHistoryCache;
import io.sirocco.pubsub.topic.SampleOps;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.filtered.ContentFilteredTopicImpl;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ModifiableInstanceHandle;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.status.Status;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderListener;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.QueryCondition;
import org.omg.dds.sub.ReadCondition;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.PublicationBuiltinTopicData;
import org.omg.dds.topic.TopicDescription;

/**
 * A DataReader: the DDS-facing API over its history cache ({@link ReaderHistoryCache}). Samples arrive on the
 * reader's own delivery thread ({@link ReaderDelivery}, one batch at a time, under {@code lock}), are deserialized
 * once into pooled data objects, and are kept per instance with the DDS instance state machine. Applications read on
 * their own threads under the same lock ({@link SampleReads}); loans hand out the cached objects themselves, so a read
 * or take through {@link Sample.Iterator} copies nothing. Writers are matched and dropped by {@link ReaderMatching};
 * condition checks and instance lookups are {@link CacheQueries}; statuses and listener calls are in
 * {@link DataReaderStatuses}, the PSM's overloads in {@link DataReaderOverloads}. This class wires them together
 * and holds the entity's life cycle (enable, close).
 *
 * <p>Listeners run on the delivery thread after the batch's lock is released (DataAvailable, SampleLost,
 * SampleRejected) or on the participant's discovery thread (matching statuses); a slow listener therefore delays
 * only its own reader, whose window then fills: it loses samples if BEST_EFFORT, or holds back a RELIABLE writer
 * for at most that writer's max_blocking_time.
 *
 * <p>Locks: {@code lock} (one {@link ReentrantLock} per reader) guards the cache, the matched writers' map and
 * duplicate filters, the pending lost/rejected counts, the loan pool and the open-loan count; the entity's
 * {@code statusLock} guards the status counts and is only ever taken under {@code lock} or alone.
 */
public final class DataReaderImpl<T> extends DataReaderStatuses<T> implements io.sirocco.dds.loan.InPlaceDataReader
{
    private final SampleOps<T> ops;
    private final boolean builtin;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition historyArrived = lock.newCondition();
    private final ReaderHistoryCache<T> cache;
    private final DeadlineMonitor deadline;
    private final ReaderLiveliness liveliness;
    private final SampleReads<T> reads;
    private final CacheQueries<T> queries;
    private final ReaderDelivery<T> delivery;
    private final ReaderMatching<T> matching;
    private final CoherentArrivals coherentSets;
    private final boolean reliable;
    private final boolean keepAll;
    /** The record as announced: with a ContentFilteredTopic's filter, re-announced when its parameters change. */
    private final ReaderRecord announced;
    private BusReader busReader;
    /** The ContentFilteredTopic this reader was created on, or null; set once before enable. */
    private volatile ContentFilteredTopicImpl<T> filteredTopic;
    DataReaderImpl(final SiroccoServiceEnvironment env, final SubscriberView subscriber, final long guid,
        final TopicImpl<T> topic, final DataReaderQos qos, final DataReaderListener<T> listener,
        final Collection<Class<? extends Status>> statuses, final boolean builtin)
    {
        super(env, subscriber, guid, topic, qos, listener, statuses);
        this.ops = topic.ops();
        this.builtin = builtin;
        final String me = describe();
        QosChecks.historyAndLimits(env, me, qos.getHistory(), qos.getResourceLimits());
        QosChecks.timeBasedFilter(env, me, qos.getDeadline(), qos.getTimeBasedFilter());
        final Reliability reliability = qos.get(Reliability.class);
        this.reliable = reliability != null && reliability.getKind() == Reliability.Kind.RELIABLE;
        this.keepAll = qos.getHistory().getKind() == History.Kind.KEEP_ALL;
        final int depth = qos.getHistory().getDepth();
        this.cache = new ReaderHistoryCache<>(env, ops, sampleStatuses, keepAll, depth, qos.getResourceLimits(),
            ArrivalFilters.of(qos));
        this.queries = new CacheQueries<>(env, me, lock, cache, ops);
        this.reads = new SampleReads<>(env, me, lock, cache, ops, conditions, this::dataRead);
        this.liveliness = new ReaderLiveliness(lock, statusLock, writers, participant.timers(),
            writerGuid -> cache.writerGone(writerGuid, TimeImpl.nowNs()), () ->
            {
                fireLivelinessChanged();
                notifyBatch(); // the instances' state changes are new samples
            });
        this.coherentSets = new CoherentArrivals(subscriber.getQos().getPresentation(), subscriber.coherentSets(),
            lock, writers, sampleStatuses, this::notifyBatch);
        this.delivery = new ReaderDelivery<>(me, lock, historyArrived, writers, cache, ops, sampleStatuses, keepAll,
            liveliness, coherentSets, new DeliveryHost());
        this.deadline = new DeadlineMonitor(lock, statusLock, deadlineMisses,
            monitor -> InstanceDeadlines.forEachAlive(cache, monitor), this::fireDeadlineMissed, participant.timers());
        this.announced = new ReaderRecord(guid, participant.guid(), topic, reliable, qos, group.getQos(),
            this::announceIfOpen);
        final boolean transientLocal =
            qos.getDurability().getKind().ordinal() >= Durability.Kind.TRANSIENT_LOCAL.ordinal();
        this.matching = new ReaderMatching<>(env, me, lock, historyArrived, writers, cache, announced::current,
            transientLocal, participant::discovered, liveliness, coherentSets);
        topic.addUser();
    }

    public EndpointRecord record()
    {
        return announced.current();
    }

    private void announceIfOpen(final EndpointRecord changed)
    {
        if (isEnabled() && !isClosed())
        {
            participant.bus().announce(changed);
        }
    }

    @Override
    public void enable()
    {
        if (isEnabled())
        {
            return;
        }
        if (!group.isEnabled())
        {
            throw DdsExceptions.precondition(env, describe() + ": enable() before its subscriber is enabled");
        }
        super.enable();
        if (!builtin)
        {
            busReader = participant.bus().openReader(guid, topic.getName(), reliable, delivery);
            participant.registerReader(this);
            participant.bus().announce(announced.current());
            deadline.period(DurationImpl.toNanos(qos.getDeadline().getPeriod()));
        }
    }

    @Override
    protected void checkConsistent(final DataReaderQos newQos)
    {
        QosChecks.timeBasedFilter(env, describe(), newQos.getDeadline(), newQos.getTimeBasedFilter());
    }

    /** DEADLINE from now on (misses count from the last arrivals), TIME_BASED_FILTER from the next sample. */
    @Override
    protected void applyChangeable(final DataReaderQos newQos)
    {
        cache.filters().apply(newQos);
        if (isEnabled() && !builtin)
        {
            deadline.period(DurationImpl.toNanos(newQos.getDeadline().getPeriod()));
        }
        subscriberQosChanged();
    }

    /**
     * {@code setQos} of this reader or its subscriber: announced again (DEADLINE, LATENCY_BUDGET, USER_DATA,
     * PARTITION, GROUP_DATA), so that the writers re-match it.
     */
    public void subscriberQosChanged()
    {
        if (!builtin)
        {
            announced.requalify(getQos(), group.getQos());
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Delivery (the reader's delivery thread)

    /** What the delivery thread needs from this reader (the methods that reach the participant and listeners). */
    private final class DeliveryHost implements ReaderDelivery.Host
    {
        /** Made once: lateMatch may be asked for every sample of a writer that does not match. */
        private final Runnable fireMatchedLater = () -> participant.onDiscoveryThread(DataReaderImpl.this::fireMatched);

        @Override
        public WriterState lateMatch(final long writerGuid)
        {
            // The writer's first sample overtook its announcement on the discovery thread: match it here.
            return matching.lateMatch(writerGuid, fireMatchedLater);
        }

        @Override
        public boolean inlineSafe()
        {
            return env.config().inlineListeners() || !keepAll && !hasListener(StatusKinds.DATA_AVAILABLE |
                StatusKinds.DATA_ON_READERS | StatusKinds.SAMPLE_LOST | StatusKinds.SAMPLE_REJECTED);
        }

        @Override
        public void batchEnded()
        {
            notifyBatch();
        }
    }

    /** After a batch, outside the cache lock: update statuses, wake WaitSets and call listeners. */
    private void notifyBatch()
    {
        final boolean data;
        final int lost;
        final int rejected;
        lock.lock();
        try
        {
            data = cache.takeNewData();
            lost = sampleStatuses.drainLost();
            rejected = sampleStatuses.drainRejected();
        }
        finally
        {
            lock.unlock();
        }
        batchStatuses(lost, rejected, data);
    }

    @Override
    public void setInPlaceListener(final io.sirocco.dds.loan.InPlaceSampleListener listener)
    {
        checkOpen();
        delivery.inPlace(listener);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Matching (discovery thread, or the delivery thread for a writer whose data came first)

    /**
     * A writer announced, or announced again after a {@code setQos} (of it, or of this reader: the own record coming
     * back re-checks every writer); a matched writer that no longer matches is unmatched.
     */
    public void onWriterDiscovered(final EndpointRecord writer)
    {
        if (!writer.isWriter() || isClosed() || !isEnabled() || builtin)
        {
            return;
        }
        if (compatible(writer, announced.current(), writer))
        {
            if (matching.writerDiscovered(writer))
            {
                fireMatched();
            }
        }
        else if (writer.topicName().equals(topic.getName()) && matching.writerGone(writer.guid(), false))
        {
            fireMatched();
            notifyBatch();
        }
    }

    /**
     * @param writerFailed the writer did not close: its member left the view, or this member was excluded. It may come
     *                     back with the same GUID, so its duplicate filter is kept (see {@code departed}).
     */
    public void onWriterGone(final long writerGuid, final boolean writerFailed)
    {
        synchronized (statusLock)
        {
            incompatible.remove(writerGuid);
        }
        if (!matching.writerGone(writerGuid, writerFailed))
        {
            return;
        }
        fireMatched();
        notifyBatch();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Built-in topics: samples injected by the participant's discovery thread

    void inject(final int kind, final long keyGuid, final T data)
    {
        lock.lock();
        try
        {
            cache.accept(kind, 0, 0, TimeImpl.nowNs(), Long.MAX_VALUE, keyGuid, 0, data);
        }
        finally
        {
            lock.unlock();
        }
        notifyBatch();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Reading

    boolean hasSamples(final DataStateImpl state)
    {
        return queries.hasSamples(state);
    }

    @Override
    protected Sample.Iterator<T> loan(final SelectorImpl<T> selector, final boolean take)
    {
        checkEnabled();
        return reads.loan(selector, take);
    }

    @Override
    protected List<Sample<T>> copy(final List<Sample<T>> samples, final SelectorImpl<T> selector,
        final boolean take)
    {
        checkEnabled();
        return reads.copy(samples, selector, take);
    }

    /** Under {@code lock}, after each read or take: the DataAvailable and DataOnReaders statuses were read. */
    private void dataRead()
    {
        statusRead(StatusKinds.DATA_AVAILABLE);
        group.statusRead(StatusKinds.DATA_ON_READERS);
    }

    @Override
    protected boolean nextSample(final Sample<T> sample, final boolean take)
    {
        checkEnabled();
        return reads.nextSample(sample, new SelectorImpl<>(this), take);
    }

    @Override
    public Selector<T> select()
    {
        checkOpen();
        return new SelectorImpl<>(this);
    }

    @Override
    public T getKeyValue(final T keyHolder, final InstanceHandle handle)
    {
        checkOpen();
        return queries.keyValue(handle);
    }

    @Override
    public ModifiableInstanceHandle lookupInstance(final ModifiableInstanceHandle handle, final T keyHolder)
    {
        checkOpen();
        return queries.lookup(handle, keyHolder, topic.getTypeSupport());
    }

    // ------------------------------------------------------------------------------------------------------------
    // Conditions

    @Override
    public ReadCondition<T> createReadCondition(final Subscriber.DataState states)
    {
        checkOpen();
        final ReadConditionImpl<T> condition = new ReadConditionImpl<>(this, DataStateImpl.of(env, states),
            state -> !isClosed() && hasSamples(state), this::removeCondition);
        conditions.add(condition);
        return condition;
    }

    void removeCondition(final ReadConditionImpl<T> condition)
    {
        conditions.remove(condition);
    }

    @Override
    public QueryCondition<T> createQueryCondition(final Subscriber.DataState states, final String queryExpression,
        final List<String> queryParameters)
    {
        checkOpen();
        final SelectorImpl<T> query = new SelectorImpl<>(this);
        query.dataState(states).Content(queryExpression, queryParameters);
        final ReadConditionImpl<T> condition = new ReadConditionImpl<>(this, DataStateImpl.of(env, states),
            state -> !isClosed() && queries.hasSelected(query), this::removeCondition);
        conditions.add(condition);
        return new QueryConditionImpl<>(condition, query);
    }

    @Override
    public void closeContainedEntities()
    {
        conditions.clear();
    }

    @Override
    public void waitForHistoricalData(final long maxWait, final TimeUnit unit) throws TimeoutException
    {
        checkEnabled();
        matching.awaitHistory(maxWait, unit);
    }

    @Override
    public Set<InstanceHandle> getMatchedPublications()
    {
        checkOpen();
        return matching.publications();
    }

    @Override
    public PublicationBuiltinTopicData getMatchedPublicationData(final InstanceHandle handle)
    {
        checkOpen();
        return matching.publicationData(handle);
    }

    // ------------------------------------------------------------------------------------------------------------
    // The rest of the entity

    @Override
    @SuppressWarnings("unchecked")
    public <OTHER> DataReader<OTHER> cast()
    {
        return (DataReader<OTHER>)this;
    }

    @Override
    public TopicDescription<T> getTopicDescription()
    {
        final TopicDescription<T> filtered = filteredTopic;
        return filtered != null ? filtered : topic;
    }

    /** Before enable: this reader reads a ContentFilteredTopic of its topic, and keeps only what passes its filter. */
    void filterBy(final ContentFilteredTopicImpl<T> contentFilteredTopic)
    {
        filteredTopic = contentFilteredTopic;
        delivery.filter(contentFilteredTopic.readerFilter());
        announced.filterBy(contentFilteredTopic);
    }

    @Override
    ReaderLiveliness liveliness()
    {
        return liveliness;
    }

    /**
     * Waits for a listener call in progress on another thread (its loans are returned when it returns), refuses while
     * a loan from read()/take() is open, stops listener calls, then leaves the bus.
     */
    @Override
    protected void detach()
    {
        listenerGate.hold();
        try
        {
            lock.lock();
            try
            {
                final int outstandingLoans = reads.outstandingLoans();
                if (outstandingLoans > 0)
                {
                    throw DdsExceptions.precondition(env, describe() + " cannot be closed: " + outstandingLoans +
                        " loan(s) from read()/take() are not closed");
                }
            }
            finally
            {
                lock.unlock();
            }
            // No listener call from here on can open a loan between this check and the close.
            listenerGate.shut();
        }
        finally
        {
            listenerGate.release();
        }
        deadline.close();
        announced.stop();
        liveliness.close();
        coherentSets.close();
        if (isEnabled() && !builtin)
        {
            participant.bus().retract(guid);
            participant.unregisterReader(this);
            busReader.close();
        }
    }

    @Override
    protected void afterClosed()
    {
        signalConditions();
    }
}
