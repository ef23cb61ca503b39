package io.sirocco.pubsub.topic.builtin;

import io.sirocco.pubsub.bus.EndpointRecord;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.TimeBasedFilter;
import org.omg.dds.topic.SubscriptionBuiltinTopicData;

/** SubscriptionBuiltinTopicData built from a discovery record; immutable apart from copyFrom. */
public final class SubscriptionDataImpl extends EndpointRecordData implements SubscriptionBuiltinTopicData
{
    private static final long serialVersionUID = 1L;

    public SubscriptionDataImpl(final ServiceEnvironment env, final EndpointRecord record)
    {
        super(env, record);
    }

    @Override
    public TimeBasedFilter getTimeBasedFilter()
    {
        return policies().timeBasedFilter();
    }

    @Override
    public void copyFrom(final SubscriptionBuiltinTopicData other)
    {
        copy((SubscriptionDataImpl)other);
    }

    @Override
    public SubscriptionBuiltinTopicData clone()
    {
        return new SubscriptionDataImpl(getEnvironment(), record());
    }
}
