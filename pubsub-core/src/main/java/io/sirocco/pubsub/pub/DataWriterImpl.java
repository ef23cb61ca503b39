package io.sirocco.pubsub.pub;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.dds.type.TypeCodec;
import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusWriter;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.cache.InstanceKey;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.core.StatusKinds;
import io.sirocco.pubsub.core.TimeImpl;
import io.sirocco.pubsub.entity.EndpointEntity;
import io.sirocco.pubsub.qos.QosChecks;
import io.sirocco.pubsub.status.Events;
import io.sirocco.pubsub.status.MatchedCounts;
import io.sirocco.pubsub.status.Statuses;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.builtin.SubscriptionDataImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ModifiableInstanceHandle;
import org.omg.dds.core.Time;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.policy.ResourceLimits;
import org.omg.dds.core.status.LivelinessLostStatus;
import org.omg.dds.core.status.OfferedDeadlineMissedStatus;
import org.omg.dds.core.status.OfferedIncompatibleQosStatus;
import org.omg.dds.core.status.PublicationMatchedStatus;
import org.omg.dds.core.status.Status;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.DataWriterListener;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.pub.PublisherListener;
import org.omg.dds.topic.SubscriptionBuiltinTopicData;
import org.omg.dds.topic.Topic;

/**
 * A DataWriter. {@code write} runs on the application thread under {@code lock}: it hashes the key, finds the
 * instance (no allocation for a known instance), claims the next send slot of the topic's subgroup (blocking for up to
 * max_blocking_time while a reliable reader's window is full), serializes straight into that slot, keeps a copy in the
 * instance history when the writer is TRANSIENT_LOCAL, and commits. A sample larger than a slot (or a bus without
 * in-place slots) is serialized into the writer's reusable {@link BusMessage} and published through the bulk path;
 * lifecycle messages (dispose, unregister) take that path too.
 *
 * <p>Matching runs on the participant's discovery thread; matching state and statuses are guarded by
 * {@code statusLock}, and listeners are called after it is released.
 */
