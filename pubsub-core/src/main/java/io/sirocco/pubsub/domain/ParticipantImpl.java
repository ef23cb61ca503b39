package io.sirocco.pubsub.domain;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.BusSelector;
import io.sirocco.pubsub.bus.DiscoveryHandler;
import io.sirocco.pubsub.bus.DomainBus;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.EntityBase;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.core.TimeImpl;
import io.sirocco.pubsub.pub.DataWriterImpl;
import io.sirocco.pubsub.pub.PublisherImpl;
import io.sirocco.pubsub.qos.Qos.PublisherQosImpl;
import io.sirocco.pubsub.qos.Qos.SubscriberQosImpl;
import io.sirocco.pubsub.qos.Qos.TopicQosImpl;
import io.sirocco.pubsub.sub.BuiltinSubscriber;
import io.sirocco.pubsub.sub.DataReaderImpl;
import io.sirocco.pubsub.sub.SubscriberImpl;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.TypeSupportImpl;
import io.sirocco.pubsub.topic.builtin.ParticipantDataImpl;
import io.sirocco.pubsub.topic.builtin.TopicDataImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ModifiableTime;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.Time;
import org.omg.dds.core.status.Status;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantListener;
import org.omg.dds.domain.DomainParticipantQos;
import org.omg.dds.pub.Publisher;
import org.omg.dds.pub.PublisherListener;
import org.omg.dds.pub.PublisherQos;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.sub.SubscriberListener;
import org.omg.dds.sub.SubscriberQos;
import org.omg.dds.topic.ContentFilteredTopic;
import org.omg.dds.topic.MultiTopic;
import org.omg.dds.topic.ParticipantBuiltinTopicData;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicBuiltinTopicData;
import org.omg.dds.topic.TopicDescription;
import org.omg.dds.topic.TopicListener;
import org.omg.dds.topic.TopicQos;
import org.omg.dds.type.TypeSupport;
import org.omg.dds.type.dynamic.DynamicType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A DomainParticipant: one member of the domain's group (its {@link DomainBus}). It owns the discovery thread, on
 * which every announcement and retraction is matched against the local writers and readers, statuses are updated
 * and the matching listeners run. The table of discovered records is also updated synchronously as records
 * arrive, so the data path can match a writer whose first sample overtakes its announcement.
 */
