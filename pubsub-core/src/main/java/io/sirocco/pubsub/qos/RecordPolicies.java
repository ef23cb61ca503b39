package io.sirocco.pubsub.qos;

import io.sirocco.pubsub.bus.EndpointRecord;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.DataRepresentation;
import org.omg.dds.core.policy.Deadline;
import org.omg.dds.core.policy.DestinationOrder;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.DurabilityService;
import org.omg.dds.core.policy.GroupData;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.LatencyBudget;
import org.omg.dds.core.policy.Lifespan;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.policy.Ownership;
import org.omg.dds.core.policy.OwnershipStrength;
import org.omg.dds.core.policy.Partition;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.policy.ResourceLimits;
import org.omg.dds.core.policy.TimeBasedFilter;
import org.omg.dds.core.policy.TopicData;
import org.omg.dds.core.policy.TransportPriority;
import org.omg.dds.core.policy.TypeConsistencyEnforcement;
import org.omg.dds.core.policy.UserData;
import org.omg.dds.type.typeobject.TypeObject;

/**
 * The QoS policies of a discovered entity, rebuilt from its {@link EndpointRecord}. Policies that discovery does
 * not carry are at their defaults (documented in docs/dds.md).
 */
public final class RecordPolicies
{
    private final ServiceEnvironment env;
    private final EndpointRecord r;
    private final PolicyFactoryImpl f;

    public RecordPolicies(final ServiceEnvironment env, final EndpointRecord record)
    {
        this.env = env;
        this.r = record;
        this.f = new PolicyFactoryImpl(env);
    }

    public static TypeObject noTypeObject(final String typeName)
    {
        throw new UnsupportedOperationException("TypeObject (XTypes type representation) of type '" + typeName +
            "' is not implemented in Sirocco yet; use getTypeName()");
    }

    public Durability durability()
    {
        return new DeliveryPolicies.DurabilityImpl(env, Durability.Kind.values()[r.durabilityKind()]);
    }

    public Deadline deadline()
    {
        return new TimingPolicies.DeadlineImpl(env, r.deadlineNs());
    }

    public LatencyBudget latencyBudget()
    {
        return new TimingPolicies.LatencyBudgetImpl(env, r.latencyBudgetNs());
    }

    public Liveliness liveliness()
    {
        return new TimingPolicies.LivelinessImpl(env, Liveliness.Kind.values()[r.livelinessKind()], r.leaseNs());
    }

    public Reliability reliability()
    {
        return new DeliveryPolicies.ReliabilityImpl(env, Reliability.Kind.values()[r.reliabilityKind()],
            r.maxBlockingNs());
    }

    public UserData userData()
    {
        final byte[] data = r.userData() == null ? new byte[0] : r.userData();
        return new DataPolicies.UserDataImpl(env, data, 0, data.length);
    }

    public Ownership ownership()
    {
        return new OwnershipPolicies.OwnershipImpl(env, Ownership.Kind.values()[r.ownershipKind()]);
    }

    public DestinationOrder destinationOrder()
    {
        return new DeliveryPolicies.DestinationOrderImpl(env, DestinationOrder.Kind.values()[r.destinationOrderKind()]);
    }

    public Presentation presentation()
    {
        return new ScopePolicies.PresentationImpl(env, Presentation.AccessScopeKind.values()[r.presentationScope()],
            r.coherentAccess(), r.orderedAccess());
    }

    public Partition partition()
    {
        return new ScopePolicies.PartitionImpl(env, r.partitions());
    }

    public TopicData topicData()
    {
        final byte[] data = r.topicData() == null ? new byte[0] : r.topicData();
        return new DataPolicies.TopicDataImpl(env, data, 0, data.length);
    }

    public GroupData groupData()
    {
        final byte[] data = r.groupData() == null ? new byte[0] : r.groupData();
        return new DataPolicies.GroupDataImpl(env, data, 0, data.length);
    }

    public DataRepresentation representation()
    {
        return f.Representation();
    }

    public TypeConsistencyEnforcement typeConsistency()
    {
        return f.TypeConsistency();
    }

    public DurabilityService durabilityService()
    {
        return f.DurabilityService();
    }

    public Lifespan lifespan()
    {
        return new TimingPolicies.LifespanImpl(env, r.lifespanNs());
    }

    public OwnershipStrength ownershipStrength()
    {
        return f.OwnershipStrength().withValue(r.ownershipStrength());
    }

    public TimeBasedFilter timeBasedFilter()
    {
        return f.TimeBasedFilter();
    }

    public TransportPriority transportPriority()
    {
        return f.TransportPriority();
    }

    public History history()
    {
        return new DeliveryPolicies.HistoryImpl(env, History.Kind.values()[r.historyKind()], r.historyDepth());
    }

    public ResourceLimits resourceLimits()
    {
        return f.ResourceLimits();
    }
}
