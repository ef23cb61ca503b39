package io.sirocco.pubsub.core;

import org.omg.dds.core.Condition;

/** A Sirocco condition: one that can tell the WaitSets it is attached to when its trigger may have changed. */
public interface LinkedCondition extends Condition
{
    WaitSetLinks links();
}
