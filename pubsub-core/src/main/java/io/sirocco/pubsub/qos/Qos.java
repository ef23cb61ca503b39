package io.sirocco.pubsub.qos;

import java.util.Map;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.*;

import org.omg.dds.domain.DomainParticipantFactoryQos;
import org.omg.dds.domain.DomainParticipantQos;
import org.omg.dds.topic.TopicQos;
import org.omg.dds.pub.PublisherQos;
import org.omg.dds.sub.SubscriberQos;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.sub.DataReaderQos;

/**
 * The seven entity QoS types of the PSM, as immutable {@link QosMap}s. {@code defaults} builds each from the policy
 * defaults. The getters that several QoS types share live once, in {@link GroupQosMap} (Publisher, Subscriber),
 * {@link EndpointQosMap} (Topic, DataWriter, DataReader) and {@link OfferedQosMap} (Topic, DataWriter).
 */
public final class Qos
{
    private Qos()
    {
    }

    /** The policies of a Publisher or Subscriber QoS. */
    public abstract static class GroupQosMap<P extends QosPolicy, SELF extends GroupQosMap<P, SELF>>
        extends QosMap<P, SELF>
    {
        private static final long serialVersionUID = 1L;

        protected GroupQosMap(final ServiceEnvironment env, final Class<P> family,
            final Map<Class<? extends P>, P> policies)
        {
            super(env, family, policies);
        }

        public Presentation getPresentation()
        {
            return policy(Presentation.class);
        }

        public Partition getPartition()
        {
            return policy(Partition.class);
        }

        public GroupData getGroupData()
        {
            return policy(GroupData.class);
        }

        public EntityFactory getEntityFactory()
        {
            return policy(EntityFactory.class);
        }
    }

    /** The policies that Topic, DataWriter and DataReader QoS all have. */
    public abstract static class EndpointQosMap<P extends QosPolicy, SELF extends EndpointQosMap<P, SELF>>
        extends QosMap<P, SELF>
    {
        private static final long serialVersionUID = 1L;

        protected EndpointQosMap(final ServiceEnvironment env, final Class<P> family,
            final Map<Class<? extends P>, P> policies)
        {
            super(env, family, policies);
        }

        public Durability getDurability()
        {
            return policy(Durability.class);
        }

        public Deadline getDeadline()
        {
            return policy(Deadline.class);
        }

        public LatencyBudget getLatencyBudget()
        {
            return policy(LatencyBudget.class);
        }

        public Liveliness getLiveliness()
        {
            return policy(Liveliness.class);
        }

        /** DataReaderQos has no getReliability() in PSM 1.0; Sirocco adds it there too. */
        public Reliability getReliability()
        {
            return policy(Reliability.class);
        }

        public DestinationOrder getDestinationOrder()
        {
            return policy(DestinationOrder.class);
        }

        public History getHistory()
        {
            return policy(History.class);
        }

        public ResourceLimits getResourceLimits()
        {
            return policy(ResourceLimits.class);
        }

        public Ownership getOwnership()
        {
            return policy(Ownership.class);
        }

        public DataRepresentation getRepresentation()
        {
            return policy(DataRepresentation.class);
        }

        public TypeConsistencyEnforcement getTypeConsistency()
        {
            return policy(TypeConsistencyEnforcement.class);
        }
    }

    /** The policies that Topic and DataWriter QoS have and DataReader QoS has not: the offering side's. */
    public abstract static class OfferedQosMap<P extends QosPolicy, SELF extends OfferedQosMap<P, SELF>>
        extends EndpointQosMap<P, SELF>
    {
        private static final long serialVersionUID = 1L;

        protected OfferedQosMap(final ServiceEnvironment env, final Class<P> family,
            final Map<Class<? extends P>, P> policies)
        {
            super(env, family, policies);
        }

        public DurabilityService getDurabilityService()
        {
            return policy(DurabilityService.class);
        }

        public TransportPriority getTransportPriority()
        {
            return policy(TransportPriority.class);
        }

        public Lifespan getLifespan()
        {
            return policy(Lifespan.class);
        }
    }

