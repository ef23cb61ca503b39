package io.sirocco.pubsub.sub;

import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.sub.cache.ReaderHistoryCache;
import io.sirocco.pubsub.topic.SampleOps;
import io.sirocco.pubsub.topic.TypeSupportImpl;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ModifiableInstanceHandle;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.type.TypeSupport;

/**
 * What a DataReader asks its history cache besides read and take: whether it holds samples in given states or
 * selected by a query (for ReadConditions and QueryConditions), and the instance lookups getKeyValue and
 * lookupInstance. Changes nothing in the cache.
 *
 * <p>Concurrency: called on application threads (conditions also on WaitSet threads); each call takes the reader's
 * {@code lock}, which guards the cache.
 */
final class CacheQueries<T>
{
    private final ServiceEnvironment env;
    private final String name;
    private final ReentrantLock lock;
    private final ReaderHistoryCache<T> cache;
    private final SampleOps<T> ops;

    /** @param name the reader, for error messages. */
    CacheQueries(final ServiceEnvironment env, final String name, final ReentrantLock lock,
        final ReaderHistoryCache<T> cache, final SampleOps<T> ops)
    {
        this.env = env;
        this.name = name;
        this.lock = lock;
        this.cache = cache;
        this.ops = ops;
    }

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

    /** Whether the cache holds a sample the spec (states and content query) selects. */
    boolean hasSelected(final SelectorImpl<T> spec)
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

    /** A copy of the instance's key holder. */
    T keyValue(final InstanceHandle handle)
    {
        lock.lock();
        try
        {
            final T key = cache.keyHolder(HandleImpl.valueOf(handle));
            if (key == null)
            {
                throw new IllegalArgumentException(name + ": getKeyValue: " + handle +
                    " is not an instance of this reader");
            }
            return ops.copy(key);
        }
        finally
        {
            lock.unlock();
        }
    }

    /** lookupInstance: the instance of {@code keyHolder}'s key, as {@link #lookup(ModifiableInstanceHandle, byte[])}. */
    ModifiableInstanceHandle lookup(final ModifiableInstanceHandle handle, final T keyHolder,
        final TypeSupport<T> typeSupport)
    {
        if (!(typeSupport instanceof TypeSupportImpl<T> support))
        {
            throw new UnsupportedOperationException(name + ": lookupInstance on a built-in topic");
        }
        final byte[] hash = new byte[16];
        support.codec().keyHash(keyHolder, hash);
        return lookup(handle, hash);
    }

    /** The instance of the 16-byte key hash into {@code handle} (a new handle if null); nil if unknown. */
    ModifiableInstanceHandle lookup(final ModifiableInstanceHandle handle, final byte[] keyHash)
    {
        lock.lock();
        try
        {
            final ModifiableInstanceHandle result = handle == null ? new HandleImpl(env, 0) : handle;
            ((HandleImpl)result).value(cache.handleOf(keyHash));
            return result;
        }
        finally
        {
            lock.unlock();
        }
    }
}
