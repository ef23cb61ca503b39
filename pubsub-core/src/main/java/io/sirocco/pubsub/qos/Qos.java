package io.sirocco.pubsub.qos;

import java.util.LinkedHashMap;
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

/** The seven entity QoS types of the PSM, as immutable {@link QosMap}s. {@code defaults} builds each from the policy defaults. */
public final class Qos
{
    private Qos()
    {
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
            final Map<Class<? extends QosPolicy.ForDomainParticipantFactory>, QosPolicy.ForDomainParticipantFactory> m = new LinkedHashMap<>();
            m.put(EntityFactory.class, f.EntityFactory());
            return new DomainParticipantFactoryQosImpl(env, m);
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
            final Map<Class<? extends QosPolicy.ForDomainParticipant>, QosPolicy.ForDomainParticipant> m = new LinkedHashMap<>();
            m.put(UserData.class, f.UserData());
            m.put(EntityFactory.class, f.EntityFactory());
            return new DomainParticipantQosImpl(env, m);
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

    public static final class TopicQosImpl extends QosMap<QosPolicy.ForTopic, TopicQosImpl> implements TopicQos
    {
        private static final long serialVersionUID = 1L;

        public TopicQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForTopic>, QosPolicy.ForTopic> policies)
        {
            super(env, QosPolicy.ForTopic.class, policies);
        }

        public static TopicQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            final Map<Class<? extends QosPolicy.ForTopic>, QosPolicy.ForTopic> m = new LinkedHashMap<>();
            m.put(TopicData.class, f.TopicData());
            m.put(Durability.class, f.Durability());
            m.put(DurabilityService.class, f.DurabilityService());
            m.put(Deadline.class, f.Deadline());
            m.put(LatencyBudget.class, f.LatencyBudget());
            m.put(Liveliness.class, f.Liveliness());
            m.put(Reliability.class, f.Reliability());
            m.put(DestinationOrder.class, f.DestinationOrder());
            m.put(History.class, f.History());
            m.put(ResourceLimits.class, f.ResourceLimits());
            m.put(TransportPriority.class, f.TransportPriority());
            m.put(Lifespan.class, f.Lifespan());
            m.put(Ownership.class, f.Ownership());
            m.put(DataRepresentation.class, f.Representation());
            m.put(TypeConsistencyEnforcement.class, f.TypeConsistency());
            return new TopicQosImpl(env, m);
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

        @Override
        public Durability getDurability()
        {
            return get(Durability.class);
        }

        @Override
        public DurabilityService getDurabilityService()
        {
            return get(DurabilityService.class);
        }

        @Override
        public Deadline getDeadline()
        {
            return get(Deadline.class);
        }

        @Override
        public LatencyBudget getLatencyBudget()
        {
            return get(LatencyBudget.class);
        }

        @Override
        public Liveliness getLiveliness()
        {
            return get(Liveliness.class);
        }

        @Override
        public Reliability getReliability()
        {
            return get(Reliability.class);
        }

        @Override
        public DestinationOrder getDestinationOrder()
        {
            return get(DestinationOrder.class);
        }

        @Override
        public History getHistory()
        {
            return get(History.class);
        }

        @Override
        public ResourceLimits getResourceLimits()
        {
            return get(ResourceLimits.class);
        }

        @Override
        public TransportPriority getTransportPriority()
        {
            return get(TransportPriority.class);
        }

        @Override
        public Lifespan getLifespan()
        {
            return get(Lifespan.class);
        }

        @Override
        public Ownership getOwnership()
        {
            return get(Ownership.class);
        }

        @Override
        public DataRepresentation getRepresentation()
        {
            return get(DataRepresentation.class);
        }

        @Override
        public TypeConsistencyEnforcement getTypeConsistency()
        {
            return get(TypeConsistencyEnforcement.class);
        }
    }

    public static final class PublisherQosImpl extends QosMap<QosPolicy.ForPublisher, PublisherQosImpl> implements PublisherQos
    {
        private static final long serialVersionUID = 1L;

        public PublisherQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForPublisher>, QosPolicy.ForPublisher> policies)
        {
            super(env, QosPolicy.ForPublisher.class, policies);
        }

