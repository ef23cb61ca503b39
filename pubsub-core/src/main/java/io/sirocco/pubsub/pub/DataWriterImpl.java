package io.sirocco.pubsub.pub;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.dds.loan.LoaningDataWriter;
import io.sirocco.dds.type.TypeCodec;
import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.CoherentSetMark;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.durability.DurabilityNode;
import io.sirocco.pubsub.durability.DurableZoneWriter;
import io.sirocco.pubsub.qos.QosChecks;
import io.sirocco.pubsub.status.DeadlineMonitor;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ModifiableInstanceHandle;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.status.Status;
import org.omg.dds.pub.DataWriterListener;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.topic.Topic;

/**
 * A DataWriter. {@code write} runs on the application thread under {@code lock}: it finds the instance in
 * {@link WriterInstances} (no allocation for a known instance) and hands the sample to {@link WriterSendPath}, which
 * serializes it straight into the claimed send slot of the topic's subgroup (blocking for up to max_blocking_time
 * while a reliable reader's window is full), keeps a copy in the instance history when the writer is TRANSIENT_LOCAL,
 * and commits; a sample larger than a slot, a bus without in-place slots, and lifecycle messages (dispose,
 * unregister) take the bulk path. {@link WriterLoan} lends the slot itself. The statuses, their listener calls and
 * the LIVELINESS assertions are in {@link DataWriterStatuses}, the PSM's overloads in {@link DataWriterOverloads}.
 *
 * <p>Locks: {@code lock} guards the instances, the send path and the loan (an open loan keeps it). Matching runs on
 * the participant's discovery thread; the matched readers and the statuses are guarded by {@code statusLock}
 * ({@link WriterMatches}), and listeners are called after it is released. {@code statusLock} is never held while
 * taking {@code lock}; a late joiner's history replay takes {@code lock} after the match is recorded.
 */
public final class DataWriterImpl<T> extends DataWriterStatuses<T> implements LoaningDataWriter<T>
{
    private final TypeCodec<T> codec;
    /** Guards the instances, the send path and the loan (see each class); held for the whole of a write. */
    private final ReentrantLock lock = new ReentrantLock();
    private final WriterInstances<T> instances;
    private final WriterSendPath<T> sendPath;
    private final WriterLoan<T> loan;
    private final DeadlineMonitor deadline;
    private final boolean reliable;
    private final boolean transientLocal;
    private final boolean autodispose;
    private final long maxBlockingNs;
    /** The announcement; rebuilt and announced again by each {@code setQos} of this writer or its publisher. */
    private volatile EndpointRecord record;

    DataWriterImpl(final SiroccoServiceEnvironment env, final PublisherView publisher, final long guid,
        final TopicImpl<T> topic, final DataWriterQos qos, final DataWriterListener<T> listener,
        final Collection<Class<? extends Status>> statuses)
    {
        super(env, publisher, guid, topic, qos, listener, statuses);
        this.codec = topic.typeSupport().codec();
        final String me = describe();
        QosChecks.historyAndLimits(env, me, qos.getHistory(), qos.getResourceLimits());
        this.reliable = qos.getReliability().getKind() == Reliability.Kind.RELIABLE;
        this.maxBlockingNs = DurationImpl.toNanos(qos.getReliability().getMaxBlockingTime());
        // A TRANSIENT writer keeps the TRANSIENT_LOCAL history too: it serves late joiners while it lives.
        this.transientLocal = qos.getDurability().getKind().ordinal() >= Durability.Kind.TRANSIENT_LOCAL.ordinal();
        final int depth = qos.getHistory().getDepth();
        this.autodispose = qos.getWriterDataLifecycle().isAutDisposeUnregisteredInstances();
        this.instances = new WriterInstances<>(env, me, codec, qos.getResourceLimits().getMaxInstances(),
            qos.getHistory().getKind() == History.Kind.KEEP_ALL, depth,
            qos.getResourceLimits().getMaxSamplesPerInstance(), DurationImpl.toNanos(qos.getLifespan().getDuration()));
        this.sendPath = new WriterSendPath<>(me, topic.getTypeName(), guid, codec, instances, maxBlockingNs,
            transientLocal, readerFilters);
        this.loan = new WriterLoan<>(me, lock, codec, instances, sendPath, maxBlockingNs);
        this.deadline = new DeadlineMonitor(lock, statusLock, deadlineMisses, instances::forEachRegistered,
            this::fireDeadlineMissed, participant.timers());
        this.record = recordOf(qos);
        sendPath.liveliness(liveliness);
        sendPath.coherence(new WriterCoherence(publisher::openCoherentSet));
        topic.addUser();
    }

    public EndpointRecord record()
    {
        return record;
    }

