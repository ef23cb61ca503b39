package io.sirocco.pubsub.qos;

import java.util.List;

import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.qos.DataPolicies.GroupDataImpl;
import io.sirocco.pubsub.qos.DataPolicies.UserDataImpl;
import io.sirocco.pubsub.qos.DeliveryPolicies.DestinationOrderImpl;
import io.sirocco.pubsub.qos.DeliveryPolicies.DurabilityImpl;
import io.sirocco.pubsub.qos.DeliveryPolicies.DurabilityServiceImpl;
import io.sirocco.pubsub.qos.DeliveryPolicies.HistoryImpl;
import io.sirocco.pubsub.qos.DeliveryPolicies.ReliabilityImpl;
import io.sirocco.pubsub.qos.DeliveryPolicies.ResourceLimitsImpl;
import io.sirocco.pubsub.qos.LifecyclePolicies.EntityFactoryImpl;
import io.sirocco.pubsub.qos.LifecyclePolicies.ReaderDataLifecycleImpl;
import io.sirocco.pubsub.qos.LifecyclePolicies.WriterDataLifecycleImpl;
import io.sirocco.pubsub.qos.OwnershipPolicies.OwnershipImpl;
import io.sirocco.pubsub.qos.OwnershipPolicies.OwnershipStrengthImpl;
import io.sirocco.pubsub.qos.ScopePolicies.PartitionImpl;
import io.sirocco.pubsub.qos.ScopePolicies.PresentationImpl;
import io.sirocco.pubsub.qos.ScopePolicies.TransportPriorityImpl;
import io.sirocco.pubsub.qos.TimingPolicies.DeadlineImpl;
import io.sirocco.pubsub.qos.TimingPolicies.LatencyBudgetImpl;
import io.sirocco.pubsub.qos.TimingPolicies.LifespanImpl;
import io.sirocco.pubsub.qos.TimingPolicies.LivelinessImpl;
import io.sirocco.pubsub.qos.TimingPolicies.TimeBasedFilterImpl;
import io.sirocco.pubsub.qos.TypePolicies.RepresentationImpl;
import io.sirocco.pubsub.qos.TypePolicies.TypeConsistencyImpl;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.DataRepresentation;
import org.omg.dds.core.policy.Deadline;
import org.omg.dds.core.policy.DestinationOrder;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.DurabilityService;
import org.omg.dds.core.policy.EntityFactory;
import org.omg.dds.core.policy.GroupData;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.LatencyBudget;
import org.omg.dds.core.policy.Lifespan;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.policy.Ownership;
import org.omg.dds.core.policy.OwnershipStrength;
import org.omg.dds.core.policy.Partition;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.policy.ReaderDataLifecycle;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.policy.ResourceLimits;
import org.omg.dds.core.policy.TimeBasedFilter;
import org.omg.dds.core.policy.TopicData;
import org.omg.dds.core.policy.TransportPriority;
import org.omg.dds.core.policy.TypeConsistencyEnforcement;
import org.omg.dds.core.policy.UserData;
import org.omg.dds.core.policy.WriterDataLifecycle;

/** The policy factory: every policy at its DDS 1.4 default. */
public final class PolicyFactoryImpl extends PolicyFactory
{
    /** DDS 1.4 default max_blocking_time for reliable writers. */
    public static final long DEFAULT_MAX_BLOCKING_NS = 100_000_000L;

    private final ServiceEnvironment env;

    public PolicyFactoryImpl(final ServiceEnvironment env)
    {
        this.env = env;
    }

    @Override
    public Durability Durability()
    {
        return new DurabilityImpl(env, Durability.Kind.VOLATILE);
    }

    @Override
    public Deadline Deadline()
    {
        return new DeadlineImpl(env, DurationImpl.INFINITE_NS);
    }

    @Override
    public LatencyBudget LatencyBudget()
    {
        return new LatencyBudgetImpl(env, 0);
    }

    @Override
    public Liveliness Liveliness()
    {
        return new LivelinessImpl(env, Liveliness.Kind.AUTOMATIC, DurationImpl.INFINITE_NS);
    }

    @Override
    public DestinationOrder DestinationOrder()
    {
        return new DestinationOrderImpl(env, DestinationOrder.Kind.BY_RECEPTION_TIMESTAMP);
    }

    @Override
    public History History()
    {
        return new HistoryImpl(env, History.Kind.KEEP_LAST, 1);
    }

    @Override
    public ResourceLimits ResourceLimits()
    {
        return new ResourceLimitsImpl(env, ResourceLimits.LENGTH_UNLIMITED, ResourceLimits.LENGTH_UNLIMITED,
            ResourceLimits.LENGTH_UNLIMITED);
    }

    @Override
    public UserData UserData()
    {
        return new UserDataImpl(env, new byte[0], 0, 0);
    }

    @Override
    public Ownership Ownership()
    {
        return new OwnershipImpl(env, Ownership.Kind.SHARED);
    }

    @Override
    public TimeBasedFilter TimeBasedFilter()
    {
        return new TimeBasedFilterImpl(env, 0);
    }

    @Override
    public ReaderDataLifecycle ReaderDataLifecycle()
    {
        return new ReaderDataLifecycleImpl(env, DurationImpl.INFINITE_NS, DurationImpl.INFINITE_NS);
    }

    @Override
    public DataRepresentation Representation()
    {
        return new RepresentationImpl(env, List.of(DataRepresentation.Id.XCDR_DATA_REPRESENTATION));
    }

    @Override
    public TypeConsistencyEnforcement TypeConsistency()
    {
        return new TypeConsistencyImpl(env, TypeConsistencyEnforcement.Kind.EXACT_NAME_TYPE_CONSISTENCY);
    }

    @Override
    public DurabilityService DurabilityService()
    {
        return new DurabilityServiceImpl(env, 0, History.Kind.KEEP_LAST, 1, ResourceLimits.LENGTH_UNLIMITED,
            ResourceLimits.LENGTH_UNLIMITED, ResourceLimits.LENGTH_UNLIMITED);
    }

    @Override
    public Reliability Reliability()
    {
        return new ReliabilityImpl(env, Reliability.Kind.BEST_EFFORT, DEFAULT_MAX_BLOCKING_NS);
    }

    @Override
    public TransportPriority TransportPriority()
    {
        return new TransportPriorityImpl(env, 0);
    }

    @Override
    public Lifespan Lifespan()
    {
        return new LifespanImpl(env, DurationImpl.INFINITE_NS);
    }

    @Override
    public OwnershipStrength OwnershipStrength()
    {
        return new OwnershipStrengthImpl(env, 0);
    }

    @Override
    public WriterDataLifecycle WriterDataLifecycle()
    {
        return new WriterDataLifecycleImpl(env, true);
    }

    @Override
    public Partition Partition()
    {
        return new PartitionImpl(env, List.of());
    }

    @Override
    public GroupData GroupData()
    {
        return new GroupDataImpl(env, new byte[0], 0, 0);
    }

    @Override
    public EntityFactory EntityFactory()
    {
        return new EntityFactoryImpl(env, true);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

    /** TopicData is not in the PSM factory's list but every topic QoS carries it. */
    public TopicData TopicData()
    {
        return new DataPolicies.TopicDataImpl(env, new byte[0], 0, 0);
    }

    /** Presentation is not in the PSM factory's list but every publisher and subscriber QoS carries it. */
    public Presentation Presentation()
    {
        return new PresentationImpl(env, Presentation.AccessScopeKind.INSTANCE, false, false);
    }
}