        public static PublisherQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            final Map<Class<? extends QosPolicy.ForPublisher>, QosPolicy.ForPublisher> m = new LinkedHashMap<>();
            m.put(Presentation.class, f.Presentation());
            m.put(Partition.class, f.Partition());
            m.put(GroupData.class, f.GroupData());
            m.put(EntityFactory.class, f.EntityFactory());
            return new PublisherQosImpl(env, m);
        }

        @Override
        protected PublisherQosImpl copy(final Map<Class<? extends QosPolicy.ForPublisher>, QosPolicy.ForPublisher> policies)
        {
            return new PublisherQosImpl(getEnvironment(), policies);
        }

        @Override
        public Presentation getPresentation()
        {
            return get(Presentation.class);
        }

        @Override
        public Partition getPartition()
        {
            return get(Partition.class);
        }

        @Override
        public GroupData getGroupData()
        {
            return get(GroupData.class);
        }

        @Override
        public EntityFactory getEntityFactory()
        {
            return get(EntityFactory.class);
        }
    }

    public static final class SubscriberQosImpl extends QosMap<QosPolicy.ForSubscriber, SubscriberQosImpl> implements SubscriberQos
    {
        private static final long serialVersionUID = 1L;

        public SubscriberQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForSubscriber>, QosPolicy.ForSubscriber> policies)
        {
            super(env, QosPolicy.ForSubscriber.class, policies);
        }

        public static SubscriberQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            final Map<Class<? extends QosPolicy.ForSubscriber>, QosPolicy.ForSubscriber> m = new LinkedHashMap<>();
            m.put(Presentation.class, f.Presentation());
            m.put(Partition.class, f.Partition());
            m.put(GroupData.class, f.GroupData());
            m.put(EntityFactory.class, f.EntityFactory());
            return new SubscriberQosImpl(env, m);
        }

        @Override
        protected SubscriberQosImpl copy(final Map<Class<? extends QosPolicy.ForSubscriber>, QosPolicy.ForSubscriber> policies)
        {
            return new SubscriberQosImpl(getEnvironment(), policies);
        }

        @Override
        public Presentation getPresentation()
        {
            return get(Presentation.class);
        }

        @Override
        public Partition getPartition()
        {
            return get(Partition.class);
        }

        @Override
        public GroupData getGroupData()
        {
            return get(GroupData.class);
        }

        @Override
        public EntityFactory getEntityFactory()
        {
            return get(EntityFactory.class);
        }
    }

    public static final class DataWriterQosImpl extends QosMap<QosPolicy.ForDataWriter, DataWriterQosImpl> implements DataWriterQos
    {
        private static final long serialVersionUID = 1L;

        public DataWriterQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForDataWriter>, QosPolicy.ForDataWriter> policies)
        {
            super(env, QosPolicy.ForDataWriter.class, policies);
        }

        public static DataWriterQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            final Map<Class<? extends QosPolicy.ForDataWriter>, QosPolicy.ForDataWriter> m = new LinkedHashMap<>();
            m.put(Durability.class, f.Durability());
            m.put(DurabilityService.class, f.DurabilityService());
            m.put(Deadline.class, f.Deadline());
            m.put(LatencyBudget.class, f.LatencyBudget());
            m.put(Liveliness.class, f.Liveliness());
            m.put(Reliability.class, f.Reliability().withReliable());
            m.put(DestinationOrder.class, f.DestinationOrder());
            m.put(History.class, f.History());
            m.put(ResourceLimits.class, f.ResourceLimits());
            m.put(TransportPriority.class, f.TransportPriority());
            m.put(Lifespan.class, f.Lifespan());
            m.put(UserData.class, f.UserData());
            m.put(Ownership.class, f.Ownership());
            m.put(OwnershipStrength.class, f.OwnershipStrength());
            m.put(WriterDataLifecycle.class, f.WriterDataLifecycle());
            m.put(DataRepresentation.class, f.Representation());
            m.put(TypeConsistencyEnforcement.class, f.TypeConsistency());
            return new DataWriterQosImpl(env, m);
        }

        @Override
        protected DataWriterQosImpl copy(final Map<Class<? extends QosPolicy.ForDataWriter>, QosPolicy.ForDataWriter> policies)
        {
            return new DataWriterQosImpl(getEnvironment(), policies);
        }

        @Override
        public Durability getDurability()
        {
            return get(Durability.class);
        }

        @Override
        public DurabilityService getDurabilityService()
        {
            return get(DurabilityService.class);
        }

        @Override
        public Deadline getDeadline()
        {
            return get(Deadline.class);
        }

        @Override
        public LatencyBudget getLatencyBudget()
        {
            return get(LatencyBudget.class);
        }

        @Override
        public Liveliness getLiveliness()
        {
            return get(Liveliness.class);
        }

        @Override
        public Reliability getReliability()
        {
            return get(Reliability.class);
        }

        @Override
        public DestinationOrder getDestinationOrder()
        {
            return get(DestinationOrder.class);
        }

        @Override
        public History getHistory()
        {
            return get(History.class);
        }

        @Override
        public ResourceLimits getResourceLimits()
        {
            return get(ResourceLimits.class);
        }

        @Override
        public TransportPriority getTransportPriority()
        {
            return get(TransportPriority.class);
        }

        @Override
        public Lifespan getLifespan()
        {
            return get(Lifespan.class);
        }

        @Override
        public UserData getUserData()
        {
            return get(UserData.class);
        }

        @Override
        public Ownership getOwnership()
        {
            return get(Ownership.class);
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

        @Override
        public DataRepresentation getRepresentation()
        {
            return get(DataRepresentation.class);
        }

        @Override
        public TypeConsistencyEnforcement getTypeConsistency()
        {
            return get(TypeConsistencyEnforcement.class);
        }
    }

    public static final class DataReaderQosImpl extends QosMap<QosPolicy.ForDataReader, DataReaderQosImpl> implements DataReaderQos
    {
        private static final long serialVersionUID = 1L;

        public DataReaderQosImpl(final ServiceEnvironment env, final Map<Class<? extends QosPolicy.ForDataReader>, QosPolicy.ForDataReader> policies)
        {
            super(env, QosPolicy.ForDataReader.class, policies);
        }

        public static DataReaderQosImpl defaults(final ServiceEnvironment env)
        {
            final PolicyFactoryImpl f = new PolicyFactoryImpl(env);
            final Map<Class<? extends QosPolicy.ForDataReader>, QosPolicy.ForDataReader> m = new LinkedHashMap<>();
            m.put(Durability.class, f.Durability());
            m.put(Deadline.class, f.Deadline());
            m.put(LatencyBudget.class, f.LatencyBudget());
            m.put(Liveliness.class, f.Liveliness());
            m.put(DestinationOrder.class, f.DestinationOrder());
            m.put(History.class, f.History());
            m.put(ResourceLimits.class, f.ResourceLimits());
            m.put(UserData.class, f.UserData());
            m.put(Ownership.class, f.Ownership());
            m.put(TimeBasedFilter.class, f.TimeBasedFilter());
            m.put(ReaderDataLifecycle.class, f.ReaderDataLifecycle());
            m.put(DataRepresentation.class, f.Representation());
            m.put(TypeConsistencyEnforcement.class, f.TypeConsistency());
            m.put(Reliability.class, f.Reliability());
            return new DataReaderQosImpl(env, m);
        }

        @Override
        protected DataReaderQosImpl copy(final Map<Class<? extends QosPolicy.ForDataReader>, QosPolicy.ForDataReader> policies)
        {
            return new DataReaderQosImpl(getEnvironment(), policies);
        }

        @Override
        public Durability getDurability()
        {
            return get(Durability.class);
        }

        @Override
        public Deadline getDeadline()
        {
            return get(Deadline.class);
        }

        @Override
        public LatencyBudget getLatencyBudget()
        {
            return get(LatencyBudget.class);
        }

        @Override
        public Liveliness getLiveliness()
        {
            return get(Liveliness.class);
        }

        @Override
        public DestinationOrder getDestinationOrder()
        {
            return get(DestinationOrder.class);
        }

        @Override
        public History getHistory()
        {
            return get(History.class);
        }

        @Override
        public ResourceLimits getResourceLimits()
        {
            return get(ResourceLimits.class);
        }

        @Override
        public UserData getUserData()
        {
            return get(UserData.class);
        }

        @Override
        public Ownership getOwnership()
        {
            return get(Ownership.class);
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

        @Override
        public DataRepresentation getRepresentation()
        {
            return get(DataRepresentation.class);
        }

        @Override
        public TypeConsistencyEnforcement getTypeConsistency()
        {
            return get(TypeConsistencyEnforcement.class);
        }

        /** DataReaderQos has no getReliability() in PSM 1.0; Sirocco adds it. */
        
        public Reliability getReliability()
        {
            return get(Reliability.class);
        }
    }

}