    public static final class DomainParticipantFactoryQosImpl extends QosMap<QosPolicy.ForDomainParticipantFactory, DomainParticipantFactoryQosImpl> implements DomainParticipantFactoryQos
    {
        private static final long serialVersionUID = 1L;

        public DomainParticipantFactoryQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForDomainParticipantFactory>, QosPolicy.ForDomainParticipantFactory> policies)
        {
            super(env, QosPolicy.ForDomainParticipantFactory.class, policies);
        }

        public static DomainParticipantFactoryQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            return new DomainParticipantFactoryQosImpl(env, policies(f.EntityFactory()));
        }

        @Override
        protected DomainParticipantFactoryQosImpl copy(final Map<Class<? extends QosPolicy.ForDomainParticipantFactory>, QosPolicy.ForDomainParticipantFactory> policies)
        {
            return new DomainParticipantFactoryQosImpl(getEnvironment(), policies);
        }

        @Override
        public EntityFactory getEntityFactory()
        {
            return get(EntityFactory.class);
        }

        /** The PSM 1.0 signature takes a ForDataWriter policy here; {@link QosMap#with} checks the family. */
        @Override
        public DomainParticipantFactoryQos withPolicy(final QosPolicy.ForDataWriter policy)
        {
            return with(policy);
        }

        @Override
        public DomainParticipantFactoryQos withPolicies(final QosPolicy.ForDataWriter... policies)
        {
            return withAll(policies);
        }
    }

    public static final class DomainParticipantQosImpl extends QosMap<QosPolicy.ForDomainParticipant, DomainParticipantQosImpl> implements DomainParticipantQos
    {
        private static final long serialVersionUID = 1L;

        public DomainParticipantQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForDomainParticipant>, QosPolicy.ForDomainParticipant> policies)
        {
            super(env, QosPolicy.ForDomainParticipant.class, policies);
        }

        public static DomainParticipantQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            return new DomainParticipantQosImpl(env, policies(f.UserData(), f.EntityFactory()));
        }

        @Override
        protected DomainParticipantQosImpl copy(final Map<Class<? extends QosPolicy.ForDomainParticipant>, QosPolicy.ForDomainParticipant> policies)
        {
            return new DomainParticipantQosImpl(getEnvironment(), policies);
        }

        @Override
        public UserData getUserData()
        {
            return get(UserData.class);
        }

        @Override
        public EntityFactory getEntityFactory()
        {
            return get(EntityFactory.class);
        }
    }

    public static final class TopicQosImpl extends OfferedQosMap<QosPolicy.ForTopic, TopicQosImpl> implements TopicQos
    {
        private static final long serialVersionUID = 1L;

        public TopicQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForTopic>, QosPolicy.ForTopic> policies)
        {
            super(env, QosPolicy.ForTopic.class, policies);
        }

        public static TopicQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            return new TopicQosImpl(env, policies(f.TopicData(), f.Durability(), f.DurabilityService(), f.Deadline(),
                f.LatencyBudget(), f.Liveliness(), f.Reliability(), f.DestinationOrder(), f.History(),
                f.ResourceLimits(), f.TransportPriority(), f.Lifespan(), f.Ownership(), f.Representation(),
                f.TypeConsistency()));
        }

        @Override
        protected TopicQosImpl copy(final Map<Class<? extends QosPolicy.ForTopic>, QosPolicy.ForTopic> policies)
        {
            return new TopicQosImpl(getEnvironment(), policies);
        }

        @Override
        public TopicData getTopicData()
        {
            return get(TopicData.class);
        }
    }

    public static final class PublisherQosImpl extends GroupQosMap<QosPolicy.ForPublisher, PublisherQosImpl> implements PublisherQos
    {
        private static final long serialVersionUID = 1L;

        public PublisherQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForPublisher>, QosPolicy.ForPublisher> policies)
        {
            super(env, QosPolicy.ForPublisher.class, policies);
        }

        public static PublisherQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            return new PublisherQosImpl(env, policies(f.Presentation(), f.Partition(), f.GroupData(),
                f.EntityFactory()));
        }

        @Override
        protected PublisherQosImpl copy(final Map<Class<? extends QosPolicy.ForPublisher>, QosPolicy.ForPublisher> policies)
        {
            return new PublisherQosImpl(getEnvironment(), policies);
        }
    }

    public static final class SubscriberQosImpl extends GroupQosMap<QosPolicy.ForSubscriber, SubscriberQosImpl> implements SubscriberQos
    {
        private static final long serialVersionUID = 1L;

        public SubscriberQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForSubscriber>, QosPolicy.ForSubscriber> policies)
        {
            super(env, QosPolicy.ForSubscriber.class, policies);
        }

        public static SubscriberQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            return new SubscriberQosImpl(env, policies(f.Presentation(), f.Partition(), f.GroupData(),
                f.EntityFactory()));
        }

        @Override
        protected SubscriberQosImpl copy(final Map<Class<? extends QosPolicy.ForSubscriber>, QosPolicy.ForSubscriber> policies)
        {
            return new SubscriberQosImpl(getEnvironment(), policies);
        }
    }

    public static final class DataWriterQosImpl extends OfferedQosMap<QosPolicy.ForDataWriter, DataWriterQosImpl> implements DataWriterQos
    {
        private static final long serialVersionUID = 1L;

        public DataWriterQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForDataWriter>, QosPolicy.ForDataWriter> policies)
        {
            super(env, QosPolicy.ForDataWriter.class, policies);
        }

        public static DataWriterQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            return new DataWriterQosImpl(env, policies(f.Durability(), f.DurabilityService(), f.Deadline(),
                f.LatencyBudget(), f.Liveliness(), f.Reliability().withReliable(), f.DestinationOrder(), f.History(),
                f.ResourceLimits(), f.TransportPriority(), f.Lifespan(), f.UserData(), f.Ownership(),
                f.OwnershipStrength(), f.WriterDataLifecycle(), f.Representation(), f.TypeConsistency()));
        }

        @Override
        protected DataWriterQosImpl copy(final Map<Class<? extends QosPolicy.ForDataWriter>, QosPolicy.ForDataWriter> policies)
        {
            return new DataWriterQosImpl(getEnvironment(), policies);
        }

        @Override
        public UserData getUserData()
        {
            return get(UserData.class);
        }

        @Override
        public OwnershipStrength getOwnershipStrength()
        {
            return get(OwnershipStrength.class);
        }

        @Override
        public WriterDataLifecycle getWriterDataLifecycle()
        {
            return get(WriterDataLifecycle.class);
        }
    }

    public static final class DataReaderQosImpl extends EndpointQosMap<QosPolicy.ForDataReader, DataReaderQosImpl> implements DataReaderQos
    {
        private static final long serialVersionUID = 1L;

        public DataReaderQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForDataReader>, QosPolicy.ForDataReader> policies)
        {
            super(env, QosPolicy.ForDataReader.class, policies);
        }

        public static DataReaderQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            return new DataReaderQosImpl(env, policies(f.Durability(), f.Deadline(), f.LatencyBudget(),
                f.Liveliness(), f.DestinationOrder(), f.History(), f.ResourceLimits(), f.UserData(), f.Ownership(),
                f.TimeBasedFilter(), f.ReaderDataLifecycle(), f.Representation(), f.TypeConsistency(),
                f.Reliability()));
        }

        @Override
        protected DataReaderQosImpl copy(final Map<Class<? extends QosPolicy.ForDataReader>, QosPolicy.ForDataReader> policies)
        {
            return new DataReaderQosImpl(getEnvironment(), policies);
        }

        @Override
        public UserData getUserData()
        {
            return get(UserData.class);
        }

        @Override
        public TimeBasedFilter getTimeBasedFilter()
        {
            return get(TimeBasedFilter.class);
        }

        @Override
        public ReaderDataLifecycle getReaderDataLifecycle()
        {
            return get(ReaderDataLifecycle.class);
        }
    }
}
