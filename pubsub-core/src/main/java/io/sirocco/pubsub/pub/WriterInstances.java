package io.sirocco.pubsub.pub;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.sirocco.dds.type.TypeCodec;
import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.cache.InstanceKey;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.status.DeadlineMonitor;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.OutOfResourcesException;
import org.omg.dds.core.policy.ResourceLimits;

/**
 * A DataWriter's instance table and history cache: instances by key hash and by handle, within ResourceLimits
 * max_instances, and each instance's TRANSIENT_LOCAL history (the last {@code depth} messages for KEEP_LAST; for
 * KEEP_ALL every message up to max_samples_per_instance), which is replayed to late-joining readers.
 *
 * <p>Threads: guarded by the writer's {@code lock}; every method is called with it held. Finding a known instance
 * allocates nothing: the key-hash buffer and the probe key are reused, and a history copy is recycled from the
 * oldest message once KEEP_LAST depth is reached.
 */
final class WriterInstances<T>
{
    private final SiroccoServiceEnvironment env;
    private final String owner;
    private final TypeCodec<T> codec;
    private final byte[] keyHash = new byte[16];
    private final InstanceKey probe = new InstanceKey();
    private final Map<InstanceKey, WriterInstance<T>> byKey = new HashMap<>();
    private final Map<Long, WriterInstance<T>> byHandle = new HashMap<>();
    private final int maxInstances;
    private final boolean keepAll;
    private final int depth;
    private final int maxSamplesPerInstance;
    /** LIFESPAN's duration in nanoseconds; Long.MAX_VALUE is infinite. Changeable ({@link #lifespan}). */
    private long lifespanNs;

    /** {@code owner} names the writer in messages. */
    WriterInstances(final SiroccoServiceEnvironment env, final String owner, final TypeCodec<T> codec,
        final int maxInstances, final boolean keepAll, final int depth, final int maxSamplesPerInstance,
        final long lifespanNs)
    {
        this.lifespanNs = lifespanNs;
        this.env = env;
        this.owner = owner;
        this.codec = codec;
        this.maxInstances = maxInstances;
        this.keepAll = keepAll;
        this.depth = depth;
        this.maxSamplesPerInstance = maxSamplesPerInstance;
    }

    /** The instance of the sample's key; with {@code create}, a new one (within max_instances) when unknown. */
    WriterInstance<T> of(final T data, final boolean create)
    {
        codec.keyHash(data, keyHash);
        probe.set(keyHash);
        WriterInstance<T> instance = byKey.get(probe);
        if (instance == null && create)
        {
            if (maxInstances != ResourceLimits.LENGTH_UNLIMITED && byKey.size() >= maxInstances)
            {
                throw DdsExceptions.outOfResources(env, owner + ": ResourceLimits max_instances (" + maxInstances +
                    ") reached; unregister an instance first");
            }
            final T keyHolder = codec.newSample();
            codec.copyKey(data, keyHolder);
            final InstanceKey key = probe.copy();
            instance = new WriterInstance<>(HandleImpl.nextLocal(), key, keyHolder);
            byKey.put(key, instance);
            byHandle.put(instance.handle, instance);
        }
        return instance;
    }

    /** The instance of a handle, or null. */
    WriterInstance<T> byHandle(final long handle)
    {
        return byHandle.get(handle);
    }

    /**
     * The registered instance an unregister or dispose names: by handle (the key sample, if given, must match), else
     * by the key sample.
     */
    WriterInstance<T> resolve(final String operation, final InstanceHandle handle, final T keyData)
    {
        WriterInstance<T> instance = null;
        if (handle != null && !handle.isNil())
        {
            instance = byHandle(HandleImpl.valueOf(handle));
            if (instance == null)
            {
                throw new IllegalArgumentException(owner + ": " + operation + ": " + handle +
                    " is not an instance of this writer");
            }
            if (keyData != null)
            {
                if (!hasKeyOf(instance, keyData))
                {
                    throw DdsExceptions.precondition(env, owner + ": " + operation + ": the sample's key does " +
                        "not match " + handle);
                }
            }
        }
        else if (keyData != null)
        {
            instance = of(keyData, false);
        }
        else
        {
            throw new IllegalArgumentException(owner + ": " + operation + ": a nil handle needs a key sample");
        }
        if (instance == null || !instance.registered)
        {
            throw DdsExceptions.precondition(env, owner + ": " + operation + ": the instance is not registered " +
                "with this writer");
        }
        return instance;
    }

    /** True when the sample's key is the instance's. */
    boolean hasKeyOf(final WriterInstance<T> instance, final T keyData)
    {
        codec.keyHash(keyData, keyHash);
        return probe.set(keyHash).equals(instance.key);
    }

    /** OUT_OF_RESOURCES of this writer, with {@code message} (a resource outside the instances ran out). */
    OutOfResourcesException outOfResources(final String message)
    {
        return DdsExceptions.outOfResources(env, message);
    }

    /** Keeps a copy of {@code message} in the instance's history (KEEP_ALL refuses one over its limit). */
    void remember(final WriterInstance<T> instance, final BusMessage message)
    {
        final BusMessage copy;
        if (!keepAll && instance.history.size() >= depth)
        {
            copy = instance.history.pollFirst();
        }
        else if (keepAll && maxSamplesPerInstance != ResourceLimits.LENGTH_UNLIMITED &&
            instance.history.size() >= maxSamplesPerInstance)
        {
            throw DdsExceptions.outOfResources(env, owner + ": History KEEP_ALL with ResourceLimits " +
                "max_samples_per_instance (" + maxSamplesPerInstance + ") full for instance " + instance.key);
        }
        else
        {
            copy = new BusMessage(message.payloadLength());
        }
        copy.copyFrom(message);
        instance.history.addLast(copy);
    }

    /** {@code setQos}: a new LIFESPAN duration, applied from the next replay on. */
    void lifespan(final long nanos)
    {
        lifespanNs = nanos;
    }

    /** Removes the instance's data messages whose lifespan has passed at {@code nowNs} (wall clock, epoch ns). */
    void dropExpired(final WriterInstance<T> instance, final long nowNs)
    {
        if (lifespanNs == Long.MAX_VALUE)
        {
            return;
        }
        instance.history.removeIf(message -> (message.kind() & BusMessage.KIND_DATA) != 0 &&
            nowNs - message.sourceTimeNs() >= lifespanNs);
    }

    /** A disposed instance keeps only its dispose message (the last) for late joiners. */
    void keepOnlyLast(final WriterInstance<T> instance)
    {
        final BusMessage last = instance.history.pollLast();
        instance.history.clear();
        instance.history.addLast(last);
    }

    /** An unregistered instance leaves the table. */
    void forget(final WriterInstance<T> instance)
    {
        byKey.remove(instance.key);
        byHandle.remove(instance.handle);
    }

    /** Every instance, for replaying histories: a live view. */
    Collection<WriterInstance<T>> all()
    {
        return byKey.values();
    }

    /** DEADLINE scan (timer thread, writer lock held): every registered instance's writes. */
    void forEachRegistered(final DeadlineMonitor monitor)
    {
        for (final WriterInstance<T> instance : byKey.values())
        {
            if (instance.registered)
            {
                monitor.visit(instance.handle, instance.deadline);
            }
        }
    }

    /** A copy of the instances, for a loop that sends and may fail. */
    List<WriterInstance<T>> snapshot()
    {
        return new ArrayList<>(byKey.values());
    }

    void clear()
    {
        byKey.clear();
        byHandle.clear();
    }
}