public final class ParticipantImpl extends EntityBase<DomainParticipantListener, DomainParticipantQos>
    implements DomainParticipant
{
    private static final Logger LOG = LoggerFactory.getLogger(ParticipantImpl.class);

    private final ParticipantFactoryImpl factory;
    private final int domainId;
    private final DomainBus bus;
    private final ExecutorService discoveryThread;
    private final AtomicLong entityCounter = new AtomicLong();
    private final Map<Long, EndpointRecord> discovered = new ConcurrentHashMap<>();
    private final Set<Long> ignored = ConcurrentHashMap.newKeySet();
    private final CopyOnWriteArrayList<PublisherImpl> publishers = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<SubscriberImpl> subscribers = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<TopicImpl<?>> topics = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<DataWriterImpl<?>> writers = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<DataReaderImpl<?>> readers = new CopyOnWriteArrayList<>();
    private final ReentrantLock discoveryLock = new ReentrantLock();
    private final Condition discoveryChanged = discoveryLock.newCondition();
    private final BuiltinSubscriber builtinSubscriber;
    private volatile PublisherQos defaultPublisherQos;
    private volatile SubscriberQos defaultSubscriberQos;
    private volatile TopicQos defaultTopicQos;

    ParticipantImpl(final SiroccoServiceEnvironment env, final ParticipantFactoryImpl factory, final int domainId,
        final DomainParticipantQos qos, final DomainParticipantListener listener,
        final Collection<Class<? extends Status>> statuses)
    {
        super(env, 0, qos, listener, statuses);
        this.factory = factory;
        this.domainId = domainId;
        this.defaultPublisherQos = PublisherQosImpl.defaults(env);
        this.defaultSubscriberQos = SubscriberQosImpl.defaults(env);
        this.defaultTopicQos = TopicQosImpl.defaults(env);
        this.discoveryThread = Executors.newSingleThreadExecutor(r ->
            Thread.ofPlatform().daemon().name("sirocco-discovery-d" + domainId).unstarted(r));
        this.builtinSubscriber = new BuiltinSubscriber(env, this);
        this.bus = BusSelector.join(env.config(), domainId, new Discovery());
        this.handleGuid(bus.participantGuid());
        final byte[] userData = qos.getUserData().getValue();
        bus.announce(EndpointRecord.participant(bus.participantGuid(), userData, hostName(),
            ProcessHandle.current().pid()));
        LOG.info("participant {} joined domain {} over transport '{}'", String.format("%016x",
            bus.participantGuid()), domainId, bus.transportName());
    }

    /** The host identity the group knows this member by ({@code sirocco.multicast.host}, else {@code HostIdentity}). */
    private static String hostName()
    {
        return io.sirocco.multicast.Member.localHost();
    }

    private void handleGuid(final long participantGuid)
    {
        ((HandleImpl)getInstanceHandle()).value(participantGuid);
    }

    private final class Discovery implements DiscoveryHandler
    {
        @Override
        public void onAnnounce(final EndpointRecord record)
        {
            discovered.put(record.guid(), record);
            signalDiscovery();
            submit(() -> handleAnnounce(record));
        }

        @Override
        public void onRetract(final long guid, final boolean participantFailed)
        {
            final EndpointRecord record = discovered.remove(guid);
            if (record != null)
            {
                submit(() -> handleRetract(record, participantFailed));
            }
        }
    }

    private void submit(final Runnable task)
    {
        if (!discoveryThread.isShutdown())
        {
            try
            {
                discoveryThread.execute(() ->
                {
                    try
                    {
                        task.run();
                    }
                    catch (final RuntimeException ex)
                    {
                        LOG.error("domain {}: discovery event failed", domainId, ex);
                    }
                });
            }
            catch (final java.util.concurrent.RejectedExecutionException ex)
            {
                LOG.debug("domain {}: discovery event after close ignored", domainId);
            }
        }
    }

    private void signalDiscovery()
    {
        discoveryLock.lock();
        try
        {
            discoveryChanged.signalAll();
        }
        finally
        {
            discoveryLock.unlock();
        }
    }

    private boolean isIgnored(final EndpointRecord record)
    {
        return ignored.contains(record.guid()) || ignored.contains(record.participantGuid());
    }

    private void handleAnnounce(final EndpointRecord record)
    {
        if (isClosed() || isIgnored(record))
        {
            return;
        }
        switch (record.kind())
        {
            case EndpointRecord.WRITER ->
            {
                for (final DataReaderImpl<?> reader : readers)
                {
                    reader.onWriterDiscovered(record);
                }
                if (record.participantGuid() == bus.participantGuid())
                {
                    matchLocalWriter(record);
                }
            }
            case EndpointRecord.READER ->
            {
                for (final DataWriterImpl<?> writer : writers)
                {
                    writer.onReaderDiscovered(record);
                }
                if (record.participantGuid() == bus.participantGuid())
                {
                    matchLocalReader(record);
                }
            }
            case EndpointRecord.TOPIC ->
            {
                for (final TopicImpl<?> topic : topics)
                {
                    topic.onTopicDiscovered(record);
                }
            }
            default ->
            {
            }
        }
        builtinSubscriber.onAnnounce(record);
    }

    private void matchLocalWriter(final EndpointRecord writerRecord)
    {
        for (final DataWriterImpl<?> writer : writers)
        {
            if (writer.guid() == writerRecord.guid())
            {
                for (final EndpointRecord record : discovered.values())
                {
                    if (record.isReader() && !isIgnored(record))
                    {
                        writer.onReaderDiscovered(record);
                    }
                }
            }
        }
    }

    private void matchLocalReader(final EndpointRecord readerRecord)
    {
        for (final DataReaderImpl<?> reader : readers)
        {
            if (reader.guid() == readerRecord.guid())
            {
                for (final EndpointRecord record : discovered.values())
                {
                    if (record.isWriter() && !isIgnored(record))
                    {
                        reader.onWriterDiscovered(record);
                    }
                }
            }
        }
    }

    private void handleRetract(final EndpointRecord record, final boolean participantFailed)
    {
        if (isClosed())
        {
            return;
        }
        if (record.isWriter())
        {
            for (final DataReaderImpl<?> reader : readers)
            {
                reader.onWriterGone(record.guid(), participantFailed);
            }
        }
        else if (record.isReader())
        {
            for (final DataWriterImpl<?> writer : writers)
            {
                writer.onReaderGone(record.guid());
            }
        }
        builtinSubscriber.onRetract(record);
        if (participantFailed)
        {
            LOG.warn("domain {}: participant {} failed; its entities are gone", domainId,
                String.format("%016x", record.participantGuid()));
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Services for contained entities

    public DomainBus bus()
    {
        return bus;
    }

    public long nextGuid()
    {
        final long index = entityCounter.incrementAndGet();
        if (index >= 0xFFFFF)
        {
            throw DdsExceptions.outOfResources(env, describe() + ": more than 2^20 entities created");
        }
        return bus.participantGuid() | index;
    }

    /** The record of a discovered entity (local ones included), or null. */
    public EndpointRecord discovered(final long guid)
    {
        final EndpointRecord record = discovered.get(guid);
        return record == null || isIgnored(record) ? null : record;
    }

    public void registerWriter(final DataWriterImpl<?> writer)
    {
        writers.add(writer);
    }

    public void unregisterWriter(final DataWriterImpl<?> writer)
    {
        writers.remove(writer);
    }

    public void registerReader(final DataReaderImpl<?> reader)
    {
        readers.add(reader);
    }

    public void unregisterReader(final DataReaderImpl<?> reader)
    {
        readers.remove(reader);
    }

    /** Runs a task on the discovery thread (listeners of matching statuses run there). */
    public void onDiscoveryThread(final Runnable task)
    {
        submit(task);
    }

    public List<DataReaderImpl<?>> localReaders()
    {
        return readers;
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
        publishers.add(publisher);
        if (isEnabled() && this.qos.getEntityFactory().isAutoEnableCreatedEntities())
        {
            publisher.enable();
        }
        return publisher;
    }

    public void removed(final PublisherImpl publisher)
    {
        publishers.remove(publisher);
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
        subscribers.add(subscriber);
        if (isEnabled() && this.qos.getEntityFactory().isAutoEnableCreatedEntities())
        {
            subscriber.enable();
        }
        return subscriber;
    }

    public void removed(final SubscriberImpl subscriber)
    {
        subscribers.remove(subscriber);
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
        for (final TopicImpl<?> existing : topics)
        {
            if (existing.getName().equals(topicName) && !existing.getTypeName().equals(support.getTypeName()))
            {
                throw DdsExceptions.precondition(env, describe() + ": createTopic('" + topicName + "') with type '" +
                    support.getTypeName() + "', but the topic exists here with type '" + existing.getTypeName() + "'");
            }
        }
        for (final EndpointRecord record : discovered.values())
        {
            if (record.kind() == EndpointRecord.TOPIC && record.topicName().equals(topicName) &&
                !record.typeName().equals(support.getTypeName()))
            {
                throw DdsExceptions.precondition(env, describe() + ": createTopic('" + topicName + "') with type '" +
                    support.getTypeName() + "', but the domain already has it with type '" + record.typeName() + "'");
            }
        }
        final TopicImpl<TYPE> topic = new TopicImpl<>(env, this, nextGuid(), topicName, support, support,
            qos == null ? defaultTopicQos : qos, listener, statuses);
        topics.add(topic);
        if (isEnabled())
        {
            topic.enable();
        }
        bus.announce(topic.record());
        return topic;
    }

    public void removed(final TopicImpl<?> topic)
    {
        topics.remove(topic);
        bus.retract(topic.guid());
    }

    @Override
    public Topic<DynamicType> createTopic(final String topicName, final DynamicType type)
    {
        throw dynamicTypes(topicName);
    }

    @Override
    public Topic<DynamicType> createTopic(final String topicName, final DynamicType type, final TopicQos qos,
        final TopicListener<DynamicType> listener, final Collection<Class<? extends Status>> statuses)
    {
        throw dynamicTypes(topicName);
    }

    @Override
    public Topic<DynamicType> createTopic(final String topicName, final DynamicType type,
        final TypeSupport<DynamicType> typeSupport)
    {
        throw dynamicTypes(topicName);
    }

    @Override
    public Topic<DynamicType> createTopic(final String topicName, final DynamicType type,
        final TypeSupport<DynamicType> typeSupport, final TopicQos qos, final TopicListener<DynamicType> listener,
        final Collection<Class<? extends Status>> statuses)
    {
        throw dynamicTypes(topicName);
    }

    private UnsupportedOperationException dynamicTypes(final String topicName)
    {
        return new UnsupportedOperationException(describe() + ": createTopic('" + topicName + "') with an XTypes " +
            "DynamicType is not implemented yet; use an IDL-generated type");
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
        final long timeoutNs = unit.toNanos(timeout);
        final long deadlineNs = timeoutNs >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : System.nanoTime() + timeoutNs;
        discoveryLock.lock();
        try
        {
            while (true)
            {
                for (final TopicImpl<?> local : topics)
                {
                    if (local.getName().equals(topicName))
                    {
                        return (Topic<TYPE>)proxyOf(local.getName(), local.typeSupport(), local.getQos());
                    }
                }
                for (final EndpointRecord record : discovered.values())
                {
                    if (record.kind() == EndpointRecord.TOPIC && record.topicName().equals(topicName))
                    {
                        return (Topic<TYPE>)proxyOf(topicName, remoteTypeSupport(record), defaultTopicQos);
                    }
                }
                final long remainingNs = deadlineNs - System.nanoTime();
                if (remainingNs <= 0)
                {
                    throw new TimeoutException(describe() + ": findTopic('" + topicName + "') found no such topic " +
                        "in the domain within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms");
                }
                discoveryChanged.awaitNanos(Math.min(remainingNs, 100_000_000L));
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new TimeoutException(describe() + ": findTopic('" + topicName + "') interrupted");
        }
        finally
        {
            discoveryLock.unlock();
        }
    }

    private TypeSupportImpl<?> remoteTypeSupport(final EndpointRecord record)
    {
        try
        {
            final Class<?> type = Class.forName(record.typeClassName(), true,
                Thread.currentThread().getContextClassLoader());
            final TypeSupportImpl<?> support = TypeSupportImpl.forClass(env, type, record.typeName());
            return support;
        }
        catch (final ClassNotFoundException ex)
        {
            throw DdsExceptions.precondition(env, describe() + ": findTopic('" + record.topicName() + "'): its type '" +
                record.typeName() + "' (Java class " + record.typeClassName() + ") is not on this class path");
        }
    }

    private <T> TopicImpl<T> proxyOf(final String topicName, final TypeSupportImpl<T> support, final TopicQos qos)
    {
        final TopicImpl<T> topic = new TopicImpl<>(env, this, nextGuid(), topicName, support, support, qos, null,
            null);
        topics.add(topic);
        topic.enable();
        bus.announce(topic.record());
        return topic;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <TYPE> TopicDescription<TYPE> lookupTopicDescription(final String topicName)
    {
        checkOpen();
        for (final TopicImpl<?> topic : topics)
        {
            if (topic.getName().equals(topicName))
            {
                return (TopicDescription<TYPE>)topic;
            }
        }
        return builtinSubscriber.lookupTopic(topicName);
    }

    @Override
    public <TYPE> ContentFilteredTopic<TYPE> createContentFilteredTopic(final String name,
        final Topic<? extends TYPE> relatedTopic, final String filterExpression, final List<String> parameters)
    {
        throw new UnsupportedOperationException(describe() + ": ContentFilteredTopic '" + name + "' (DDS-SQL " +
            "filters) is not implemented in Sirocco yet");
    }

    @Override
    public <TYPE> MultiTopic<TYPE> createMultiTopic(final String name, final Class<TYPE> type,
        final String subscriptionExpression, final List<String> parameters)
    {
        throw new UnsupportedOperationException(describe() + ": MultiTopic '" + name + "' is not implemented in " +
            "Sirocco yet");
    }

    @Override
    public <TYPE> MultiTopic<TYPE> createMultiTopic(final String name, final TypeSupport<TYPE> type,
        final String subscriptionExpression, final List<String> parameters)
    {
        throw new UnsupportedOperationException(describe() + ": MultiTopic '" + name + "' is not implemented in " +
            "Sirocco yet");
    }

    // ------------------------------------------------------------------------------------------------------------
    // Life cycle

    @Override
    public void closeContainedEntities()
    {
        checkOpen();
        for (final PublisherImpl publisher : List.copyOf(publishers))
        {
            publisher.close();
        }
        for (final SubscriberImpl subscriber : List.copyOf(subscribers))
        {
            subscriber.close();
        }
        for (final TopicImpl<?> topic : List.copyOf(topics))
        {
            topic.close();
        }
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
        bus.close();
        discoveryThread.shutdown();
        try
        {
            discoveryThread.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        factory.removed(this);
    }

    @Override
    public void ignoreParticipant(final InstanceHandle handle)
    {
        checkOpen();
        ignored.add(HandleImpl.valueOf(handle));
    }

    @Override
    public void ignoreTopic(final InstanceHandle handle)
    {
        checkOpen();
        ignored.add(HandleImpl.valueOf(handle));
    }

    @Override
    public void ignorePublication(final InstanceHandle handle)
    {
        checkOpen();
        ignored.add(HandleImpl.valueOf(handle));
    }

    @Override
    public void ignoreSubscription(final InstanceHandle handle)
    {
        checkOpen();
        ignored.add(HandleImpl.valueOf(handle));
    }

    @Override
    public int getDomainId()
    {
        return domainId;
    }

    /** Liveliness is AUTOMATIC only (group membership); asserting it has nothing to add. */
    @Override
    public void assertLiveliness()
    {
        checkOpen();
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
        return handlesOf(EndpointRecord.PARTICIPANT);
    }

    @Override
    public ParticipantBuiltinTopicData getDiscoveredParticipantData(final InstanceHandle handle)
    {
        return new ParticipantDataImpl(env, recordOf(handle, EndpointRecord.PARTICIPANT));
    }

    @Override
    public Set<InstanceHandle> getDiscoveredTopics()
    {
        return handlesOf(EndpointRecord.TOPIC);
    }

    @Override
    public TopicBuiltinTopicData getDiscoveredTopicData(final InstanceHandle handle)
    {
        return new TopicDataImpl(env, recordOf(handle, EndpointRecord.TOPIC));
    }

    private Set<InstanceHandle> handlesOf(final int kind)
    {
        checkOpen();
        final Set<InstanceHandle> handles = new HashSet<>();
        for (final EndpointRecord record : discovered.values())
        {
            if (record.kind() == kind && !isIgnored(record))
            {
                handles.add(new HandleImpl(env, record.guid()));
            }
        }
        return handles;
    }

    private EndpointRecord recordOf(final InstanceHandle handle, final int kind)
    {
        checkOpen();
        final EndpointRecord record = discovered.get(HandleImpl.valueOf(handle));
        if (record == null || record.kind() != kind)
        {
            throw DdsExceptions.precondition(env, describe() + ": no discovered entity with " + handle);
        }
        return record;
    }

    @Override
    public boolean containsEntity(final InstanceHandle handle)
    {
        checkOpen();
        final long value = HandleImpl.valueOf(handle);
        final List<EntityBase<?, ?>> all = new ArrayList<>();
        all.addAll(publishers);
        all.addAll(subscribers);
        all.addAll(topics);
        all.addAll(writers);
        all.addAll(readers);
        for (final EntityBase<?, ?> entity : all)
        {
            if (entity.guid() == value)
            {
                return true;
            }
        }
        return false;
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
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StatusCondition<DomainParticipant> getStatusCondition()
    {
        return (StatusCondition)super.getStatusCondition();
    }

    @Override
    public void setQos(final DomainParticipantQos qos)
    {
        checkOpen();
        this.qos = qos;
    }
}
