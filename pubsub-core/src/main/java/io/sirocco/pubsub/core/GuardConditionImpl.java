package io.sirocco.pubsub.core;

import org.omg.dds.core.GuardCondition;
import org.omg.dds.core.ServiceEnvironment;

/** A GuardCondition: its trigger is set by the application; setting it wakes the attached WaitSets. */
public final class GuardConditionImpl extends GuardCondition implements LinkedCondition
{
    private final ServiceEnvironment environment;
    private final WaitSetLinks links = new WaitSetLinks();
    private volatile boolean triggerValue;

    public GuardConditionImpl(final ServiceEnvironment environment)
    {
        this.environment = environment;
    }

    @Override
    public void setTriggerValue(final boolean value)
    {
        triggerValue = value;
        if (value)
        {
            links.signal();
        }
    }

    @Override
    public boolean getTriggerValue()
    {
        return triggerValue;
    }

    @Override
    public WaitSetLinks links()
    {
        return links;
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return environment;
    }
}
