package io.sirocco.pubsub.topic.builtin;

import java.util.List;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.qos.RecordPolicies;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.*;
import org.omg.dds.topic.*;
import org.omg.dds.type.typeobject.TypeObject;


/** TopicBuiltinTopicData built from a discovery record; immutable apart from copyFrom. */
public final class TopicDataImpl implements TopicBuiltinTopicData
{
    private static final long serialVersionUID = 1L;
    private transient ServiceEnvironment env;
    private EndpointRecord record;
    private transient RecordPolicies policies;

    public TopicDataImpl(final ServiceEnvironment env, final EndpointRecord record)
    {
        this.env = env;
        this.record = record;
        this.policies = new RecordPolicies(env, record);
    }

    public EndpointRecord record()
    {
        return record;
    }

    @Override
    public BuiltinTopicKey getKey()
    {
        return new BuiltinTopicKeyImpl(env, record.guid());
    }

    @Override
    public String getName()
    {
        return record.topicName();
    }

    @Override
    public String getTypeName()
    {
        return record.typeName();
    }

    @Override
    public List<String> getEquivalentTypeName()
    {
        return List.of();
    }

    @Override
    public List<String> getBaseTypeName()
    {
        return List.of();
    }

    @Override
    public TypeObject getType()
    {
        return RecordPolicies.noTypeObject(record.typeName());
    }

    @Override
    public Durability getDurability()
    {
        return policies.durability();
    }

    @Override
    public DurabilityService getDurabilityService()
    {
        return policies.durabilityService();
    }

    @Override
    public Deadline getDeadline()
    {
        return policies.deadline();
    }

    @Override
    public LatencyBudget getLatencyBudget()
    {
        return policies.latencyBudget();
    }

    @Override
    public Liveliness getLiveliness()
    {
        return policies.liveliness();
    }

    @Override
    public Reliability getReliability()
    {
        return policies.reliability();
    }

    @Override
    public TransportPriority getTransportPriority()
    {
        return policies.transportPriority();
    }

    @Override
    public Lifespan getLifespan()
    {
        return policies.lifespan();
    }

    @Override
    public DestinationOrder getDestinationOrder()
    {
        return policies.destinationOrder();
    }

    @Override
    public History getHistory()
    {
        return policies.history();
    }

    @Override
    public ResourceLimits getResourceLimits()
    {
        return policies.resourceLimits();
    }

    @Override
    public Ownership getOwnership()
    {
        return policies.ownership();
    }

    @Override
    public TopicData getTopicData()
    {
        return policies.topicData();
    }

    @Override
    public DataRepresentation getRepresentation()
    {
        return policies.representation();
    }

    @Override
    public TypeConsistencyEnforcement getTypeConsistency()
    {
        return policies.typeConsistency();
    }

    @Override
    public void copyFrom(final TopicBuiltinTopicData other)
    {
        final TopicDataImpl src = (TopicDataImpl)other;
        env = src.env;
        record = src.record;
        policies = src.policies;
    }

    @Override
    public TopicBuiltinTopicData clone()
    {
        return new TopicDataImpl(env, record);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

}
