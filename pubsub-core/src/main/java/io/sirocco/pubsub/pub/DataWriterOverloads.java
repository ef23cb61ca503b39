package io.sirocco.pubsub.pub;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.TimeImpl;
import io.sirocco.pubsub.entity.EndpointEntity;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.Time;
import org.omg.dds.core.status.Status;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.DataWriterListener;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.pub.PublisherListener;

/**
 * The DataWriter API's convenience overloads, each reduced to one operation of {@code DataWriterImpl}: a write
 * without a timestamp is stamped by {@link SourceClock}, a {@link Time} or a (value, unit) pair becomes nanoseconds,
 * a missing handle or key holder is null. Kept apart so that the writer's file holds what it does, not how the PSM
 * spells it.
 *
 * <p>Threads: as the operations they call; no state of its own.
 */
abstract class DataWriterOverloads<T>
    extends EndpointEntity<T, DataWriter<T>, DataWriterListener<T>, PublisherListener, DataWriterQos, PublisherView>
    implements DataWriter<T>
{
    DataWriterOverloads(final SiroccoServiceEnvironment env, final PublisherView publisher, final long guid,
        final TopicImpl<T> topic, final DataWriterQos qos, final DataWriterListener<T> listener,
        final Collection<Class<? extends Status>> statuses)
    {
        super(env, "DataWriter", publisher, guid, topic, qos, listener, statuses);
    }

    /** Writes a sample of the instance of {@code handle} (or of its key when null) stamped {@code timestampNs}. */
    protected abstract void write(T data, InstanceHandle handle, long timestampNs) throws TimeoutException;

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
    public T getKeyValue(final InstanceHandle handle)
    {
        return getKeyValue(null, handle);
    }

    @Override
    public InstanceHandle lookupInstance(final T keyHolder)
    {
        return lookupInstance(null, keyHolder);
    }

    @Override
    public void waitForAcknowledgments(final Duration maxWait) throws TimeoutException
    {
        waitForAcknowledgments(DurationImpl.toNanos(maxWait), TimeUnit.NANOSECONDS);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <OTHER> DataWriter<OTHER> cast()
    {
        return (DataWriter<OTHER>)this;
    }
}
