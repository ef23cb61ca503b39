package io.sirocco.pubsub.sub;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusReader;
import io.sirocco.pubsub.bus.DeliveryHandler;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.cache.InstanceKey;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.core.StatusKinds;
import io.sirocco.pubsub.entity.EndpointEntity;
import io.sirocco.pubsub.qos.Matching;
import io.sirocco.pubsub.qos.QosChecks;
import io.sirocco.pubsub.status.Events;
import io.sirocco.pubsub.status.MatchedCounts;
import io.sirocco.pubsub.status.Statuses;
import io.sirocco.pubsub.topic.SampleOps;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.builtin.PublicationDataImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ModifiableInstanceHandle;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.policy.ResourceLimits;
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
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.QueryCondition;
import org.omg.dds.sub.ReadCondition;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.sub.SubscriberListener;
import org.omg.dds.topic.PublicationBuiltinTopicData;
import org.omg.dds.topic.TopicDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A DataReader and its history cache. Samples arrive on the reader's own delivery thread (one batch at a time,
 * under {@code lock}), are deserialized once into pooled data objects, and are kept per instance with the DDS
 * instance state machine. Applications read on their own threads under the same lock; loans hand out the cached
 * objects themselves, so a read or take through {@link Sample.Iterator} copies nothing.
 *
 * <p>Listeners run on the delivery thread after the batch's lock is released (DataAvailable, SampleLost,
 * SampleRejected) or on the participant's discovery thread (matching statuses); a slow listener therefore delays
 * only its own reader, whose window then fills: it loses samples if BEST_EFFORT, or holds back a RELIABLE writer
 * for at most that writer's max_blocking_time.
 */
