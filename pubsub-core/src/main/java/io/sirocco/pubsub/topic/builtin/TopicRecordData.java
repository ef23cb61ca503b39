package io.sirocco.pubsub.topic.builtin;

import java.util.List;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.qos.RecordPolicies;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.*;
import org.omg.dds.type.typeobject.TypeObject;

/** What the Topic, Publication and Subscription built-in data share: the type and the policies of all three. */
abstract class TopicRecordData extends RecordData
{
    private static final long serialVersionUID = 1L;

    TopicRecordData(final ServiceEnvironment env, final EndpointRecord record)
    {
        super(env, record);
    }

    public String getTypeName()
    {
        return record().typeName();
    }

    public List<String> getEquivalentTypeName()
    {
        return List.of();
    }

    public List<String> getBaseTypeName()
    {
        return List.of();
    }

    public TypeObject getType()
    {
        return RecordPolicies.noTypeObject(record().typeName());
    }

    public Durability getDurability()
    {
        return policies().durability();
    }

    public Deadline getDeadline()
    {
        return policies().deadline();
    }

    public LatencyBudget getLatencyBudget()
    {
        return policies().latencyBudget();
    }

    public Liveliness getLiveliness()
    {
        return policies().liveliness();
    }

    public Reliability getReliability()
    {
        return policies().reliability();
    }

    public Ownership getOwnership()
    {
        return policies().ownership();
    }

    public DestinationOrder getDestinationOrder()
    {
        return policies().destinationOrder();
    }

    public TopicData getTopicData()
    {
        return policies().topicData();
    }

    public DataRepresentation getRepresentation()
    {
        return policies().representation();
    }

    public TypeConsistencyEnforcement getTypeConsistency()
    {
        return policies().typeConsistency();
    }
}
