package io.sirocco.pubsub.topic.builtin;

import io.sirocco.pubsub.bus.EndpointRecord;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.DurabilityService;
import org.omg.dds.core.policy.Lifespan;
import org.omg.dds.core.policy.OwnershipStrength;
import org.omg.dds.topic.PublicationBuiltinTopicData;

/** PublicationBuiltinTopicData built from a discovery record; immutable apart from copyFrom. */
public final class PublicationDataImpl extends EndpointRecordData implements PublicationBuiltinTopicData
{
    private static final long serialVersionUID = 1L;

    public PublicationDataImpl(final ServiceEnvironment env, final EndpointRecord record)
    {
        super(env, record);
    }

    @Override
    public DurabilityService getDurabilityService()
    {
        return policies().durabilityService();
    }

    @Override
    public Lifespan getLifespan()
    {
        return policies().lifespan();
    }

    @Override
    public OwnershipStrength getOwnershipStrength()
    {
        return policies().ownershipStrength();
    }

    @Override
    public void copyFrom(final PublicationBuiltinTopicData other)
    {
        copy((PublicationDataImpl)other);
    }

    @Override
    public PublicationBuiltinTopicData clone()
    {
        return new PublicationDataImpl(getEnvironment(), record());
    }
}
