package io.sirocco.pubsub.core;

import java.util.Collection;
import java.util.EventListener;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import org.omg.dds.core.Entity;
import org.omg.dds.core.EntityQos;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.status.Status;

/**
 * What every entity shares: its handle (the domain-wide GUID), listener and status mask, the status change flags,
 * its StatusCondition, and the enabled/closed life cycle.
 *
 * <p>Status flags are one {@link AtomicInteger} of {@link StatusKinds} bits: the delivery, discovery and
 * application threads set and clear bits with CAS, and a change wakes the StatusCondition's WaitSets.
 */
public abstract class EntityBase<L extends EventListener, Q extends EntityQos<?>> implements Entity<L, Q>
{
    protected final SiroccoServiceEnvironment env;
    protected final long guid;
    private final HandleImpl handle;
    private final AtomicInteger statusChanges = new AtomicInteger();
    private final StatusConditionImpl<Entity<?, ?>> statusCondition;
    private volatile L listener;
    private volatile int listenerMask;
    private volatile boolean enabled;
    private volatile boolean closed;
    protected volatile Q qos;

    @SuppressWarnings("unchecked")
    protected EntityBase(final SiroccoServiceEnvironment env, final long guid, final Q qos, final L listener,
        final Collection<Class<? extends Status>> mask)
    {
        this.env = env;
        this.guid = guid;
        this.handle = new HandleImpl(env, guid);
        this.qos = qos;
        this.listener = listener;
        this.listenerMask = listener == null ? 0 : StatusKinds.mask(mask);
        this.statusCondition = new StatusConditionImpl<>(env, (Entity<?, ?>)this, statusChanges);
    }

    /** "DataWriter 'topic' (handle ...)": how error messages and logs name this entity. */
    public abstract String describe();

    public long guid()
    {
        return guid;
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

    @Override
    public L getListener()
    {
        return listener;
    }

    @Override
    public void setListener(final L listener)
    {
        setListener(listener, null);
    }

    @Override
    public void setListener(final L listener, final Collection<Class<? extends Status>> statuses)
    {
        checkOpen();
        this.listenerMask = listener == null ? 0 : StatusKinds.mask(statuses);
        this.listener = listener;
    }

    /** The listener if its mask covers the status bit, else null. */
    public L listenerFor(final int statusBit)
    {
        final L current = listener;
        return current != null && (listenerMask & statusBit) != 0 ? current : null;
    }

    @Override
    public Q getQos()
    {
        checkOpen();
        return qos;
    }

    @Override
    public void setQos(final String qosLibraryName, final String qosProfileName)
    {
        throw new UnsupportedOperationException(describe() + ": QoS libraries and profiles (XML QosProvider) are " +
            "not implemented in Sirocco yet; pass a QoS object instead");
    }

    @Override
    public void enable()
    {
        checkOpen();
        enabled = true;
    }

    public boolean isEnabled()
    {
        return enabled;
    }

    protected void markEnabled(final boolean value)
    {
        enabled = value;
    }

    @Override
    public StatusCondition<?> getStatusCondition()
    {
        return statusCondition;
    }

    public StatusConditionImpl<Entity<?, ?>> statusCondition()
    {
        return statusCondition;
    }

    @Override
    public Set<Class<? extends Status>> getStatusChanges()
    {
        checkOpen();
        return StatusKinds.set(statusChanges.get());
    }

    public void statusChanged(final int bit)
    {
        final int before = statusChanges.getAndUpdate(s -> s | bit);
        if ((before & bit) == 0)
        {
            statusCondition.links().signal();
        }
    }

    public void statusRead(final int bit)
    {
        statusChanges.getAndUpdate(s -> s & ~bit);
    }

    @Override
    public InstanceHandle getInstanceHandle()
    {
        return handle;
    }

    /** Retaining is implicit in Sirocco: an entity stays reachable from its parent until it is closed. */
    @Override
    public void retain()
    {
        checkOpen();
    }

    public boolean isClosed()
    {
        return closed;
    }

    /** Marks this entity closed; returns false when it already was. */
    protected boolean markClosed()
    {
        if (closed)
        {
            return false;
        }
        closed = true;
        statusCondition.links().signal();
        return true;
    }

    public void checkOpen()
    {
        if (closed)
        {
            throw DdsExceptions.alreadyClosed(env, describe());
        }
    }

    public void checkEnabled()
    {
        checkOpen();
        if (!enabled)
        {
            throw DdsExceptions.notEnabled(env, describe());
        }
    }
}
