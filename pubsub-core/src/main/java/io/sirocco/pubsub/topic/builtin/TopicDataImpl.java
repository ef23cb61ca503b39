package io.sirocco.pubsub.topic.builtin;

import io.sirocco.pubsub.bus.EndpointRecord;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.DurabilityService;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.Lifespan;
import org.omg.dds.core.policy.ResourceLimits;
import org.omg.dds.core.policy.TransportPriority;
import org.omg.dds.topic.TopicBuiltinTopicData;

/** TopicBuiltinTopicData built from a discovery record; immutable apart from copyFrom. */
public final class TopicDataImpl extends TopicRecordData implements TopicBuiltinTopicData
{
    private static final long serialVersionUID = 1L;

    public TopicDataImpl(final ServiceEnvironment env, final EndpointRecord record)
    {
        super(env, record);
    }

    @Override
    public String getName()
    {
        return record().topicName();
    }

    @Override
    public DurabilityService getDurabilityService()
    {
        return policies().durabilityService();
    }

    @Override
    public TransportPriority getTransportPriority()
    {
        return policies().transportPriority();
    }

    @Override
    public Lifespan getLifespan()
    {
        return policies().lifespan();
    }

    @Override
    public History getHistory()
    {
        return policies().history();
    }

    @Override
    public ResourceLimits getResourceLimits()
    {
        return policies().resourceLimits();
    }

    @Override
    public void copyFrom(final TopicBuiltinTopicData other)
    {
        copy((TopicDataImpl)other);
    }

    @Override
    public TopicBuiltinTopicData clone()
    {
        return new TopicDataImpl(getEnvironment(), record());
    }
}