    /** Samples not sent because every matched reader has a content filter and none passed them. */
    public long samplesFilteredAtWriter()
    {
        return sendPath.readerFilters().filteredOut();
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
            throw DdsExceptions.precondition(env, describe() + ": enable() before its publisher is enabled");
        }
        // First, so that a TRANSIENT writer on a bus without log replication fails before it opened anything.
        final DurableZoneWriter zone = DurabilityNode.openIfTransient(participant::durability, guid,
            WriterResumption.zoneIndex(guid), describe(), getQos().getDurability(), getQos().getDurabilityService());
        sendPath.open(participant.bus().openWriter(guid, topic.getName(), reliable));
        sendPath.durable(zone, WriterResumption.fetch(env, participant, record, describe()));
        participant.registerWriter(this);
        super.enable();
        participant.bus().announce(record);
        deadline.period(DurationImpl.toNanos(qos.getDeadline().getPeriod()));
        liveliness.start(System.nanoTime());
    }

    private EndpointRecord recordOf(final DataWriterQos qos)
    {
        return WriterRecord.of(guid, participant.guid(), topic.getName(), topic.getTypeName(), codec.type().getName(),
            qos, group.getQos(), maxBlockingNs, topic.getQos().getTopicData().getValue());
    }

    /**
     * DEADLINE: a new period applies from now on (its misses are counted from the instances' last writes);
     * LIFESPAN: from the next history replay on. Every changeable policy that discovery carries (DEADLINE,
     * LATENCY_BUDGET, OWNERSHIP_STRENGTH, LIFESPAN, USER_DATA) is announced again, so that matched readers re-match
     * (an offered DEADLINE longer than one requests unmatches it), rank the writer anew and expire its samples by the
     * new duration.
     */
    @Override
    protected void applyChangeable(final DataWriterQos newQos)
    {
        final long lifespanNs = DurationImpl.toNanos(newQos.getLifespan().getDuration());
        if (lifespanNs != record.lifespanNs())
        {
            lock.lock();
            try
            {
                instances.lifespan(lifespanNs);
            }
            finally
            {
                lock.unlock();
            }
        }
        record = recordOf(newQos);
        if (isEnabled())
        {
            deadline.period(DurationImpl.toNanos(newQos.getDeadline().getPeriod()));
            participant.bus().announce(record);
        }
    }

    /** {@code setQos} of the publisher (PARTITION, GROUP_DATA): the writer is announced again and re-matched. */
    public void publisherQosChanged()
    {
        record = recordOf(getQos());
        if (isEnabled() && !isClosed())
        {
            participant.bus().announce(record);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Writing, and zero-copy loans (io.sirocco.dds.loan)

    @Override
    protected void write(final T data, final InstanceHandle handle, final long timestampNs) throws TimeoutException
    {
        checkEnabled();
        if (data == null)
        {
            throw new IllegalArgumentException(describe() + ": write(null): a sample is required");
        }
        final long handleValue = handle == null ? 0 : HandleImpl.valueOf(handle);
        lock.lock();
        try
        {
            if (loan.isOpen())
            {
                // Only the loaning thread gets here (the loan holds the lock): its slot is still claimed.
                throw DdsExceptions.precondition(env, describe() + ": write while this thread holds an open loan; " +
                    "commit or close it first");
            }
            final WriterInstance<T> instance = instances.of(data, true);
            if (handleValue != 0 && handleValue != instance.handle)
            {
                throw new IllegalArgumentException(describe() + ": write: " + handle + " is not the instance of " +
                    "the sample's key");
            }
            sendPath.write(instance, data, timestampNs);
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Lends the next send slot of the topic's subgroup (see {@link WriterLoan}). Waiting for room (RELIABLE) happens
     * here, up to max_blocking_time. The loan keeps the writer's lock until it is committed or closed.
     */
    @Override
    public WriteLoan loan(final int sizeBytes)
    {
        checkEnabled();
        if (sizeBytes < 4)
        {
            throw new IllegalArgumentException(describe() + ": loan(" + sizeBytes + "): a serialized sample has at " +
                "least its 4-byte encapsulation header");
        }
        lock.lock();
        if (loan.isOpen())
        {
            lock.unlock();
            throw DdsExceptions.precondition(env, describe() + ": a loan is already open; commit or close it first");
        }
        return loan.open(sizeBytes);
    }

    /** The publisher's endCoherentChanges, first step: how many messages this writer sent in the set. */
    public int coherentCount(final long setNumber)
    {
        lock.lock();
        try
        {
            return sendPath.coherentCount(setNumber);
        }
        finally
        {
            lock.unlock();
        }
    }

    /** The publisher's endCoherentChanges, second step: sends this writer's end of the set (see WriterSendPath). */
    public void endCoherentSet(final CoherentSetMark mark) throws TimeoutException
    {
        lock.lock();
        try
        {
            sendPath.endCoherentSet(mark);
        }
        finally
        {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Instances

    @Override
    public InstanceHandle registerInstance(final T instanceData, final long sourceTimestamp, final TimeUnit unit)
        throws TimeoutException
    {
        checkEnabled();
        if (instanceData == null)
        {
            throw new IllegalArgumentException(describe() + ": registerInstance(null)");
        }
        lock.lock();
        try
        {
            final WriterInstance<T> instance = instances.of(instanceData, true);
            instance.registered = true;
            return new HandleImpl(env, instance.handle);
        }
        finally
        {
            lock.unlock();
        }
    }

    private void lifecycle(final String operation, final InstanceHandle handle, final T keyData, final int kind,
        final long timestampNs) throws TimeoutException
    {
        checkEnabled();
        lock.lock();
        try
        {
            final WriterInstance<T> instance = instances.resolve(operation, handle, keyData);
            sendPath.serialize(instance.keyHolder);
            sendPath.send(instance, kind, timestampNs);
            if ((kind & BusMessage.KIND_UNREGISTER) != 0)
            {
                instances.forget(instance);
            }
            else if ((kind & BusMessage.KIND_DISPOSE) != 0 && transientLocal)
            {
                instances.keepOnlyLast(instance);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void unregisterInstance(final InstanceHandle handle, final T instanceData, final long sourceTimestamp,
        final TimeUnit unit) throws TimeoutException
    {
        final int kind = autodispose ? BusMessage.KIND_UNREGISTER | BusMessage.KIND_DISPOSE :
            BusMessage.KIND_UNREGISTER;
        lifecycle("unregisterInstance", handle, instanceData, kind, unit.toNanos(sourceTimestamp));
    }

    @Override
    public void dispose(final InstanceHandle handle, final T instanceData, final long sourceTimestamp,
        final TimeUnit unit) throws TimeoutException
    {
        lifecycle("dispose", handle, instanceData, BusMessage.KIND_DISPOSE, unit.toNanos(sourceTimestamp));
    }

    @Override
    public T getKeyValue(final T keyHolder, final InstanceHandle handle)
    {
        checkOpen();
        lock.lock();
        try
        {
            final WriterInstance<T> instance = instances.byHandle(HandleImpl.valueOf(handle));
            if (instance == null)
            {
                throw new IllegalArgumentException(describe() + ": getKeyValue: " + handle +
                    " is not an instance of this writer");
            }
            final T result = keyHolder == null ? codec.newSample() : keyHolder;
            codec.copyKey(instance.keyHolder, result);
            return result;
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
        lock.lock();
        try
        {
            final WriterInstance<T> instance = instances.of(keyHolder, false);
            final ModifiableInstanceHandle result = handle == null ? new HandleImpl(env, 0) : handle;
            ((HandleImpl)result).value(instance == null ? 0 : instance.handle);
            return result;
        }
        finally
        {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Matching (discovery thread)

    /**
     * Discovery thread: a reader announced, or announced again after a {@code setQos} (of it, or of this writer: the
     * own record coming back re-checks every reader). A matched reader that no longer matches is unmatched.
     */
    public void onReaderDiscovered(final EndpointRecord reader)
    {
        if (!reader.isReader() || isClosed() || !isEnabled())
        {
            return;
        }
        if (!compatible(record, reader, reader))
        {
            if (reader.topicName().equals(topic.getName()))
            {
                onReaderGone(reader.guid(), false);
            }
            return;
        }
        if (!matches.add(reader))
        {
            return;
        }
        if (transientLocal && reader.durabilityKind() >= Durability.Kind.TRANSIENT_LOCAL.ordinal())
        {
            replayHistory(reader.guid());
        }
        fireMatched();
    }

    public void onReaderGone(final long readerGuid)
    {
        onReaderGone(readerGuid, true);
    }

    /** @param gone the reader left (else it is still there, but no longer matches: its incompatibility counts). */
    private void onReaderGone(final long readerGuid, final boolean gone)
    {
        synchronized (statusLock)
        {
            if (gone)
            {
                incompatible.remove(readerGuid);
            }
            if (!matches.remove(readerGuid))
            {
                return;
            }
        }
        fireMatched();
    }

    private void replayHistory(final long readerGuid)
    {
        lock.lock();
        try
        {
            sendPath.replay(readerGuid);
        }
        finally
        {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // The rest of the API

    @Override
    public void waitForAcknowledgments(final long maxWait, final TimeUnit unit) throws TimeoutException
    {
        checkEnabled();
        final long deadlineNs = System.nanoTime() + unit.toNanos(maxWait);
        if (!sendPath.awaitDelivered(unit.toNanos(maxWait)))
        {
            throw new TimeoutException(describe() + ": not every matched reader acknowledged within " +
                unit.toMillis(maxWait) + " ms");
        }
        sendPath.awaitDurable(deadlineNs);
    }

    @Override
    public Topic<T> getTopic()
    {
        return topic;
    }

    /** Unregisters (and with autodispose disposes) every registered instance, then leaves the bus. */
    @Override
    protected void detach()
    {
        deadline.close();
        liveliness.close();
        if (isEnabled())
        {
            lock.lock();
            try
            {
                for (final WriterInstance<T> instance : instances.snapshot())
                {
                    if (instance.registered)
                    {
                        try
                        {
                            sendPath.serialize(instance.keyHolder);
                            sendPath.send(instance, autodispose ? BusMessage.KIND_UNREGISTER | BusMessage.KIND_DISPOSE :
                                BusMessage.KIND_UNREGISTER, SourceClock.nowNs());
                        }
                        catch (final TimeoutException ex)
                        {
                            break;
                        }
                    }
                }
                instances.clear();
            }
            finally
            {
                lock.unlock();
            }
            participant.bus().retract(guid);
            participant.unregisterWriter(this);
            sendPath.close();
        }
    }
}
