package io.sirocco.pubsub.sub;

import java.util.ArrayList;
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
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.core.StatusKinds;
import io.sirocco.pubsub.core.TimeImpl;
import io.sirocco.pubsub.entity.EndpointEntity;
import io.sirocco.pubsub.qos.Matching;
import io.sirocco.pubsub.qos.QosChecks;
import io.sirocco.pubsub.status.DeadlineMissedCounts;
import io.sirocco.pubsub.status.DeadlineMonitor;
import io.sirocco.pubsub.status.Events;
import io.sirocco.pubsub.status.Statuses;
import io.sirocco.pubsub.sub.MatchedWriters.WriterState;
import io.sirocco.pubsub.sub.cache.InstanceDeadlines;
import io.sirocco.pubsub.sub.cache.ReaderHistoryCache;
import io.sirocco.pubsub.sub.cache.SampleImpl;
import io.sirocco.pubsub.topic.SampleOps;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.filtered.ContentFilteredTopicImpl;
import io.sirocco.pubsub.topic.builtin.PublicationDataImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ModifiableInstanceHandle;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.status.LivelinessChangedStatus;
import org.omg.dds.core.status.RequestedDeadlineMissedStatus;
import org.omg.dds.core.status.RequestedIncompatibleQosStatus;
import org.omg.dds.core.status.SampleLostStatus;
import org.omg.dds.core.status.SampleRejectedStatus;
import org.omg.dds.core.status.Status;
import org.omg.dds.core.status.SubscriptionMatchedStatus;
import org.omg.dds.domain.DomainParticipantListener;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderListener;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.QueryCondition;
import org.omg.dds.sub.ReadCondition;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.sub.SubscriberListener;
import org.omg.dds.topic.PublicationBuiltinTopicData;
import org.omg.dds.topic.TopicDescription;

/**
 * A DataReader: the DDS-facing API over its history cache ({@link ReaderHistoryCache}), its matched writers
 * ({@link MatchedWriters}) and its sample lost/rejected counts ({@link SampleStatusCounts}). Samples arrive on the reader's own delivery thread (one batch at a time,
 * under {@code lock}), are deserialized once into pooled data objects, and are kept per instance with the DDS
 * instance state machine. Applications read on their own threads under the same lock; loans hand out the cached
 * objects themselves, so a read or take through {@link Sample.Iterator} copies nothing.
 *
 * <p>Listeners run on the delivery thread after the batch's lock is released (DataAvailable, SampleLost,
 * SampleRejected) or on the participant's discovery thread (matching statuses); a slow listener therefore delays
 * only its own reader, whose window then fills: it loses samples if BEST_EFFORT, or holds back a RELIABLE writer
 * for at most that writer's max_blocking_time.
 *
 * <p>Size: over 500 lines because it is the face of the PSM's DataReader (some 45 methods, most of them overloads
 * of read/take, status getters and listener dispatch through the entity base); each delegates to one of the classes
 * above.
 *
 * <p>Locks: {@code lock} (one {@link ReentrantLock} per reader) guards the cache, the matched writers' map and
 * duplicate filters, the pending lost/rejected counts, the loan pool and the open-loan count; the entity's
 * {@code statusLock} guards the status counts and is only ever taken under {@code lock} or alone.
 */
