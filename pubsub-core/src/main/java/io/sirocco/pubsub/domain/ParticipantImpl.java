package io.sirocco.pubsub.domain;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.DomainBus;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.bus.group.GroupBus;
import io.sirocco.pubsub.bus.select.BusSelector;
import io.sirocco.pubsub.durability.DurabilityNode;
import io.sirocco.pubsub.durability.ParticipantDurability;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.EntityBase;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.core.ParticipantView;
import io.sirocco.pubsub.core.TimeImpl;
import io.sirocco.pubsub.pub.PublisherImpl;
import io.sirocco.pubsub.qos.Qos.PublisherQosImpl;
import io.sirocco.pubsub.qos.Qos.SubscriberQosImpl;
import io.sirocco.pubsub.qos.Qos.TopicQosImpl;
import io.sirocco.pubsub.sub.BuiltinSubscriber;
import io.sirocco.pubsub.sub.SubscriberImpl;
import io.sirocco.pubsub.timer.ParticipantTimers;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.TypeSupportImpl;
import io.sirocco.pubsub.topic.builtin.ParticipantDataImpl;
import io.sirocco.pubsub.topic.builtin.TopicDataImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.Entity;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ModifiableTime;
import org.omg.dds.core.Time;
import org.omg.dds.core.status.Status;
import org.omg.dds.domain.DomainParticipantListener;
import org.omg.dds.domain.DomainParticipantQos;
import org.omg.dds.pub.Publisher;
import org.omg.dds.pub.PublisherListener;
import org.omg.dds.pub.PublisherQos;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.sub.SubscriberListener;
import org.omg.dds.sub.SubscriberQos;
import org.omg.dds.topic.ParticipantBuiltinTopicData;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicBuiltinTopicData;
import org.omg.dds.topic.TopicDescription;
import org.omg.dds.topic.TopicListener;
import org.omg.dds.topic.TopicQos;
import org.omg.dds.type.TypeSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A DomainParticipant: one member of the domain's group (its {@link DomainBus}), and the parent of its topics,
 * publishers and subscribers, which see it as a {@link ParticipantView}. It delegates by responsibility: what it
 * contains is in its {@link EntityRegistry}; discovery (the table of discovered records, the ignore list, the
 * discovery thread that matches announcements and runs the matching listeners) is its {@link ParticipantDiscovery};
 * creating and finding topics is its {@link TopicDirectory}. What is left here is the DomainParticipant API and the
 * life cycle.
 *
 * <p>Threads: the API is called from application threads; the default QoS are volatile, the registries concurrent
 * (see each class). What is not built yet throws from {@link ParticipantFeatureGaps}. {@link #close} stops the discovery thread after the bus is left.
 */
public final class ParticipantImpl extends ParticipantFeatureGaps
{
    private static final Logger LOG = LoggerFactory.getLogger(ParticipantImpl.class);

    private final Consumer<ParticipantImpl> onClosed;
    private final int domainId;
    private final AtomicLong entityCounter = new AtomicLong();
    private final EntityRegistry registry = new EntityRegistry();
    private final BuiltinSubscriber builtinSubscriber;
    private final ParticipantDiscovery discovery;
    private final DomainBus bus;
    private final ParticipantDurability durability;
    private final TopicDirectory topics;
    private final ParticipantTimers timers;
    private volatile PublisherQos defaultPublisherQos;
    private volatile SubscriberQos defaultSubscriberQos;
    private volatile TopicQos defaultTopicQos;

    ParticipantImpl(final SiroccoServiceEnvironment env, final Consumer<ParticipantImpl> onClosed, final int domainId,
        final DomainParticipantQos qos, final DomainParticipantListener listener,
        final Collection<Class<? extends Status>> statuses)
    {
        super(env, 0, qos, listener, statuses);
        this.onClosed = onClosed;
        this.domainId = domainId;
        this.defaultPublisherQos = PublisherQosImpl.defaults(env);
        this.defaultSubscriberQos = SubscriberQosImpl.defaults(env);
        this.defaultTopicQos = TopicQosImpl.defaults(env);
        this.builtinSubscriber = new BuiltinSubscriber(env, this);
        this.discovery = new ParticipantDiscovery(domainId, registry, builtinSubscriber, this::isClosed);
        this.bus = BusSelector.join(env.config(), domainId, discovery);
        discovery.joined(bus.participantGuid());
        ((HandleImpl)getInstanceHandle()).value(bus.participantGuid());
        this.topics = new TopicDirectory(env, this, registry, discovery, describe());
        this.timers = new ParticipantTimers(String.format("d%d-%05x", domainId,
            (bus.participantGuid() >>> 20) & 0xFFFFF));
        discovery.announceParticipant(bus, qos.getUserData().getValue());
        LOG.info("participant {} joined domain {} over transport '{}'", String.format("%016x",
            bus.participantGuid()), domainId, bus.transportName());
        this.durability = new ParticipantDurability(domainId, this::describe,
            bus instanceof GroupBus groupBus ? groupBus.group() : null, bus, discovery::durable);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Services for contained entities (ParticipantView)

    @Override
    public DomainBus bus()
    {
        return bus;
    }

    @Override
    public ParticipantTimers timers()
    {
        return timers;
    }

    @Override
    public DurabilityNode durability()
    {
        return durability.node();
    }

    @Override
    public long nextGuid()
    {
        final long index = entityCounter.incrementAndGet();
        if (index >= 0xFFFFF)
        {
            throw DdsExceptions.outOfResources(env, describe() + ": more than 2^20 entities created");
        }
        return bus.participantGuid() | index;
    }

    @Override
    public EndpointRecord discovered(final long guid)
    {
        return discovery.discovered(guid);
    }

    @Override
    public void registerWriter(final EntityBase<?, ?> writer)
    {
        registry.addWriter(writer);
    }

    @Override
    public void unregisterWriter(final EntityBase<?, ?> writer)
    {
        registry.removeWriter(writer);
    }

    @Override
    public void registerReader(final EntityBase<?, ?> reader)
    {
        registry.addReader(reader);
    }

    @Override
    public void unregisterReader(final EntityBase<?, ?> reader)
    {
        registry.removeReader(reader);
    }

    @Override
    public void removed(final Entity<?, ?> child)
    {
        final TopicImpl<?> topic = registry.removed(child);
        if (topic != null)
        {
            bus.retract(topic.guid());
        }
    }

    @Override
    public void onDiscoveryThread(final Runnable task)
    {
        discovery.submit(task);
    }

    @Override
    public String describe()
    {
        return String.format("DomainParticipant (domain %d, %016x)", domainId, guid());
    }

    @Override
    public long guid()
    {
        return bus == null ? 0 : bus.participantGuid();
    }

    @Override
    public void enable()
    {
        super.enable();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Publishers and subscribers

    @Override
    public Publisher createPublisher()
    {
        return createPublisher(defaultPublisherQos, null, null);
    }

    @Override
    public Publisher createPublisher(final PublisherQos qos)
    {
        return createPublisher(qos, null, null);
    }

    @Override
    public Publisher createPublisher(final PublisherQos qos, final PublisherListener listener,
        final Collection<Class<? extends Status>> statuses)
    {
        checkOpen();
        final PublisherImpl publisher = new PublisherImpl(env, this, nextGuid(),
            qos == null ? defaultPublisherQos : qos, listener, statuses);
        registry.add(publisher);
        if (isEnabled() && this.qos.getEntityFactory().isAutoEnableCreatedEntities())
        {
            publisher.enable();
        }
        return publisher;
    }

    @Override
    public Subscriber createSubscriber()
    {
        return createSubscriber(defaultSubscriberQos, null, null);
    }

    @Override
    public Subscriber createSubscriber(final SubscriberQos qos)
    {
        return createSubscriber(qos, null, null);
    }

    @Override
    public Subscriber createSubscriber(final SubscriberQos qos, final SubscriberListener listener,
        final Collection<Class<? extends Status>> statuses)
    {
        checkOpen();
        final SubscriberImpl subscriber = new SubscriberImpl(env, this, nextGuid(),
            qos == null ? defaultSubscriberQos : qos, listener, statuses);
        registry.add(subscriber);
        if (isEnabled() && this.qos.getEntityFactory().isAutoEnableCreatedEntities())
        {
            subscriber.enable();
        }
        return subscriber;
    }

    @Override
    public Subscriber getBuiltinSubscriber()
    {
        checkOpen();
        return builtinSubscriber;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Topics

    @Override
    public <TYPE> Topic<TYPE> createTopic(final String topicName, final Class<TYPE> type)
    {
        return createTopic(topicName, type, defaultTopicQos, null, null);
    }

    @Override
    public <TYPE> Topic<TYPE> createTopic(final String topicName, final Class<TYPE> type, final TopicQos qos,
        final TopicListener<TYPE> listener, final Collection<Class<? extends Status>> statuses)
    {
        checkOpen();
        return createTopic(topicName, TypeSupportImpl.forClass(env, type, null), qos, listener, statuses);
    }

    @Override
    public <TYPE> Topic<TYPE> createTopic(final String topicName, final TypeSupport<TYPE> type)
    {
        return createTopic(topicName, type, defaultTopicQos, null, null);
    }

    @Override
    public <TYPE> Topic<TYPE> createTopic(final String topicName, final TypeSupport<TYPE> type,
        final TopicQos qos, final TopicListener<TYPE> listener, final Collection<Class<? extends Status>> statuses)
    {
        checkOpen();
        if (topicName == null || topicName.isEmpty() || topicName.length() > 256)
        {
            throw new IllegalArgumentException(describe() + ": createTopic: the topic name must be 1..256 " +
                "characters, got " + (topicName == null ? "null" : "'" + topicName + "'"));
        }
        if (!(type instanceof TypeSupportImpl<TYPE> support))
        {
            throw new IllegalArgumentException(describe() + ": createTopic('" + topicName + "'): the TypeSupport " +
                "must come from TypeSupport.newTypeSupport with Sirocco's environment");
        }
        return topics.create(topicName, support, qos == null ? defaultTopicQos : qos, listener, statuses);
    }

    @Override
    public <TYPE> Topic<TYPE> findTopic(final String topicName, final Duration timeout) throws TimeoutException
    {
        return findTopic(topicName, DurationImpl.toNanos(timeout), TimeUnit.NANOSECONDS);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <TYPE> Topic<TYPE> findTopic(final String topicName, final long timeout, final TimeUnit unit)
        throws TimeoutException
    {
        checkOpen();
        return topics.find(topicName, unit.toNanos(timeout), defaultTopicQos);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <TYPE> TopicDescription<TYPE> lookupTopicDescription(final String topicName)
    {
        checkOpen();
        final TopicImpl<?> topic = registry.topic(topicName);
        return topic != null ? (TopicDescription<TYPE>)topic : builtinSubscriber.lookupTopic(topicName);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Life cycle

    @Override
    public void closeContainedEntities()
    {
        checkOpen();
        registry.closeAll();
    }

    @Override
    public void close()
    {
        if (isClosed())
        {
            return;
        }
        closeContainedEntities();
        builtinSubscriber.closeBuiltin();
        markClosed();
        timers.close();
        durability.close();
        bus.close();
        discovery.close();
        onClosed.accept(this);
    }

    @Override
    public void ignoreParticipant(final InstanceHandle handle)
    {
        checkOpen();
        discovery.ignore(HandleImpl.valueOf(handle));
    }

    @Override
    public void ignoreTopic(final InstanceHandle handle)
    {
        checkOpen();
        discovery.ignore(HandleImpl.valueOf(handle));
    }

    @Override
    public void ignorePublication(final InstanceHandle handle)
    {
        checkOpen();
        discovery.ignore(HandleImpl.valueOf(handle));
    }

    @Override
    public void ignoreSubscription(final InstanceHandle handle)
    {
        checkOpen();
        discovery.ignore(HandleImpl.valueOf(handle));
    }

    @Override
    public int getDomainId()
    {
        return domainId;
    }

    @Override
    public void assertLiveliness()
    {
        checkOpen();
        registry.assertLiveliness(System.nanoTime());
    }

    @Override
    public PublisherQos getDefaultPublisherQos()
    {
        return defaultPublisherQos;
    }

    @Override
    public void setDefaultPublisherQos(final PublisherQos qos)
    {
        defaultPublisherQos = qos == null ? PublisherQosImpl.defaults(env) : qos;
    }

    @Override
    public SubscriberQos getDefaultSubscriberQos()
    {
        return defaultSubscriberQos;
    }

    @Override
    public void setDefaultSubscriberQos(final SubscriberQos qos)
    {
        defaultSubscriberQos = qos == null ? SubscriberQosImpl.defaults(env) : qos;
    }

    @Override
    public TopicQos getDefaultTopicQos()
    {
        return defaultTopicQos;
    }

    @Override
    public void setDefaultTopicQos(final TopicQos qos)
    {
        defaultTopicQos = qos == null ? TopicQosImpl.defaults(env) : qos;
    }

    @Override
    public Set<InstanceHandle> getDiscoveredParticipants()
    {
        checkOpen();
        return discovery.handles(env, EndpointRecord.PARTICIPANT);
    }

    @Override
    public ParticipantBuiltinTopicData getDiscoveredParticipantData(final InstanceHandle handle)
    {
        checkOpen();
        return new ParticipantDataImpl(env, discovery.recordOf(env, describe(), handle, EndpointRecord.PARTICIPANT));
    }

    @Override
    public Set<InstanceHandle> getDiscoveredTopics()
    {
        checkOpen();
        return discovery.handles(env, EndpointRecord.TOPIC);
    }

    @Override
    public TopicBuiltinTopicData getDiscoveredTopicData(final InstanceHandle handle)
    {
        checkOpen();
        return new TopicDataImpl(env, discovery.recordOf(env, describe(), handle, EndpointRecord.TOPIC));
    }

    @Override
    public boolean containsEntity(final InstanceHandle handle)
    {
        checkOpen();
        return registry.contains(HandleImpl.valueOf(handle));
    }

    @Override
    public ModifiableTime getCurrentTime(final ModifiableTime holder)
    {
        final ModifiableTime result = holder == null ? new TimeImpl(env, 0) : holder;
        result.setTime(TimeImpl.nowNs(), TimeUnit.NANOSECONDS);
        return result;
    }

    @Override
    public Time getCurrentTime()
    {
        return new TimeImpl(env, TimeImpl.nowNs());
    }

    @Override
    public void setQos(final DomainParticipantQos qos)
    {
        checkOpen();
        this.qos = qos;
        discovery.announceParticipant(bus, qos.getUserData().getValue());
    }
}