public final class DataReaderImpl<T>
    extends EndpointEntity<T, DataReader<T>, DataReaderListener<T>, SubscriberListener, DataReaderQos, SubscriberView>
    implements DataReader<T>, io.sirocco.dds.loan.InPlaceDataReader
{
    private static final Logger LOG = LoggerFactory.getLogger(DataReaderImpl.class);
    /** How many departed writers' duplicate filters a reader keeps (see {@code departed}). */
    private static final int MAX_DEPARTED = 1024;

    private final SampleOps<T> ops;
    private final boolean builtin;
    private final ReentrantLock lock = new ReentrantLock();
    /** Listener calls of a batch versus close(); see {@link ListenerGate}. */
    private final ListenerGate listenerGate = new ListenerGate();
    private final Condition historyArrived = lock.newCondition();
    private final InstanceKey probe = new InstanceKey();
    private final Map<InstanceKey, ReaderInstance<T>> instances = new HashMap<>();
    private final TreeMap<Long, ReaderInstance<T>> byHandle = new TreeMap<>();
    private final ArrayList<ReaderInstance<T>> ordered = new ArrayList<>();
    private final Map<Long, WriterState> writers = new HashMap<>();
    /**
     * The duplicate filter of writers that went away without closing (their member left the view, or this member was
     * excluded): writer GUID to the last sequence number taken from it. Such a writer may come back (a rejoin after a
     * false suspicion) and its member then re-sends what was not acknowledged, the samples this reader may already
     * have taken among them, with their original sequence numbers; its new {@link WriterState} starts from here, so
     * none is taken twice. An entry goes when the writer is matched again, or when its closing retraction arrives; a
     * writer that never comes back (or closes while away, whose retraction this member then never sees) stays until
     * {@value #MAX_DEPARTED} newer ones push it out (a restarted writer has a new GUID, so a stale entry never
     * filters anybody else). Written and read under {@code lock} only: by the discovery thread (a retraction, a
     * match) and by the delivery thread (a writer matched by its first sample); never on the per-sample path.
     */
    private final Map<Long, Long> departed = new java.util.LinkedHashMap<>(16, 0.75f, false)
    {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<Long, Long> eldest)
        {
            return size() > MAX_DEPARTED;
        }
    };
    private final ArrayDeque<T> freeData = new ArrayDeque<>();
    private final ArrayDeque<SampleEntry<T>> freeEntries = new ArrayDeque<>();
    private final ArrayDeque<LoanIterator<T>> freeLoans = new ArrayDeque<>();
    private final ArrayDeque<SampleImpl<T>> freeSamples = new ArrayDeque<>();
    private final CopyOnWriteArrayList<ReadConditionImpl<T>> conditions = new CopyOnWriteArrayList<>();
    private final SelectorImpl<T> defaultSelector;
    private final boolean reliable;
    private final boolean transientLocal;
    private final boolean keepAll;
    private final int depth;
    private final int maxSamples;
    private final int maxInstances;
    private final int maxSamplesPerInstance;
    private final EndpointRecord record;
    private final MatchedCounts matched = new MatchedCounts();
    private BusReader busReader;
    private volatile io.sirocco.dds.loan.InPlaceSampleListener inPlace;
    /** Snapshot of {@code conditions} for the delivery path (no iterator per batch); replaced on every change. */
    private volatile Object[] conditionArray = new Object[0];
    /** The DataAvailable event handed to listeners; racy single assignment of an immutable object (benign). */
    private Events.DataAvailableEventImpl<T> dataAvailableEvent;
    private long lastWriterGuid = -1;
    private WriterState lastWriter;
    private int totalSamples;
    private int outstandingLoans;
    private boolean newData;
    private int pendingLost;
    private int pendingRejected;
    // statuses, under statusLock
    private int lostTotal;
    private int lostChange;
    private int rejectedTotal;
    private int rejectedChange;
    private SampleRejectedStatus.Kind rejectedReason = SampleRejectedStatus.Kind.NOT_REJECTED;
    private long rejectedInstance;

    /** What this reader knows about one matched writer. Guarded by {@code lock}. */
    private static final class WriterState
    {
        final EndpointRecord record;
        boolean awaitingHistory;
        long lastSeq;

        WriterState(final EndpointRecord record, final boolean awaitingHistory)
        {
            this.record = record;
            this.awaitingHistory = awaitingHistory;
        }
    }

    DataReaderImpl(final SiroccoServiceEnvironment env, final SubscriberView subscriber, final long guid,
        final TopicImpl<T> topic, final DataReaderQos qos, final DataReaderListener<T> listener,
        final Collection<Class<? extends Status>> statuses, final boolean builtin)
    {
        super(env, "DataReader", subscriber, guid, topic, qos, listener, statuses);
        this.ops = topic.ops();
        this.builtin = builtin;
        final String me = describe();
        QosChecks.historyAndLimits(env, me, qos.getHistory(), qos.getResourceLimits());
        QosChecks.durability(me, qos.getDurability());
        QosChecks.deadline(me, qos.getDeadline());
        QosChecks.liveliness(me, qos.getLiveliness());
        QosChecks.ownership(me, qos.getOwnership());
        QosChecks.timeBasedFilter(me, qos.getTimeBasedFilter());
        final Reliability reliability = qos.get(Reliability.class);
        this.reliable = reliability != null && reliability.getKind() == Reliability.Kind.RELIABLE;
        this.transientLocal = qos.getDurability().getKind() == Durability.Kind.TRANSIENT_LOCAL;
        this.keepAll = qos.getHistory().getKind() == History.Kind.KEEP_ALL;
        this.depth = qos.getHistory().getDepth();
        this.maxSamples = qos.getResourceLimits().getMaxSamples();
        this.maxInstances = qos.getResourceLimits().getMaxInstances();
        this.maxSamplesPerInstance = qos.getResourceLimits().getMaxSamplesPerInstance();
        this.defaultSelector = new SelectorImpl<>(this);
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
            busReader = participant.bus().openReader(guid, topic.getName(), reliable, new Delivery());
            participant.registerReader(this);
            participant.bus().announce(record);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Delivery (the reader's delivery thread)

    private final class Delivery implements DeliveryHandler
    {
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
                pendingLost++;
                LOG.warn("{}: dropped a malformed sample from writer {}: {}", describe(),
                    String.format("%016x", message.writerGuid()), ex.toString());
            }
        }

        @Override
        public void onLost(final int count)
        {
            if (!lock.isHeldByCurrentThread())
            {
                lock.lock();
            }
            pendingLost += count;
        }

        @Override
        public boolean keepsNewest()
        {
            return !keepAll;
        }

        @Override
        public boolean inlineSafe()
        {
            return env.config().inlineListeners() || !keepAll && !hasListener(StatusKinds.DATA_AVAILABLE |
                StatusKinds.DATA_ON_READERS | StatusKinds.SAMPLE_LOST | StatusKinds.SAMPLE_REJECTED);
        }

        @Override
        public void onBatchEnd()
        {
            if (lock.isHeldByCurrentThread())
            {
                lock.unlock();
            }
            notifyBatch();
        }
    }

    private WriterState writerState(final long writerGuid)
    {
        if (writerGuid == lastWriterGuid)
        {
            return lastWriter;
        }
        WriterState state = writers.get(writerGuid);
        if (state == null)
        {
            // The writer's first sample overtook its announcement on the discovery thread: match it here.
            final EndpointRecord writer = participant.discovered(writerGuid);
            if (writer == null || !matches(writer))
            {
                return null;
            }
            state = addMatchedWriter(writer);
            if (state == null)
            {
                return null;
            }
            participant.onDiscoveryThread(this::fireMatched);
        }
        lastWriterGuid = writerGuid;
        lastWriter = state;
        return state;
    }

    private void receive(final BusMessage message)
    {
        final WriterState writer = writerState(message.writerGuid());
        if (writer == null)
        {
            return;
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
        if (writer.awaitingHistory)
        {
            // Live samples that precede the replay are in the replay (or were replaced in the writer's history).
            // A replay by a writer back after a failure (lastSeq kept) repeats samples this reader took before.
            if (!replay || message.seq() <= writer.lastSeq)
            {
                return;
            }
        }
        else
        {
            if (replay || message.seq() <= writer.lastSeq)
            {
                return;
            }
            writer.lastSeq = message.seq();
        }
        final io.sirocco.dds.loan.InPlaceSampleListener direct = inPlace;
        if (direct != null && kind == BusMessage.KIND_DATA)
        {
            direct.onSample(message.payloadSegment(), message.payloadLength(), message.sourceTimeNs(),
                message.writerGuid());
            return;
        }
        T data = null;
        if ((kind & BusMessage.KIND_DATA) != 0 || !ops.isKeyed())
        {
            data = ops.deserialize(message, freeData.pollFirst());
        }
        else if (!instances.containsKey(probe.set(message.keyHashHi(), message.keyHashLo())))
        {
            data = ops.deserialize(message, freeData.pollFirst());
        }
        accept(kind, message.writerGuid(), message.sourceTimeNs(), message.keyHashHi(), message.keyHashLo(), data);
    }

    /** Applies one sample or lifecycle change to the cache; {@code data} may be null for dispose/unregister. */
    void accept(final int kind, final long writerGuid, final long sourceTimeNs, final long keyHi, final long keyLo,
        final T data)
    {
        ReaderInstance<T> instance = instances.get(probe.set(keyHi, keyLo));
        if (instance == null)
        {
            if ((kind & BusMessage.KIND_DATA) == 0 && data == null)
            {
                return;
            }
            if (maxInstances != ResourceLimits.LENGTH_UNLIMITED && instances.size() >= maxInstances)
            {
                reject(SampleRejectedStatus.Kind.REJECTED_BY_INSTANCES_LIMIT, 0, data);
                return;
            }
            instance = new ReaderInstance<>(HandleImpl.nextLocal(), probe.copy());
            instance.keyHolder = data == null ? null : ops.copy(data);
            instances.put(instance.key, instance);
            byHandle.put(instance.handle, instance);
            ordered.add(instance);
            if ((kind & BusMessage.KIND_DATA) == 0)
            {
                instance.state = InstanceState.NOT_ALIVE_DISPOSED;
            }
        }
        if ((kind & BusMessage.KIND_DATA) != 0)
        {
            acceptData(instance, writerGuid, sourceTimeNs, data);
            return;
        }
        if (data != null)
        {
            freeData.addLast(data);
        }
        boolean changed = false;
        if ((kind & BusMessage.KIND_DISPOSE) != 0 && instance.state == InstanceState.ALIVE)
        {
            instance.state = InstanceState.NOT_ALIVE_DISPOSED;
            changed = true;
        }
        if ((kind & BusMessage.KIND_UNREGISTER) != 0)
        {
            instance.removeWriter(writerGuid);
            if (instance.writerCount() == 0 && instance.state == InstanceState.ALIVE)
            {
                instance.state = InstanceState.NOT_ALIVE_NO_WRITERS;
                changed = true;
            }
        }
        if (changed)
        {
            stateChangeSample(instance, writerGuid, sourceTimeNs);
        }
    }

    private void acceptData(final ReaderInstance<T> instance, final long writerGuid, final long sourceTimeNs,
        final T data)
    {
        if (instance.state != InstanceState.ALIVE)
        {
            if (instance.state == InstanceState.NOT_ALIVE_DISPOSED)
            {
                instance.disposedGen++;
            }
            else
            {
                instance.noWritersGen++;
            }
            instance.state = InstanceState.ALIVE;
            instance.viewNew = true;
            dropInvalidSamples(instance);
        }
        if (!keepAll && instance.samples.size() >= depth)
        {
            removeEntry(instance, 0);
        }
        else if (keepAll && maxSamplesPerInstance != ResourceLimits.LENGTH_UNLIMITED &&
            instance.samples.size() >= maxSamplesPerInstance)
        {
            reject(SampleRejectedStatus.Kind.REJECTED_BY_SAMPLES_PER_INSTANCE_LIMIT, instance.handle, data);
            return;
        }
        if (maxSamples != ResourceLimits.LENGTH_UNLIMITED && totalSamples >= maxSamples)
        {
            reject(SampleRejectedStatus.Kind.REJECTED_BY_SAMPLES_LIMIT, instance.handle, data);
            return;
        }
        instance.addWriter(writerGuid);
        final SampleEntry<T> entry = newEntry();
        entry.data = data;
        entry.valid = true;
        entry.sourceTimeNs = sourceTimeNs;
        entry.publicationGuid = writerGuid;
        entry.disposedGen = instance.disposedGen;
        entry.noWritersGen = instance.noWritersGen;
        instance.samples.add(entry);
        totalSamples++;
        newData = true;
    }

    /** An instance changed state: readers see it through an invalid sample unless an unread sample shows it. */
    private void stateChangeSample(final ReaderInstance<T> instance, final long writerGuid, final long timeNs)
    {
        newData = true;
        if (instance.hasUnread())
        {
            return;
        }
        final SampleEntry<T> entry = newEntry();
        entry.valid = false;
        entry.sourceTimeNs = timeNs;
        entry.publicationGuid = writerGuid;
        entry.disposedGen = instance.disposedGen;
        entry.noWritersGen = instance.noWritersGen;
        instance.samples.add(entry);
        totalSamples++;
    }

    private void dropInvalidSamples(final ReaderInstance<T> instance)
    {
        for (int i = instance.samples.size() - 1; i >= 0; i--)
        {
            if (!instance.samples.get(i).valid)
            {
                removeEntry(instance, i);
            }
        }
    }

    private SampleEntry<T> newEntry()
    {
        final SampleEntry<T> entry = freeEntries.pollFirst();
        if (entry == null)
        {
            return new SampleEntry<>();
        }
        entry.read = false;
        entry.loans = 0;
        entry.removed = false;
        return entry;
    }

    private void removeEntry(final ReaderInstance<T> instance, final int index)
    {
        final SampleEntry<T> entry = instance.samples.remove(index);
        totalSamples--;
        entry.removed = true;
        if (entry.loans == 0)
        {
            recycle(entry);
        }
    }

    private void recycle(final SampleEntry<T> entry)
    {
        if (entry.data != null)
        {
            freeData.addLast(entry.data);
        }
        entry.data = null;
        freeEntries.addLast(entry);
    }

    private void reject(final SampleRejectedStatus.Kind reason, final long instanceHandle, final T data)
    {
        if (data != null)
        {
            freeData.addLast(data);
        }
        pendingRejected++;
        synchronized (statusLock)
        {
            rejectedReason = reason;
            rejectedInstance = instanceHandle;
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
            data = newData;
            lost = pendingLost;
            rejected = pendingRejected;
            newData = false;
            pendingLost = 0;
            pendingRejected = 0;
        }
        finally
        {
            lock.unlock();
        }
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
        inPlace = listener;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Matching (discovery thread, or the delivery thread for a writer whose data came first)

    private boolean matches(final EndpointRecord writer)
    {
        return writer.isWriter() && Matching.sameTopic(writer, record) &&
            Matching.partitionsMatch(writer.partitions(), record.partitions()) &&
            Matching.incompatible(writer, record).isEmpty();
    }

    /** Under {@code lock}: adds the writer; null if it already was matched. */
    private WriterState addMatchedWriter(final EndpointRecord writer)
    {
        if (writers.containsKey(writer.guid()))
        {
            return null;
        }
        final boolean history = transientLocal && writer.durabilityKind() >= Durability.Kind.TRANSIENT_LOCAL.ordinal();
        final WriterState state = new WriterState(writer, history);
        final Long before = departed.remove(writer.guid());
        if (before != null)
        {
            state.lastSeq = before; // a writer back after a failure: what it re-sends and we already took is dropped
        }
        writers.put(writer.guid(), state);
        synchronized (statusLock)
        {
            matched.matched(writer.guid());
        }
        return state;
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
            final WriterState gone = writers.remove(writerGuid);
            if (gone == null)
            {
                if (!writerFailed)
                {
                    departed.remove(writerGuid);
                }
                return;
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
            for (final ReaderInstance<T> instance : byHandle.values())
            {
                if (instance.removeWriter(writerGuid) && instance.writerCount() == 0 &&
                    instance.state == InstanceState.ALIVE)
                {
                    instance.state = InstanceState.NOT_ALIVE_NO_WRITERS;
                    stateChangeSample(instance, writerGuid, io.sirocco.pubsub.core.TimeImpl.nowNs());
                }
            }
            historyArrived.signalAll();
            synchronized (statusLock)
            {
                matched.unmatched(writerGuid);
            }
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
            accept(kind, 0, io.sirocco.pubsub.core.TimeImpl.nowNs(), keyGuid, 0, data);
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
            for (final ReaderInstance<T> instance : byHandle.values())
            {
                if (instanceSelected(instance, state))
                {
                    for (final SampleEntry<T> entry : instance.samples)
                    {
                        if (sampleSelected(entry, state))
                        {
                            return true;
                        }
                    }
                }
            }
            return false;
        }
        finally
        {
            lock.unlock();
        }
    }

    private static <T> boolean instanceSelected(final ReaderInstance<T> instance, final DataStateImpl state)
    {
        return (state.instanceMask() & instance.stateBit()) != 0 &&
            (state.viewMask() & (instance.viewNew ? DataStateImpl.VIEW_NEW : DataStateImpl.VIEW_NOT_NEW)) != 0;
    }

    private static <T> boolean sampleSelected(final SampleEntry<T> entry, final DataStateImpl state)
    {
        return (state.sampleMask() & (entry.read ? DataStateImpl.SAMPLE_READ : DataStateImpl.SAMPLE_NOT_READ)) != 0;
    }

    /**
     * The core of every read and take: collects the selected samples into {@code out} (pooled SampleImpls
     * referencing cached data), marks them read or removes them, and computes ranks. Runs under {@code lock}.
     */
    private void collect(final SelectorImpl<T> selector, final boolean take, final List<SampleImpl<T>> out,
        final boolean forLoan)
    {
        if (selector.query() != null && !selector.query().isEmpty())
        {
            throw new UnsupportedOperationException(describe() + ": content queries (Selector.Content / " +
                "QueryCondition, DDS-SQL) are not implemented yet");
        }
        final DataStateImpl state = selector.state();
        final int max = selector.getMaxSamples() == ResourceLimits.LENGTH_UNLIMITED ? Integer.MAX_VALUE :
            selector.getMaxSamples();
        final long handle = selector.instanceValue();
        final boolean next = selector.nextInstanceFlag();
        // Instances in handle order: handles grow as instances are created, so {@code ordered} is sorted. Walking it
        // by index keeps an empty poll allocation-free.
        int index;
        int end = ordered.size();
        if (next)
        {
            index = firstAfter(handle);
        }
        else if (handle != 0)
        {
            final ReaderInstance<T> only = byHandle.get(handle);
            if (only == null)
            {
                throw DdsExceptions.precondition(env, describe() + ": read/take: " + new HandleImpl(env, handle) +
                    " is not an instance of this reader");
            }
            index = ordered.indexOf(only);
            end = index + 1;
        }
        else
        {
            index = totalSamples == 0 ? end : 0;
        }
        List<ReaderInstance<T>> emptied = null;
        while (index < end && out.size() < max)
        {
            final ReaderInstance<T> current = ordered.get(index++);
            if (!instanceSelected(current, state))
            {
                continue;
            }
            final int first = out.size();
            for (int i = 0; i < current.samples.size() && out.size() < max; i++)
            {
                final SampleEntry<T> entry = current.samples.get(i);
                if (!sampleSelected(entry, state))
                {
                    continue;
                }
                final SampleImpl<T> sample = freeSamples.isEmpty() ? new SampleImpl<>(env) : freeSamples.pollFirst();
                sample.fill(entry.data, entry, current);
                out.add(sample);
                if (take)
                {
                    current.samples.remove(i--);
                    totalSamples--;
                    entry.removed = true;
                }
                else
                {
                    entry.read = true;
                }
                if (forLoan)
                {
                    entry.loans++;
                }
            }
            final int count = out.size() - first;
            if (count == 0)
            {
                continue;
            }
            final SampleImpl<T> last = out.get(out.size() - 1);
            final int lastGen = last.getDisposedGenerationCount() + last.getNoWritersGenerationCount();
            final int instanceGen = current.disposedGen + current.noWritersGen;
            for (int i = 0; i < count; i++)
            {
                final SampleImpl<T> sample = out.get(first + i);
                final int gen = sample.getDisposedGenerationCount() + sample.getNoWritersGenerationCount();
                sample.ranks(count - 1 - i, lastGen - gen, instanceGen - gen);
            }
            current.viewNew = false;
            if (current.samples.isEmpty() && current.state != InstanceState.ALIVE && current.writerCount() == 0)
            {
                if (emptied == null)
                {
                    emptied = new ArrayList<>(2);
                }
                emptied.add(current);
            }
            if (next)
            {
                break;
            }
        }
        if (emptied != null)
        {
            for (final ReaderInstance<T> gone : emptied)
            {
                instances.remove(gone.key);
                byHandle.remove(gone.handle);
                ordered.remove(gone);
            }
        }
        statusRead(StatusKinds.DATA_AVAILABLE);
        group.statusRead(StatusKinds.DATA_ON_READERS);
    }

    /** Index in {@code ordered} of the first instance with a handle greater than {@code handle}. */
    private int firstAfter(final long handle)
    {
        int low = 0;
        int high = ordered.size();
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (ordered.get(mid).handle <= handle)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        return low;
    }

    private Sample.Iterator<T> loan(final SelectorImpl<T> selector, final boolean take)
    {
        checkEnabled();
        lock.lock();
        try
        {
            final LoanIterator<T> loan = freeLoans.isEmpty() ? new LoanIterator<>(this) : freeLoans.pollFirst();
            loan.reset(take);
            try
            {
                collect(selector, take, loan.samples, true);
            }
            catch (final RuntimeException ex)
            {
                loan.open = false;
                loan.samples.clear();
                freeLoans.addLast(loan);
                throw ex;
            }
            outstandingLoans++;
            return loan;
        }
        finally
        {
            lock.unlock();
        }
    }

    void returnLoan(final LoanIterator<T> loan)
    {
        lock.lock();
        try
        {
            for (int i = 0; i < loan.samples.size(); i++)
            {
                final SampleImpl<T> sample = loan.samples.get(i);
                final SampleEntry<T> entry = sample.entry;
                if (entry != null)
                {
                    entry.loans--;
                    if (entry.removed && entry.loans == 0)
                    {
                        recycle(entry);
                    }
                }
                sample.clearData();
                freeSamples.addLast(sample);
            }
            loan.samples.clear();
            outstandingLoans--;
            freeLoans.addLast(loan);
        }
        finally
        {
            lock.unlock();
        }
        if (!conditions.isEmpty())
        {
            signalConditions();
        }
    }

    private List<Sample<T>> copy(final List<Sample<T>> samples, final SelectorImpl<T> selector, final boolean take)
    {
        checkEnabled();
        final List<Sample<T>> result = samples == null ? new ArrayList<>() : samples;
        final List<SampleImpl<T>> collected = new ArrayList<>();
        lock.lock();
        try
        {
            collect(selector, take, collected, false);
            for (int i = 0; i < collected.size(); i++)
            {
                final SampleImpl<T> source = collected.get(i);
                final SampleImpl<T> target;
                if (i < result.size() && result.get(i) instanceof SampleImpl<T> reuse)
                {
                    target = reuse;
                }
                else
                {
                    target = new SampleImpl<>(env);
                    if (i < result.size())
                    {
                        result.set(i, target);
                    }
                    else
                    {
                        result.add(target);
                    }
                }
                target.copyMeta(source);
                target.data(source.data() == null ? null : ops.copy(source.data()));
                target.copier(ops::copy);
                final SampleEntry<T> entry = source.entry;
                if (take && entry != null && entry.loans == 0)
                {
                    recycle(entry);
                }
                source.clearData();
                freeSamples.addLast(source);
            }
        }
        finally
        {
            lock.unlock();
        }
        while (result.size() > collected.size())
        {
            result.remove(result.size() - 1);
        }
        if (take && !conditions.isEmpty())
        {
            signalConditions();
        }
        return result;
    }

    @Override
    public Sample.Iterator<T> read()
    {
        return loan(defaultSelector, false);
    }

    @Override
    public Sample.Iterator<T> read(final Selector<T> query)
    {
        return loan(selectorOf(query), false);
    }

    @Override
    public Sample.Iterator<T> read(final int maxSamples)
    {
        return loan(limited(maxSamples), false);
    }

    @Override
    public List<Sample<T>> read(final List<Sample<T>> samples)
    {
        return copy(samples, defaultSelector, false);
    }

    @Override
    public List<Sample<T>> read(final List<Sample<T>> samples, final Selector<T> selector)
    {
        return copy(samples, selectorOf(selector), false);
    }

    @Override
    public Sample.Iterator<T> take()
    {
        return loan(defaultSelector, true);
    }

    @Override
    public Sample.Iterator<T> take(final int maxSamples)
    {
        return loan(limited(maxSamples), true);
    }

    @Override
    public Sample.Iterator<T> take(final Selector<T> query)
    {
        return loan(selectorOf(query), true);
    }

    @Override
    public List<Sample<T>> take(final List<Sample<T>> samples)
    {
        return copy(samples, defaultSelector, true);
    }

    @Override
    public List<Sample<T>> take(final List<Sample<T>> samples, final Selector<T> selector)
    {
        return copy(samples, selectorOf(selector), true);
    }

    private SelectorImpl<T> limited(final int maxSamples)
    {
        final SelectorImpl<T> selector = new SelectorImpl<>(this);
        selector.maxSamples(maxSamples);
        return selector;
    }

    private SelectorImpl<T> selectorOf(final Selector<T> selector)
    {
        if (selector instanceof SelectorImpl<T> impl)
        {
            return impl;
        }
        throw new IllegalArgumentException(describe() + ": the Selector must come from this reader's select()");
    }

    @Override
    public boolean readNextSample(final Sample<T> sample)
    {
        return nextSample(sample, false);
    }

    @Override
    public boolean takeNextSample(final Sample<T> sample)
    {
        return nextSample(sample, true);
    }

    private boolean nextSample(final Sample<T> sample, final boolean take)
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
            final ReaderInstance<T> instance = byHandle.get(HandleImpl.valueOf(handle));
            if (instance == null || instance.keyHolder == null)
            {
                throw new IllegalArgumentException(describe() + ": getKeyValue: " + handle +
                    " is not an instance of this reader");
            }
            return ops.copy(instance.keyHolder);
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
            final ReaderInstance<T> instance = instances.get(new InstanceKey().set(hash));
            final ModifiableInstanceHandle result = handle == null ? new HandleImpl(env, 0) : handle;
            ((HandleImpl)result).value(instance == null ? 0 : instance.handle);
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
        final ReadConditionImpl<T> condition = new ReadConditionImpl<>(this, DataStateImpl.of(env, states));
        synchronized (conditions)
        {
            conditions.add(condition);
            conditionArray = conditions.toArray();
        }
        return condition;
    }

    void removeCondition(final ReadConditionImpl<T> condition)
    {
        synchronized (conditions)
        {
            conditions.remove(condition);
            conditionArray = conditions.toArray();
        }
    }

    private void signalConditions()
    {
        final Object[] current = conditionArray;
        for (int i = 0; i < current.length; i++)
        {
            ((ReadConditionImpl<?>)current[i]).links().signal();
        }
    }

    @Override
    public QueryCondition<T> createQueryCondition(final String queryExpression, final List<String> queryParameters)
    {
        throw new UnsupportedOperationException(describe() + ": QueryCondition (DDS-SQL content queries) is not " +
            "implemented yet");
    }

    @Override
    public QueryCondition<T> createQueryCondition(final Subscriber.DataState states, final String queryExpression,
        final List<String> queryParameters)
    {
        throw new UnsupportedOperationException(describe() + ": QueryCondition (DDS-SQL content queries) is not " +
            "implemented yet");
    }

    @Override
    public void closeContainedEntities()
    {
        synchronized (conditions)
        {
            conditions.clear();
            conditionArray = new Object[0];
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Statuses and listeners

    @Override
    protected Status resetStatus(final int statusBit)
    {
        return switch (statusBit)
        {
            case StatusKinds.SUBSCRIPTION_MATCHED -> matched.subscription(env);
            case StatusKinds.REQUESTED_INCOMPATIBLE_QOS -> incompatible.requested(env);
            case StatusKinds.SAMPLE_LOST -> lostStatus();
            case StatusKinds.SAMPLE_REJECTED -> rejectedStatus();
            default -> throw new IllegalArgumentException(describe() + ": no status for bit " + statusBit);
        };
    }

    private SampleLostStatus lostStatus()
    {
        final SampleLostStatus status = new Statuses.SampleLostStatusImpl(env, lostTotal, lostChange);
        lostChange = 0;
        return status;
    }

    private SampleRejectedStatus rejectedStatus()
    {
        final SampleRejectedStatus status = new Statuses.SampleRejectedStatusImpl(env, rejectedTotal, rejectedChange,
            rejectedReason, new HandleImpl(env, rejectedInstance));
        rejectedChange = 0;
        return status;
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
    }

    @Override
    protected void fireIncompatible()
    {
        fire(StatusKinds.REQUESTED_INCOMPATIBLE_QOS, Events.RequestedIncompatibleQosEventImpl<T>::new,
            DataReaderListener::onRequestedIncompatibleQos, SubscriberListener::onRequestedIncompatibleQos);
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

    /** Liveliness follows group membership: the alive writers are the matched ones. */
    @Override
    public LivelinessChangedStatus getLivelinessChangedStatus()
    {
        checkOpen();
        synchronized (statusLock)
        {
            return new Statuses.LivelinessChangedStatusImpl(env, matched.current(), 0, 0, 0,
                new HandleImpl(env, matched.last()));
        }
    }

    /** The deadline is infinite (enforced at creation), so it is never missed. */
    @Override
    public RequestedDeadlineMissedStatus getRequestedDeadlineMissedStatus()
    {
        checkOpen();
        return new Statuses.RequestedDeadlineMissedStatusImpl(env, 0, 0, env.getSPI().nil());
    }

    @Override
    public void waitForHistoricalData(final Duration maxWait) throws TimeoutException
    {
        waitForHistoricalData(DurationImpl.toNanos(maxWait), TimeUnit.NANOSECONDS);
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
                boolean waiting = false;
                for (final WriterState writer : writers.values())
                {
                    waiting |= writer.awaitingHistory;
                }
                if (!waiting)
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
            final Set<InstanceHandle> handles = new HashSet<>();
            for (final Long writerGuid : writers.keySet())
            {
                handles.add(new HandleImpl(env, writerGuid));
            }
            return handles;
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
            final WriterState writer = writers.get(HandleImpl.valueOf(handle));
            if (writer == null)
            {
                throw new IllegalArgumentException(describe() + ": " + handle + " is not a matched publication");
            }
            return new PublicationDataImpl(env, writer.record);
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
        return topic;
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
