package io.sirocco.pubsub.core;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.omg.dds.core.Entity;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.status.Status;

/**
 * An entity's StatusCondition: triggered while any enabled status has changed since it was last read. It reads the
 * entity's change bits directly, so it never goes stale.
 */
public final class StatusConditionImpl<E extends Entity<?, ?>> implements StatusCondition<E>, LinkedCondition
{
    private final ServiceEnvironment env;
    private final E parent;
    private final AtomicInteger changes;
    private final WaitSetLinks links = new WaitSetLinks();
    private volatile int enabledMask = StatusKinds.ALL;

    StatusConditionImpl(final ServiceEnvironment env, final E parent, final AtomicInteger changes)
    {
        this.env = env;
        this.parent = parent;
        this.changes = changes;
    }

    @Override
    public Set<Class<? extends Status>> getEnabledStatuses()
    {
        return StatusKinds.set(enabledMask);
    }

    @Override
    public void setEnabledStatuses(final Collection<Class<? extends Status>> statuses)
    {
        enabledMask = StatusKinds.mask(statuses);
        links.signal();
    }

    @Override
    public E getParent()
    {
        return parent;
    }

    @Override
    public boolean getTriggerValue()
    {
        return (changes.get() & enabledMask) != 0;
    }

    @Override
    public WaitSetLinks links()
    {
        return links;
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }
}