public final class DataReaderImpl<T> extends DataReaderOverloads<T> implements io.sirocco.dds.loan.InPlaceDataReader
{
    private final SampleOps<T> ops;
    private final boolean builtin;
    private final ReentrantLock lock = new ReentrantLock();
    /** Listener calls of a batch versus close(); see {@link ListenerGate}. */
    private final ListenerGate listenerGate = new ListenerGate();
    private final Condition historyArrived = lock.newCondition();
    private final ReaderHistoryCache<T> cache;
    private final MatchedWriters writers = new MatchedWriters(statusLock);
    private final SampleStatusCounts sampleStatuses = new SampleStatusCounts(statusLock);
    private final DeadlineMissedCounts deadlineMisses = new DeadlineMissedCounts();
    private final DeadlineMonitor deadline;
    private final ReaderLiveliness liveliness;
    private final ReadConditions conditions = new ReadConditions();
    private final SampleReads<T> reads;
    private final ReaderDelivery<T> delivery;
    private final boolean reliable;
    private final boolean transientLocal;
    private final boolean keepAll;
    private final EndpointRecord record;
    private BusReader busReader;
    /** The DataAvailable event handed to listeners; racy single assignment of an immutable object (benign). */
    private Events.DataAvailableEventImpl<T> dataAvailableEvent;
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
        QosChecks.durability(me, qos.getDurability());
        QosChecks.ownership(me, qos.getOwnership());
        QosChecks.timeBasedFilter(env, me, qos.getDeadline(), qos.getTimeBasedFilter());
        final Reliability reliability = qos.get(Reliability.class);
        this.reliable = reliability != null && reliability.getKind() == Reliability.Kind.RELIABLE;
        this.transientLocal = qos.getDurability().getKind().ordinal() >= Durability.Kind.TRANSIENT_LOCAL.ordinal();
        this.keepAll = qos.getHistory().getKind() == History.Kind.KEEP_ALL;
        final int depth = qos.getHistory().getDepth();
        this.cache = new ReaderHistoryCache<>(env, ops, sampleStatuses, keepAll, depth, qos.getResourceLimits());
        cache.separation().separation(DurationImpl.toNanos(qos.getTimeBasedFilter().getMinimumSeparation()));
        this.reads = new SampleReads<>(env, me, lock, cache, ops, conditions, this::dataRead);
        this.liveliness = new ReaderLiveliness(lock, statusLock, writers, participant.timers(),
            writerGuid -> cache.writerGone(writerGuid, TimeImpl.nowNs()), () ->
            {
                fireLivelinessChanged();
                notifyBatch(); // the instances' state changes are new samples
            });
        this.delivery = new ReaderDelivery<>(me, lock, historyArrived, writers, cache, ops, sampleStatuses, keepAll,
            liveliness, new DeliveryHost());
        this.deadline = new DeadlineMonitor(lock, statusLock, deadlineMisses,
            monitor -> InstanceDeadlines.forEachAlive(cache, monitor), this::fireDeadlineMissed, participant.timers());
        this.record = new EndpointRecord(EndpointRecord.READER, guid, participant.guid(), topic.getName(),
            topic.getTypeName(), topic.getTypeSupport().getType().getName(),
            reliable ? Reliability.Kind.RELIABLE.ordinal() : Reliability.Kind.BEST_EFFORT.ordinal(), 0,
            qos.getDurability().getKind().ordinal(), DurationImpl.toNanos(qos.getDeadline().getPeriod()),
            DurationImpl.toNanos(qos.getLatencyBudget().getDuration()), qos.getLiveliness().getKind().ordinal(),
            DurationImpl.toNanos(qos.getLiveliness().getLeaseDuration()), qos.getOwnership().getKind().ordinal(),
            qos.getDestinationOrder().getKind().ordinal(),
            group.getQos().getPresentation().getAccessScope().ordinal(),
            group.getQos().getPresentation().isCoherentAccess(),
            group.getQos().getPresentation().isOrderedAccess(), qos.getHistory().getKind().ordinal(), depth,
            List.copyOf(group.getQos().getPartition().getName()), qos.getUserData().getValue(), "", 0);
        topic.addUser();
    }

    public EndpointRecord record()
    {
        return record;
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
            participant.bus().announce(record);
            deadline.period(DurationImpl.toNanos(qos.getDeadline().getPeriod()));
        }
    }

    /**
     * DEADLINE: a new period applies from now on (its misses are counted from the instances' last arrivals);
     * TIME_BASED_FILTER: a new separation applies to the next sample.
     */
    @Override
    protected void applyChangeable(final DataReaderQos newQos)
    {
        cache.separation().separation(DurationImpl.toNanos(newQos.getTimeBasedFilter().getMinimumSeparation()));
        if (isEnabled() && !builtin)
        {
            deadline.period(DurationImpl.toNanos(newQos.getDeadline().getPeriod()));
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Delivery (the reader's delivery thread)

    /** What the delivery thread needs from this reader (the methods that reach the participant and listeners). */
    private final class DeliveryHost implements ReaderDelivery.Host
    {
        @Override
        public WriterState lateMatch(final long writerGuid)
        {
            // The writer's first sample overtook its announcement on the discovery thread: match it here.
            final EndpointRecord writer = participant.discovered(writerGuid);
            if (writer == null || !matches(writer) || addMatchedWriter(writer) == null)
            {
                return null;
            }
            participant.onDiscoveryThread(DataReaderImpl.this::fireMatched);
            return writers.get(writerGuid);
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
        sampleStatuses.publish(lost, rejected);
        if (!listenerGate.enter())
        {
            return;
        }
        try
        {
            if (lost > 0)
            {
                fireLost();
            }
            if (rejected > 0)
            {
                fireRejected();
            }
            if (data)
            {
                fireDataAvailable();
            }
        }
        finally
        {
            listenerGate.exit();
        }
    }

    @Override
    public void setInPlaceListener(final io.sirocco.dds.loan.InPlaceSampleListener listener)
    {
        checkOpen();
        delivery.inPlace(listener);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Matching (discovery thread, or the delivery thread for a writer whose data came first)

    private boolean matches(final EndpointRecord writer)
    {
        return writer.isWriter() && Matching.sameTopic(writer, record) &&
            Matching.partitionsMatch(writer.partitions(), record.partitions()) &&
            Matching.incompatible(writer, record).isEmpty();
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

    public void onWriterDiscovered(final EndpointRecord writer)
    {
        if (!writer.isWriter() || isClosed() || !isEnabled() || builtin || !compatible(writer, record, writer))
        {
            return;
        }
        final WriterState added;
        lock.lock();
        try
        {
            added = addMatchedWriter(writer);
        }
        finally
        {
            lock.unlock();
        }
        if (added != null)
        {
            fireMatched();
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
        lock.lock();
        try
        {
            liveliness.unmatched(writerGuid);
            if (!writers.remove(writerGuid, writerFailed))
            {
                return;
            }
            cache.writerGone(writerGuid, TimeImpl.nowNs());
            historyArrived.signalAll();
        }
        finally
        {
            lock.unlock();
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
            cache.accept(kind, 0, io.sirocco.pubsub.core.TimeImpl.nowNs(), keyGuid, 0, data);
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
        lock.lock();
        try
        {
            return cache.hasSamples(state.sampleMask(), state.viewMask(), state.instanceMask());
        }
        finally
        {
            lock.unlock();
        }
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
        if (!(sample instanceof SampleImpl<T> target))
        {
            throw new IllegalArgumentException(describe() + ": readNextSample/takeNextSample need a Sample obtained " +
                "from this DDS implementation (e.g. from read(List))");
        }
        final SelectorImpl<T> next = new SelectorImpl<>(this);
        next.dataState(new DataStateImpl(env, DataStateImpl.SAMPLE_NOT_READ, 3, 7)).maxSamples(1);
        final List<Sample<T>> one = copy(new ArrayList<>(1), next, take);
        if (one.isEmpty())
        {
            return false;
        }
        final SampleImpl<T> got = (SampleImpl<T>)one.get(0);
        target.copyMeta(got);
        target.data(got.data());
        target.copier(ops::copy);
        return true;
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
        lock.lock();
        try
        {
            final T key = cache.keyHolder(HandleImpl.valueOf(handle));
            if (key == null)
            {
                throw new IllegalArgumentException(describe() + ": getKeyValue: " + handle +
                    " is not an instance of this reader");
            }
            return ops.copy(key);
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public ModifiableInstanceHandle lookupInstance(final ModifiableInstanceHandle handle, final T keyHolder)
    {
        checkOpen();
        if (!(topic.getTypeSupport() instanceof io.sirocco.pubsub.topic.TypeSupportImpl<T> support))
        {
            throw new UnsupportedOperationException(describe() + ": lookupInstance on a built-in topic");
        }
        final byte[] hash = new byte[16];
        support.codec().keyHash(keyHolder, hash);
        lock.lock();
        try
        {
            final ModifiableInstanceHandle result = handle == null ? new HandleImpl(env, 0) : handle;
            ((HandleImpl)result).value(cache.handleOf(hash));
            return result;
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public InstanceHandle lookupInstance(final T keyHolder)
    {
        return lookupInstance(null, keyHolder);
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

    private void signalConditions()
    {
        conditions.signalAll();
    }

    @Override
    public QueryCondition<T> createQueryCondition(final String queryExpression, final List<String> queryParameters)
    {
        return createQueryCondition(DataStateImpl.any(env), queryExpression, queryParameters);
    }

    @Override
    public QueryCondition<T> createQueryCondition(final Subscriber.DataState states, final String queryExpression,
        final List<String> queryParameters)
    {
        checkOpen();
        final SelectorImpl<T> query = new SelectorImpl<>(this);
        query.dataState(states).Content(queryExpression, queryParameters);
        final ReadConditionImpl<T> condition = new ReadConditionImpl<>(this, DataStateImpl.of(env, states),
            state -> !isClosed() && hasSelected(query), this::removeCondition);
        conditions.add(condition);
        return new QueryConditionImpl<>(condition, query);
    }

    /** Whether the cache holds a sample the spec (states and content query) selects. */
    private boolean hasSelected(final SelectorImpl<T> spec)
    {
        lock.lock();
        try
        {
            return cache.hasSamples(spec);
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void closeContainedEntities()
    {
        conditions.clear();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Statuses and listeners

    @Override
    protected Status resetStatus(final int statusBit)
    {
        return switch (statusBit)
        {
            case StatusKinds.SUBSCRIPTION_MATCHED -> writers.subscriptionStatus(env);
            case StatusKinds.REQUESTED_INCOMPATIBLE_QOS -> incompatible.requested(env);
            case StatusKinds.SAMPLE_LOST -> sampleStatuses.lostStatus(env);
            case StatusKinds.SAMPLE_REJECTED -> sampleStatuses.rejectedStatus(env);
            case StatusKinds.REQUESTED_DEADLINE_MISSED -> deadlineMisses.requested(env);
            case StatusKinds.LIVELINESS_CHANGED -> liveliness.status(env);
            default -> throw new IllegalArgumentException(describe() + ": no status for bit " + statusBit);
        };
    }

    private boolean hasListener(final int bits)
    {
        return listenerChainFor(bits) != null;
    }

    private void fireMatched()
    {
        if (!listenerGate.enter())
        {
            return;
        }
        try
        {
            fire(StatusKinds.SUBSCRIPTION_MATCHED, Events.SubscriptionMatchedEventImpl<T>::new,
                DataReaderListener::onSubscriptionMatched, SubscriberListener::onSubscriptionMatched);
        }
        finally
        {
            listenerGate.exit();
        }
        fireLivelinessChanged(); // a matched writer is alive; an unmatched one leaves its count
    }

    private void fireLivelinessChanged()
    {
        listenerGate.run(() -> fire(StatusKinds.LIVELINESS_CHANGED, Events.LivelinessChangedEventImpl<T>::new,
            DataReaderListener::onLivelinessChanged, SubscriberListener::onLivelinessChanged));
    }

    @Override
    protected void fireIncompatible()
    {
        fire(StatusKinds.REQUESTED_INCOMPATIBLE_QOS, Events.RequestedIncompatibleQosEventImpl<T>::new,
            DataReaderListener::onRequestedIncompatibleQos, SubscriberListener::onRequestedIncompatibleQos);
    }

    /** Timer thread: instances missed their deadline (the counts are in {@code deadlineMisses}). */
    private void fireDeadlineMissed()
    {
        if (!listenerGate.enter())
        {
            return; // closing
        }
        try
        {
            fire(StatusKinds.REQUESTED_DEADLINE_MISSED, Events.RequestedDeadlineMissedEventImpl<T>::new,
                DataReaderListener::onRequestedDeadlineMissed, SubscriberListener::onRequestedDeadlineMissed);
        }
        finally
        {
            listenerGate.exit();
        }
    }

    private void fireLost()
    {
        fire(StatusKinds.SAMPLE_LOST, Events.SampleLostEventImpl<T>::new,
            DataReaderListener::onSampleLost, SubscriberListener::onSampleLost);
    }

    private void fireRejected()
    {
        fire(StatusKinds.SAMPLE_REJECTED, Events.SampleRejectedEventImpl<T>::new,
            DataReaderListener::onSampleRejected, SubscriberListener::onSampleRejected);
    }

    @SuppressWarnings("unchecked")
    private void fireDataAvailable()
    {
        statusChanged(StatusKinds.DATA_AVAILABLE);
        group.statusChanged(StatusKinds.DATA_ON_READERS);
        signalConditions();
        final SubscriberListener onReaders = group.listenerFor(StatusKinds.DATA_ON_READERS);
        final DomainParticipantListener topOnReaders = participant.listenerFor(StatusKinds.DATA_ON_READERS);
        if (onReaders != null || topOnReaders != null)
        {
            group.statusRead(StatusKinds.DATA_ON_READERS);
            final Events.DataOnReadersEventImpl event = new Events.DataOnReadersEventImpl(env, group,
                new Statuses.DataOnReadersStatusImpl(env));
            if (onReaders != null)
            {
                onReaders.onDataOnReaders(event);
            }
            else
            {
                topOnReaders.onDataOnReaders(event);
            }
            return;
        }
        final Object handler = listenerChainFor(StatusKinds.DATA_AVAILABLE);
        if (handler == null)
        {
            return;
        }
        statusRead(StatusKinds.DATA_AVAILABLE);
        Events.DataAvailableEventImpl<T> event = dataAvailableEvent;
        if (event == null)
        {
            // The event carries no per-call state (DataAvailableStatus has no fields): one per reader, made once.
            event = new Events.DataAvailableEventImpl<>(env, this, new Statuses.DataAvailableStatusImpl(env));
            dataAvailableEvent = event;
        }
        if (handler instanceof DataReaderListener<?> l)
        {
            ((DataReaderListener<T>)l).onDataAvailable(event);
        }
        else if (handler instanceof SubscriberListener l)
        {
            l.onDataAvailable(event);
        }
    }

    /** Calls this reader's DataAvailable listener (Subscriber.notifyDataReaders). */
    @SuppressWarnings("unchecked")
    void notifyDataAvailable()
    {
        final DataReaderListener<T> own = listenerFor(StatusKinds.DATA_AVAILABLE);
        if (own != null && getStatusChanges().contains(org.omg.dds.core.status.DataAvailableStatus.class))
        {
            own.onDataAvailable(new Events.DataAvailableEventImpl<>(env, this,
                new Statuses.DataAvailableStatusImpl(env)));
        }
    }

    @Override
    public SubscriptionMatchedStatus getSubscriptionMatchedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.SUBSCRIPTION_MATCHED);
    }

    @Override
    public RequestedIncompatibleQosStatus getRequestedIncompatibleQosStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.REQUESTED_INCOMPATIBLE_QOS);
    }

    @Override
    public SampleLostStatus getSampleLostStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.SAMPLE_LOST);
    }

    @Override
    public SampleRejectedStatus getSampleRejectedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.SAMPLE_REJECTED);
    }

    @Override
    public LivelinessChangedStatus getLivelinessChangedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.LIVELINESS_CHANGED);
    }

    @Override
    public RequestedDeadlineMissedStatus getRequestedDeadlineMissedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.REQUESTED_DEADLINE_MISSED);
    }


    @Override
    public void waitForHistoricalData(final long maxWait, final TimeUnit unit) throws TimeoutException
    {
        checkEnabled();
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
                    throw new TimeoutException(describe() + ": TRANSIENT_LOCAL history of every matched writer " +
                        "did not arrive within " + unit.toMillis(maxWait) + " ms");
                }
                remainingNs = historyArrived.awaitNanos(remainingNs);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new TimeoutException(describe() + ": waitForHistoricalData interrupted");
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public Set<InstanceHandle> getMatchedPublications()
    {
        checkOpen();
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

    @Override
    public PublicationBuiltinTopicData getMatchedPublicationData(final InstanceHandle handle)
    {
        checkOpen();
        lock.lock();
        try
        {
            final EndpointRecord writer = writers.record(HandleImpl.valueOf(handle));
            if (writer == null)
            {
                throw new IllegalArgumentException(describe() + ": " + handle + " is not a matched publication");
            }
            return new PublicationDataImpl(env, writer);
        }
        finally
        {
            lock.unlock();
        }
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
        liveliness.close();
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
