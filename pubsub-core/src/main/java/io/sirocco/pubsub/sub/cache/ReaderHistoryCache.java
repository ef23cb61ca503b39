package io.sirocco.pubsub.sub.cache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.cache.InstanceKey;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.topic.SampleOps;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.ResourceLimits;
import org.omg.dds.core.status.SampleRejectedStatus;
import org.omg.dds.sub.InstanceState;

/**
 * A DataReader's history cache: its instances (with the DDS instance state machine) and their samples, the
 * HISTORY and RESOURCE_LIMITS policies applied to what arrives, and the pools ({@link CachePools}) that keep the
 * delivery path and an empty poll allocation-free. {@link #accept} stores what arrives; {@link #collect} is the core
 * of every read and take, with or without a loan.
 *
 * <p>Concurrency: not thread-safe. Every method runs under the owning reader's one {@code ReentrantLock}, held by
 * the caller: by the reader's delivery thread for a batch of samples, by the participant's discovery thread (a
 * writer gone, a built-in sample injected) and by application threads reading, taking or returning a loan.
 */
public final class ReaderHistoryCache<T>
{
    /** {@link #visit}'s result bits: the instance gave a sample; it holds none any more. */
    private static final int COLLECTED = 1;
    private static final int EMPTIED = 2;

    private final SampleOps<T> ops;
    private final RejectionSink rejections;
    private final InstanceKey probe = new InstanceKey();
    private final Map<InstanceKey, ReaderInstance<T>> instances = new HashMap<>();
    private final TreeMap<Long, ReaderInstance<T>> byHandle = new TreeMap<>();
    private final ArrayList<ReaderInstance<T>> ordered = new ArrayList<>();
    /** The instances with samples: what a read or take visits. */
    private final HoldingInstances<T> holding = new HoldingInstances<>();
    private final CachePools<T> pools;
    /** DESTINATION_ORDER, OWNERSHIP and TIME_BASED_FILTER (changeable ones through {@link #filters()}). */
    private final ArrivalFilters filters;
    private final boolean keepAll;
    private final int depth;
    private final int maxSamples;
    private final int maxInstances;
    private final int maxSamplesPerInstance;
    private int totalSamples;
    private boolean newData;

    public ReaderHistoryCache(final ServiceEnvironment env, final SampleOps<T> ops, final RejectionSink rejections,
        final boolean keepAll, final int depth, final ResourceLimits limits, final ArrivalFilters filters)
    {
        this.filters = filters;
        this.ops = ops;
        this.rejections = rejections;
        this.pools = new CachePools<>(env);
        this.keepAll = keepAll;
        this.depth = depth;
        this.maxSamples = limits.getMaxSamples();
        this.maxInstances = limits.getMaxInstances();
        this.maxSamplesPerInstance = limits.getMaxSamplesPerInstance();
    }

    /** A data object to deserialize into, or null (the deserializer then makes one). */
    public T pollFreeData()
    {
        return pools.pollData();
    }

    /** Gives back a data object from {@link #pollFreeData} that was not accepted (a content filter rejected it). */
    public void recycleData(final T data)
    {
        pools.freeData(data);
    }

    /** Whether the instance with this key hash is in the cache. */
    public boolean knows(final long keyHi, final long keyLo)
    {
        return instances.containsKey(probe.set(keyHi, keyLo));
    }

    /** Whether {@code handle} is an instance of this cache. */
    public boolean hasInstance(final long handle)
    {
        return byHandle.containsKey(handle);
    }

    /** The instances in handle order (for {@link InstanceDeadlines}). */
    List<ReaderInstance<T>> ordered()
    {
        return ordered;
    }

    /** Whether a sample arrived or an instance changed state since the last call; clears the flag. */
    public boolean takeNewData()
    {
        final boolean data = newData;
        newData = false;
        return data;
    }

    public ArrivalFilters filters()
    {
        return filters;
    }