public final class DataWriterImpl<T>
    extends EndpointEntity<T, DataWriter<T>, DataWriterListener<T>, PublisherListener, DataWriterQos, PublisherView>
    implements DataWriter<T>, io.sirocco.dds.loan.LoaningDataWriter<T>
{
    private final TypeCodec<T> codec;
    private final io.sirocco.dds.type.DataRepresentation representation;
    private final ReentrantLock lock = new ReentrantLock();
    private final BusMessage message;
    private final byte[] keyHash = new byte[16];
    private final InstanceKey probe = new InstanceKey();
    private final Map<InstanceKey, WriterInstance<T>> instances = new HashMap<>();
    private final Map<Long, WriterInstance<T>> instancesByHandle = new HashMap<>();
    private final boolean reliable;
    private final long maxBlockingNs;
    private final boolean transientLocal;
    private final boolean keepAll;
    private final int depth;
    private final int maxInstances;
    private final int maxSamplesPerInstance;
    private final boolean autodispose;
    private final EndpointRecord record;
    /** The serialized size of every sample of a fixed-size type (no per-write size walk), else 0. */
    private final int fixedSize;
    private final Map<Long, EndpointRecord> matchedReaders = new LinkedHashMap<>();
    private final MatchedCounts matched = new MatchedCounts();
    private BusWriter busWriter;
    private long seq;

    DataWriterImpl(final SiroccoServiceEnvironment env, final PublisherView publisher, final long guid,
        final TopicImpl<T> topic, final DataWriterQos qos, final DataWriterListener<T> listener,
        final Collection<Class<? extends Status>> statuses)
    {
        super(env, "DataWriter", publisher, guid, topic, qos, listener, statuses);
        this.codec = topic.typeSupport().codec();
        this.representation = codec.defaultRepresentation();
        final String me = describe();
        QosChecks.historyAndLimits(env, me, qos.getHistory(), qos.getResourceLimits());
        QosChecks.durability(me, qos.getDurability());
        QosChecks.deadline(me, qos.getDeadline());
        QosChecks.liveliness(me, qos.getLiveliness());
        QosChecks.ownership(me, qos.getOwnership());
        QosChecks.lifespan(me, qos.getLifespan());
        this.reliable = qos.getReliability().getKind() == Reliability.Kind.RELIABLE;
        this.maxBlockingNs = DurationImpl.toNanos(qos.getReliability().getMaxBlockingTime());
        this.transientLocal = qos.getDurability().getKind() == Durability.Kind.TRANSIENT_LOCAL;
        this.keepAll = qos.getHistory().getKind() == History.Kind.KEEP_ALL;
        this.depth = qos.getHistory().getDepth();
        this.maxInstances = qos.getResourceLimits().getMaxInstances();
        this.maxSamplesPerInstance = qos.getResourceLimits().getMaxSamplesPerInstance();
        this.autodispose = qos.getWriterDataLifecycle().isAutDisposeUnregisteredInstances();
        final long maxSize = codec.maxSerializedSize();
        this.fixedSize = codec.isFixedSize() && maxSize > 0 && maxSize < 65536 ? (int)maxSize : 0;
        this.message = new BusMessage(maxSize > 0 && maxSize < 65536 ? (int)maxSize : 256);
        this.record = new EndpointRecord(EndpointRecord.WRITER, guid, participant.guid(), topic.getName(),
            topic.getTypeName(), codec.type().getName(), qos.getReliability().getKind().ordinal(), maxBlockingNs,
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

    private static final class WriterInstance<T>
    {
        final long handle;
        final InstanceKey key;
        final T keyHolder;
        final ArrayDeque<BusMessage> history = new ArrayDeque<>();
        boolean registered;

        WriterInstance(final long handle, final InstanceKey key, final T keyHolder)
        {
            this.handle = handle;
            this.key = key;
            this.keyHolder = keyHolder;
        }
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
            throw DdsExceptions.precondition(env, describe() + ": enable() before its publisher is enabled");
        }
        busWriter = participant.bus().openWriter(guid, topic.getName(), reliable);
        participant.registerWriter(this);
        super.enable();
        participant.bus().announce(record);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Writing

    private WriterInstance<T> instanceOf(final T data, final boolean create)
    {
        codec.keyHash(data, keyHash);
        probe.set(keyHash);
        WriterInstance<T> instance = instances.get(probe);
        if (instance == null && create)
        {
            if (maxInstances != ResourceLimits.LENGTH_UNLIMITED && instances.size() >= maxInstances)
            {
                throw DdsExceptions.outOfResources(env, describe() + ": ResourceLimits max_instances (" + maxInstances +
                    ") reached; unregister an instance first");
            }
            final T keyHolder = codec.newSample();
            codec.copyKey(data, keyHolder);
            final InstanceKey key = probe.copy();
            instance = new WriterInstance<>(HandleImpl.nextLocal(), key, keyHolder);
            instances.put(key, instance);
            instancesByHandle.put(instance.handle, instance);
        }
        return instance;
    }

    private void serialize(final T data)
    {
        final int size = serializedSize(data);
        try
        {
            message.ensureCapacity(size);
            message.payloadLength((int)codec.serialize(data, message.payloadSegment(), 0, representation));
        }
        catch (final IllegalArgumentException | NullPointerException ex)
        {
            throw rejected(ex);
        }
    }

    /** The exact serialized size (encapsulation header included); a sample violating a bound is rejected. */
    private int serializedSize(final T data)
    {
        try
        {
            final long size = fixedSize > 0 ? fixedSize : codec.serializedSize(data, representation);
            if (size > Integer.MAX_VALUE - 64)
            {
                throw new IllegalArgumentException("serialized size " + size + " bytes is too large");
            }
            return (int)size;
        }
        catch (final IllegalArgumentException | NullPointerException ex)
        {
            throw rejected(ex);
        }
    }

    private IllegalArgumentException rejected(final RuntimeException ex)
    {
        return new IllegalArgumentException(describe() + ": sample of type " + topic.getTypeName() + " rejected: " +
            ex.getMessage(), ex);
    }

    private TimeoutException timedOut()
    {
        return new TimeoutException(describe() + ": a RELIABLE reader stayed a full window behind for the " +
            "Reliability max_blocking_time (" + TimeUnit.NANOSECONDS.toMillis(maxBlockingNs) + " ms)");
    }

    /**
     * Writes a DATA sample straight into the claimed send slot of the topic's subgroup: the codec serializes into the
     * slot (no intermediate buffer), the bus writes its header in front, and the commit publishes it. RELIABLE
     * blocking is the claim's: it waits for room up to max_blocking_time. Any failure between claim and commit (a
     * sample violating a bound, KEEP_ALL history full) aborts the claim, whose slot then keeps its place in the order
     * and is delivered to nobody. Allocates nothing for a known instance.
     *
     * @return false when the bus has no in-place slot for this sample (another bus, no view yet, or a sample larger
     *         than a slot, which goes through the bulk path): the caller takes the copying path.
     */
    private boolean writeInPlace(final WriterInstance<T> instance, final T data, final long timestampNs)
        throws TimeoutException
    {
        final int size = serializedSize(data);
        final int rc = busWriter.claim(size, maxBlockingNs);
        if (rc == BusWriter.NOT_IN_PLACE)
        {
            return false;
        }
        if (rc == BusWriter.TIMED_OUT)
        {
            throw timedOut();
        }
        boolean handedOver = false;
        try
        {
            final java.lang.foreign.MemorySegment slot = busWriter.claimedBuffer();
            final int offset = busWriter.claimedOffset();
            final int length;
            try
            {
                length = (int)codec.serialize(data, slot, offset, representation);
            }
            catch (final IllegalArgumentException | NullPointerException ex)
            {
                throw rejected(ex);
            }
            instance.registered = true;
            prepareInPlace(instance, slot, offset, length, timestampNs);
            handedOver = true;
            busWriter.commitClaim(message, length);
        }
        finally
        {
            if (!handedOver)
            {
                busWriter.abortClaim();
            }
        }
        return true;
    }

    /**
     * Sets the header of a DATA message whose {@code length} payload bytes are already in the claimed slot and keeps
     * the TRANSIENT_LOCAL history copy; the caller then commits. If the history refuses the sample the caller aborts
     * the claim instead.
     */
    private void prepareInPlace(final WriterInstance<T> instance, final java.lang.foreign.MemorySegment slot,
        final int offset, final int length, final long timestampNs)
    {
        message.kind(BusMessage.KIND_DATA).writerGuid(guid).seq(seq + 1).sourceTimeNs(timestampNs)
            .keyHash(instance.key.hi(), instance.key.lo());
        if (transientLocal)
        {
            message.ensureCapacity(length);
            java.lang.foreign.MemorySegment.copy(slot, offset, message.payloadSegment(), 0, length);
            message.payloadLength(length);
            remember(instance);
        }
        seq++;
    }

    private void send(final WriterInstance<T> instance, final int kind, final long timestampNs)
        throws TimeoutException
    {
        message.kind(kind).writerGuid(guid).seq(++seq).sourceTimeNs(timestampNs)
            .keyHash(instance.key.hi(), instance.key.lo());
        if (transientLocal)
        {
            remember(instance);
        }
        if (!busWriter.publish(message, maxBlockingNs))
        {
            throw timedOut();
        }
    }

    private void remember(final WriterInstance<T> instance)
    {
        final BusMessage copy;
        if (!keepAll && instance.history.size() >= depth)
        {
            copy = instance.history.pollFirst();
        }
        else if (keepAll && maxSamplesPerInstance != ResourceLimits.LENGTH_UNLIMITED &&
            instance.history.size() >= maxSamplesPerInstance)
        {
            throw DdsExceptions.outOfResources(env, describe() + ": History KEEP_ALL with ResourceLimits " +
                "max_samples_per_instance (" + maxSamplesPerInstance + ") full for instance " + instance.key);
        }
        else
        {
            copy = new BusMessage(message.payloadLength());
        }
        copy.copyFrom(message);
        instance.history.addLast(copy);
    }

    private void write(final T data, final InstanceHandle handle, final long timestampNs) throws TimeoutException
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
            if (loan.open)
            {
                // Only the loaning thread gets here (the loan holds the lock): its slot is still claimed.
                throw DdsExceptions.precondition(env, describe() + ": write while this thread holds an open loan; " +
                    "commit or close it first");
            }
            final WriterInstance<T> instance = instanceOf(data, true);
            if (handleValue != 0 && handleValue != instance.handle)
            {
                throw new IllegalArgumentException(describe() + ": write: " + handle + " is not the instance of " +
                    "the sample's key");
            }
            if (!writeInPlace(instance, data, timestampNs))
            {
                serialize(data);
                instance.registered = true;
                send(instance, BusMessage.KIND_DATA, timestampNs);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void write(final T data) throws TimeoutException
    {
        write(data, null, SourceClock.nowNs());
    }

    @Override
    public void write(final T data, final Time sourceTimestamp) throws TimeoutException
    {
        write(data, null, TimeImpl.toNanos(sourceTimestamp));
    }

    @Override
    public void write(final T data, final long sourceTimestamp, final TimeUnit unit) throws TimeoutException
    {
        write(data, null, unit.toNanos(sourceTimestamp));
    }

    @Override
    public void write(final T data, final InstanceHandle handle) throws TimeoutException
    {
        write(data, handle, SourceClock.nowNs());
    }

    @Override
    public void write(final T data, final InstanceHandle handle, final Time sourceTimestamp)
        throws TimeoutException
    {
        write(data, handle, TimeImpl.toNanos(sourceTimestamp));
    }

    @Override
    public void write(final T data, final InstanceHandle handle, final long sourceTimestamp, final TimeUnit unit)
        throws TimeoutException
    {
        write(data, handle, unit.toNanos(sourceTimestamp));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Zero-copy loans (io.sirocco.dds.loan)

    private final Loan loan = new Loan();
    private T keyScratch;

    /**
     * Lends the next send slot of the topic's subgroup itself: the application's bytes are the slot's bytes, and
     * commit only writes the bus header in front and publishes. Waiting for room (RELIABLE) happens here, up to
     * max_blocking_time. Where the bus has no in-place slot (another bus, no view yet, a size larger than a slot) or
     * the wait timed out, the loan is the writer's own buffer and commit publishes it as {@code write} would
     * (throwing the TimeoutException then).
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
        if (loan.open)
        {
            lock.unlock();
            throw DdsExceptions.precondition(env, describe() + ": a loan is already open; commit or close it first");
        }
        loan.open = true;
        loan.size = sizeBytes;
        if (busWriter.claim(sizeBytes, maxBlockingNs) == BusWriter.CLAIMED)
        {
            loan.inSlot = true;
            loan.segment = busWriter.claimedBuffer().asSlice(busWriter.claimedOffset(), sizeBytes);
        }
        else
        {
            loan.inSlot = false;
            message.ensureCapacity(sizeBytes);
            message.payloadLength(sizeBytes);
            loan.segment = message.payloadSegment().asSlice(0, sizeBytes);
        }
        return loan;
    }

    /**
     * The writer's one loan object: reused, so that a loan allocates nothing but its segment slice. While
     * {@code inSlot} the loan holds a claimed slot (and the bus's send lock) besides the writer's lock.
     */
    private final class Loan implements WriteLoan
    {
        boolean open;
        boolean inSlot;
        int size;
        java.lang.foreign.MemorySegment segment;

        @Override
        public java.lang.foreign.MemorySegment segment()
        {
            return segment;
        }

        @Override
        public void commit() throws TimeoutException
        {
            if (!open)
            {
                throw new IllegalStateException(describe() + ": commit() without an open loan");
            }
            try
            {
                final WriterInstance<T> instance;
                if (codec.isKeyed())
                {
                    keyScratch = codec.deserialize(segment, 0, size, keyScratch);
                    instance = instanceOf(keyScratch, true);
                }
                else
                {
                    if (keyScratch == null)
                    {
                        keyScratch = codec.newSample();
                    }
                    instance = instanceOf(keyScratch, true);
                }
                instance.registered = true;
                if (inSlot)
                {
                    prepareInPlace(instance, busWriter.claimedBuffer(), busWriter.claimedOffset(), size,
                        SourceClock.nowNs());
                    inSlot = false;
                    busWriter.commitClaim(message, size);
                }
                else
                {
                    send(instance, BusMessage.KIND_DATA, SourceClock.nowNs());
                }
            }
            finally
            {
                finish();
            }
        }

        @Override
        public void close()
        {
            if (open)
            {
                finish();
            }
        }

        /** Ends the loan: a slot still held (closed, or commit failed before publishing) is aborted. */
        private void finish()
        {
            try
            {
                if (inSlot)
                {
                    inSlot = false;
                    busWriter.abortClaim();
                }
            }
            finally
            {
                open = false;
                segment = null;
                lock.unlock();
            }
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Instances

    @Override
    public InstanceHandle registerInstance(final T instanceData) throws TimeoutException
    {
        return registerInstance(instanceData, SourceClock.nowNs(), TimeUnit.NANOSECONDS);
    }

    @Override
    public InstanceHandle registerInstance(final T instanceData, final Time sourceTimestamp)
        throws TimeoutException
    {
        return registerInstance(instanceData, TimeImpl.toNanos(sourceTimestamp), TimeUnit.NANOSECONDS);
    }

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
            final WriterInstance<T> instance = instanceOf(instanceData, true);
            instance.registered = true;
            return new HandleImpl(env, instance.handle);
        }
        finally
        {
            lock.unlock();
        }
    }

    private WriterInstance<T> resolve(final String operation, final InstanceHandle handle, final T keyData)
    {
        WriterInstance<T> instance = null;
        if (handle != null && !handle.isNil())
        {
            instance = instancesByHandle.get(HandleImpl.valueOf(handle));
            if (instance == null)
            {
                throw new IllegalArgumentException(describe() + ": " + operation + ": " + handle +
                    " is not an instance of this writer");
            }
            if (keyData != null)
            {
                codec.keyHash(keyData, keyHash);
                if (!probe.set(keyHash).equals(instance.key))
                {
                    throw DdsExceptions.precondition(env, describe() + ": " + operation + ": the sample's key does " +
                        "not match " + handle);
                }
            }
        }
        else if (keyData != null)
        {
            instance = instanceOf(keyData, false);
        }
        else
        {
            throw new IllegalArgumentException(describe() + ": " + operation + ": a nil handle needs a key sample");
        }
        if (instance == null || !instance.registered)
        {
            throw DdsExceptions.precondition(env, describe() + ": " + operation + ": the instance is not registered " +
                "with this writer");
        }
        return instance;
    }

    private void lifecycle(final String operation, final InstanceHandle handle, final T keyData, final int kind,
        final long timestampNs) throws TimeoutException
    {
        checkEnabled();
        lock.lock();
        try
        {
            final WriterInstance<T> instance = resolve(operation, handle, keyData);
            serialize(instance.keyHolder);
            send(instance, kind, timestampNs);
            if ((kind & BusMessage.KIND_UNREGISTER) != 0)
            {
                forget(instance);
            }
            else if ((kind & BusMessage.KIND_DISPOSE) != 0 && transientLocal)
            {
                // A disposed instance keeps only the dispose message for late joiners.
                final BusMessage last = instance.history.pollLast();
                instance.history.clear();
                instance.history.addLast(last);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    private void forget(final WriterInstance<T> instance)
    {
        instances.remove(instance.key);
        instancesByHandle.remove(instance.handle);
    }

    @Override
    public void unregisterInstance(final InstanceHandle handle) throws TimeoutException
    {
        unregisterInstance(handle, null, SourceClock.nowNs(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void unregisterInstance(final InstanceHandle handle, final T instanceData) throws TimeoutException
    {
        unregisterInstance(handle, instanceData, SourceClock.nowNs(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void unregisterInstance(final InstanceHandle handle, final T instanceData, final Time sourceTimestamp)
        throws TimeoutException
    {
        unregisterInstance(handle, instanceData, TimeImpl.toNanos(sourceTimestamp), TimeUnit.NANOSECONDS);
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
    public void dispose(final InstanceHandle handle) throws TimeoutException
    {
        dispose(handle, null, SourceClock.nowNs(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void dispose(final InstanceHandle handle, final T instanceData) throws TimeoutException
    {
        dispose(handle, instanceData, SourceClock.nowNs(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void dispose(final InstanceHandle handle, final T instanceData, final Time sourceTimestamp)
        throws TimeoutException
    {
        dispose(handle, instanceData, TimeImpl.toNanos(sourceTimestamp), TimeUnit.NANOSECONDS);
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
            final WriterInstance<T> instance = instancesByHandle.get(HandleImpl.valueOf(handle));
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
    public T getKeyValue(final InstanceHandle handle)
    {
        return getKeyValue(null, handle);
    }

    @Override
    public ModifiableInstanceHandle lookupInstance(final ModifiableInstanceHandle handle, final T keyHolder)
    {
        checkOpen();
        lock.lock();
        try
        {
            final WriterInstance<T> instance = instanceOf(keyHolder, false);
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
    // Matching (discovery thread)

    public void onReaderDiscovered(final EndpointRecord reader)
    {
        if (!reader.isReader() || isClosed() || !isEnabled() || !compatible(record, reader, reader))
        {
            return;
        }
        synchronized (statusLock)
        {
            if (matchedReaders.containsKey(reader.guid()))
            {
                return;
            }
            matchedReaders.put(reader.guid(), reader);
            matched.matched(reader.guid());
        }
        if (transientLocal && reader.durabilityKind() >= Durability.Kind.TRANSIENT_LOCAL.ordinal())
        {
            replayHistory(reader.guid());
        }
        fireMatched();
    }

    public void onReaderGone(final long readerGuid)
    {
        synchronized (statusLock)
        {
            incompatible.remove(readerGuid);
            if (matchedReaders.remove(readerGuid) == null)
            {
                return;
            }
            matched.unmatched(readerGuid);
        }
        fireMatched();
    }

    private void replayHistory(final long readerGuid)
    {
        lock.lock();
        try
        {
            for (final WriterInstance<T> instance : instances.values())
            {
                for (final BusMessage old : instance.history)
                {
                    final int kind = old.kind();
                    old.kind(kind | BusMessage.KIND_HISTORY);
                    final boolean sent = busWriter.sendDirected(readerGuid, old, maxBlockingNs);
                    old.kind(kind);
                    if (!sent)
                    {
                        return;
                    }
                }
            }
            final BusMessage end = new BusMessage(16);
            end.kind(BusMessage.KIND_HISTORY_END).writerGuid(guid).seq(seq).payloadLength(0);
            busWriter.sendDirected(readerGuid, end, maxBlockingNs);
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    protected Status resetStatus(final int statusBit)
    {
        return switch (statusBit)
        {
            case StatusKinds.PUBLICATION_MATCHED -> matched.publication(env);
            case StatusKinds.OFFERED_INCOMPATIBLE_QOS -> incompatible.offered(env);
            default -> throw new IllegalArgumentException(describe() + ": no status for bit " + statusBit);
        };
    }

    private void fireMatched()
    {
        fire(StatusKinds.PUBLICATION_MATCHED, Events.PublicationMatchedEventImpl<T>::new,
            DataWriterListener::onPublicationMatched, PublisherListener::onPublicationMatched);
    }

    @Override
    protected void fireIncompatible()
    {
        fire(StatusKinds.OFFERED_INCOMPATIBLE_QOS, Events.OfferedIncompatibleQosEventImpl<T>::new,
            DataWriterListener::onOfferedIncompatibleQos, PublisherListener::onOfferedIncompatibleQos);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Statuses and the rest of the API

    @Override
    public PublicationMatchedStatus getPublicationMatchedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.PUBLICATION_MATCHED);
    }

    @Override
    public OfferedIncompatibleQosStatus getOfferedIncompatibleQosStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.OFFERED_INCOMPATIBLE_QOS);
    }

    /** Liveliness is AUTOMATIC with an infinite lease (enforced at creation), so it is never lost. */
    @Override
    public LivelinessLostStatus getLivelinessLostStatus()
    {
        checkOpen();
        return new Statuses.LivelinessLostStatusImpl(env, 0, 0);
    }

    /** The deadline is infinite (enforced at creation), so it is never missed. */
    @Override
    public OfferedDeadlineMissedStatus getOfferedDeadlineMissedStatus()
    {
        checkOpen();
        return new Statuses.OfferedDeadlineMissedStatusImpl(env, 0, 0, env.getSPI().nil());
    }

    @Override
    public void assertLiveliness()
    {
        checkOpen();
    }

    @Override
    public Set<InstanceHandle> getMatchedSubscriptions()
    {
        checkOpen();
        synchronized (statusLock)
        {
            final Set<InstanceHandle> handles = new HashSet<>();
            for (final Long readerGuid : matchedReaders.keySet())
            {
                handles.add(new HandleImpl(env, readerGuid));
            }
            return handles;
        }
    }

    @Override
    public SubscriptionBuiltinTopicData getMatchedSubscriptionData(final InstanceHandle handle)
    {
        checkOpen();
        synchronized (statusLock)
        {
            final EndpointRecord reader = matchedReaders.get(HandleImpl.valueOf(handle));
            if (reader == null)
            {
                throw new IllegalArgumentException(describe() + ": " + handle + " is not a matched subscription");
            }
            return new SubscriptionDataImpl(env, reader);
        }
    }

    @Override
    public void waitForAcknowledgments(final Duration maxWait) throws TimeoutException
    {
        waitForAcknowledgments(DurationImpl.toNanos(maxWait), TimeUnit.NANOSECONDS);
    }

    @Override
    public void waitForAcknowledgments(final long maxWait, final TimeUnit unit) throws TimeoutException
    {
        checkEnabled();
        if (!busWriter.awaitDelivered(unit.toNanos(maxWait)))
        {
            throw new TimeoutException(describe() + ": not every matched reader acknowledged within " +
                unit.toMillis(maxWait) + " ms");
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <OTHER> DataWriter<OTHER> cast()
    {
        return (DataWriter<OTHER>)this;
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
        if (isEnabled())
        {
            lock.lock();
            try
            {
                for (final WriterInstance<T> instance : new ArrayList<>(instances.values()))
                {
                    if (instance.registered)
                    {
                        try
                        {
                            serialize(instance.keyHolder);
                            send(instance, autodispose ? BusMessage.KIND_UNREGISTER | BusMessage.KIND_DISPOSE :
                                BusMessage.KIND_UNREGISTER, SourceClock.nowNs());
                        }
                        catch (final TimeoutException ex)
                        {
                            break;
                        }
                    }
                }
                instances.clear();
                instancesByHandle.clear();
            }
            finally
            {
                lock.unlock();
            }
            participant.bus().retract(guid);
            participant.unregisterWriter(this);
            busWriter.close();
        }
    }
}