    /**
     * Applies one sample or lifecycle change to the cache; {@code data} may be null for dispose/unregister.
     *
     * @param strength  the writer's OWNERSHIP_STRENGTH.
     * @param expiresNs when a data sample's LIFESPAN ends ({@link LifespanFilter#expiry}).
     */
    public void accept(final int kind, final long writerGuid, final int strength, final long sourceTimeNs,
        final long expiresNs, final long keyHi, final long keyLo, final T data)
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
            instance = newInstance(kind, data);
        }
        if ((kind & BusMessage.KIND_DATA) != 0)
        {
            if (filters.admitsData(instance, writerGuid, strength, sourceTimeNs, expiresNs))
            {
                acceptData(instance, writerGuid, sourceTimeNs, expiresNs, data);
            }
            else if (data != null)
            {
                pools.freeData(data);
            }
            return;
        }
        if (data != null)
        {
            pools.freeData(data);
        }
        boolean changed = false;
        if ((kind & BusMessage.KIND_DISPOSE) != 0 && instance.state == InstanceState.ALIVE &&
            filters.admitsDispose(instance, writerGuid))
        {
            instance.state = InstanceState.NOT_ALIVE_DISPOSED;
            changed = true;
        }
        if ((kind & BusMessage.KIND_UNREGISTER) != 0)
        {
            instance.removeWriter(writerGuid);
            filters.released(instance, writerGuid);
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

    /** A new instance for the key in {@code probe}. */
    private ReaderInstance<T> newInstance(final int kind, final T data)
    {
        final ReaderInstance<T> instance = new ReaderInstance<>(HandleImpl.nextLocal(), probe.copy());
        instance.keyHolder = data == null ? null : ops.copy(data);
        instances.put(instance.key, instance);
        byHandle.put(instance.handle, instance);
        ordered.add(instance);
        if ((kind & BusMessage.KIND_DATA) == 0)
        {
            instance.state = InstanceState.NOT_ALIVE_DISPOSED;
        }
        return instance;
    }

    private void acceptData(final ReaderInstance<T> instance, final long writerGuid, final long sourceTimeNs,
        final long expiresNs, final T data)
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
        instance.arrivedFrom(writerGuid);
        final SampleEntry<T> entry = append(instance, writerGuid, sourceTimeNs, true);
        entry.data = data;
        entry.expiresNs = expiresNs;
        newData = true;
    }

    /** A new entry at the end of the instance's samples (so the instance holds samples); the caller fills in more. */
    private SampleEntry<T> append(final ReaderInstance<T> instance, final long writerGuid, final long timeNs,
        final boolean valid)
    {
        final SampleEntry<T> entry = pools.newEntry();
        entry.valid = valid;
        entry.sourceTimeNs = timeNs;
        entry.publicationGuid = writerGuid;
        entry.disposedGen = instance.disposedGen;
        entry.noWritersGen = instance.noWritersGen;
        instance.samples.add(entry);
        holding.add(instance);
        totalSamples++;
        return entry;
    }

    /** An instance changed state: readers see it through an invalid sample unless an unread sample shows it. */
    private void stateChangeSample(final ReaderInstance<T> instance, final long writerGuid, final long timeNs)
    {
        newData = true;
        if (instance.hasUnread())
        {
            return;
        }
        append(instance, writerGuid, timeNs, false);
    }

    /** A matched writer's OWNERSHIP_STRENGTH changed: the instances it owns rank it anew. */
    public void strengthChanged(final long writerGuid, final int strength)
    {
        for (final ReaderInstance<T> instance : ordered)
        {
            filters.strengthChanged(instance, writerGuid, strength);
        }
    }

    /** A matched writer is gone: the instances only it wrote become NOT_ALIVE_NO_WRITERS (and lose it as owner). */
    public void writerGone(final long writerGuid, final long nowNs)
    {
        for (final ReaderInstance<T> instance : byHandle.values())
        {
            filters.released(instance, writerGuid);
            if (instance.removeWriter(writerGuid) && instance.writerCount() == 0 &&
                instance.state == InstanceState.ALIVE)
            {
                instance.state = InstanceState.NOT_ALIVE_NO_WRITERS;
                stateChangeSample(instance, writerGuid, nowNs);
            }
        }
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

    private void removeEntry(final ReaderInstance<T> instance, final int index)
    {
        final SampleEntry<T> entry = instance.samples.remove(index);
        totalSamples--;
        entry.removed = true;
        if (entry.loans == 0)
        {
            pools.recycle(entry);
        }
    }

    private void reject(final SampleRejectedStatus.Kind reason, final long instanceHandle, final T data)
    {
        if (data != null)
        {
            pools.freeData(data);
        }
        rejections.onRejected(reason, instanceHandle);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Reading

    /** Whether a sample matches the three {@link DataStateBits} masks. */
    public boolean hasSamples(final int sampleMask, final int viewMask, final int instanceMask)
    {
        return hasSamples(sampleMask, viewMask, instanceMask, null);
    }

    /** Whether a sample matches the spec's states and its content query (a QueryCondition's trigger). */
    public boolean hasSamples(final ReadSpec spec)
    {
        return hasSamples(spec.sampleMask(), spec.viewMask(), spec.instanceMask(), spec);
    }

    private boolean hasSamples(final int sampleMask, final int viewMask, final int instanceMask,
        final ReadSpec content)
    {
        final long nowNs = LifespanFilter.nowNs();
        for (int i = 0; i < holding.size(); i++)
        {
            final ReaderInstance<T> instance = holding.get(i);
            if (instance.selectedBy(viewMask, instanceMask))
            {
                for (final SampleEntry<T> entry : instance.samples)
                {
                    if (entry.selectedBy(sampleMask) && !LifespanFilter.expired(entry, nowNs) &&
                        (content == null || content.selectsData(entry.data)))
                    {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * The core of every read and take: collects the selected samples into {@code out} (pooled SampleImpls
     * referencing cached data), marks them read or removes them, and computes ranks. It visits only the instances
     * that hold samples ({@link HoldingInstances}), in handle order.
     *
     * <p>The caller has checked that a single instance asked for ({@code instanceValue} without
     * {@code nextInstanceFlag}) is one of this cache ({@link #hasInstance}).
     */
    public void collect(final ReadSpec spec, final boolean take, final List<SampleImpl<T>> out,
        final boolean forLoan)
    {
        final long nowNs = LifespanFilter.nowNs();
        boolean emptied = false;
        if (spec.instanceValue() != 0 && !spec.nextInstanceFlag())
        {
            emptied = (visit(byHandle.get(spec.instanceValue()), spec, take, out, forLoan, nowNs) & EMPTIED) != 0;
        }
        else
        {
            // Only the instances with samples, in handle order; walking the array by index keeps an empty poll
            // allocation-free.
            int index = spec.nextInstanceFlag() ? holding.firstAfter(spec.instanceValue()) : 0;
            while (index < holding.size() && out.size() < spec.sampleLimit())
            {
                final int visited = visit(holding.get(index++), spec, take, out, forLoan, nowNs);
                emptied |= (visited & EMPTIED) != 0;
                if ((visited & COLLECTED) != 0 && spec.nextInstanceFlag())
                {
                    break;
                }
            }
        }
        if (emptied)
        {
            holding.sweep();
        }
    }

    /**
     * Collects from one instance, marks its view state seen and forgets it once it is empty and dead.
     *
     * @return {@link #COLLECTED} if it gave a sample, plus {@link #EMPTIED} if it holds none any more.
     */
    private int visit(final ReaderInstance<T> current, final ReadSpec spec, final boolean take,
        final List<SampleImpl<T>> out, final boolean forLoan, final long nowNs)
    {
        if (!current.selectedBy(spec.viewMask(), spec.instanceMask()))
        {
            return 0;
        }
        if (collectInstance(current, spec, take, out, forLoan, nowNs) == 0)
        {
            return current.samples.isEmpty() ? EMPTIED : 0;
        }
        current.viewNew = false;
        if (!current.samples.isEmpty())
        {
            return COLLECTED;
        }
        if (current.state != InstanceState.ALIVE && current.writerCount() == 0)
        {
            instances.remove(current.key);
            byHandle.remove(current.handle);
            ordered.remove(current);
        }
        return COLLECTED | EMPTIED;
    }

    /** Collects the selected samples of one instance and ranks them (dropping expired ones); returns how many. */
    private int collectInstance(final ReaderInstance<T> current, final ReadSpec spec, final boolean take,
        final List<SampleImpl<T>> out, final boolean forLoan, final long nowNs)
    {
        final int first = out.size();
        for (int i = 0; i < current.samples.size() && out.size() < spec.sampleLimit(); i++)
        {
            final SampleEntry<T> entry = current.samples.get(i);
            if (LifespanFilter.expired(entry, nowNs))
            {
                removeEntry(current, i--);
                continue;
            }
            if (!entry.selectedBy(spec.sampleMask()) || !spec.selectsData(entry.data))
            {
                continue;
            }
            final SampleImpl<T> sample = pools.sample();
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
            return 0;
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
        return count;
    }

    /** A loan's samples come back: their entries may be recycled, the sample objects go back to the pool. */
    public void returnLoaned(final List<SampleImpl<T>> samples)
    {
        pools.returnLoaned(samples);
    }

    /**
     * A sample collected for a copying read or take has been copied: after a take its entry is recycled unless a
     * loan still holds it; the sample object goes back to the pool.
     */
    public void returnCopied(final SampleImpl<T> source, final boolean take)
    {
        pools.returnCopied(source, take);
    }

    /** The key holder of an instance, or null if {@code handle} is none (or was made without data). */
    public T keyHolder(final long handle)
    {
        final ReaderInstance<T> instance = byHandle.get(handle);
        return instance == null ? null : instance.keyHolder;
    }

    /** The handle of the instance with this 16-byte key hash, or 0. */
    public long handleOf(final byte[] keyHash)
    {
        final ReaderInstance<T> instance = instances.get(new InstanceKey().set(keyHash));
        return instance == null ? 0 : instance.handle;
    }
}
