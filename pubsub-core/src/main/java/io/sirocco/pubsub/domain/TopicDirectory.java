package io.sirocco.pubsub.domain;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.ParticipantView;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.TypeSupportImpl;
import org.omg.dds.core.status.Status;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicListener;
import org.omg.dds.topic.TopicQos;

/**
 * A participant's topics: creating one (name and type checked against this participant's topics), finding
 * one by name in the domain (waiting for discovery), and announcing each on the bus. The topics themselves are kept
 * in the {@link EntityRegistry}; the domain's in the {@link ParticipantDiscovery} table.
 *
 * <p>Threads: application threads. It keeps no state of its own: the registry's list is copy-on-write, and findTopic
 * waits on the discovery's change condition.
 */
final class TopicDirectory
{
    private final SiroccoServiceEnvironment env;
    private final ParticipantView participant;
    private final EntityRegistry registry;
    private final ParticipantDiscovery discovery;
    private final String owner;

    /** {@code owner} names the participant in messages. */
    TopicDirectory(final SiroccoServiceEnvironment env, final ParticipantView participant,
        final EntityRegistry registry, final ParticipantDiscovery discovery, final String owner)
    {
        this.env = env;
        this.participant = participant;
        this.registry = registry;
        this.discovery = discovery;
        this.owner = owner;
    }

    /** Creates, enables (when the participant is) and announces a topic, after checking its name and type. */
    <T> Topic<T> create(final String topicName, final TypeSupportImpl<T> support, final TopicQos qos,
        final TopicListener<T> listener, final Collection<Class<? extends Status>> statuses)
    {
        checkTypeConsistent(topicName, support.getTypeName());
        final TopicImpl<T> topic = new TopicImpl<>(env, participant, participant.nextGuid(), topicName, support,
            support, qos, listener, statuses);
        registry.add(topic);
        if (participant.isEnabled())
        {
            topic.enable();
        }
        participant.bus().announce(topic.record());
        for (final EndpointRecord record : discovery.records())
        {
            if (record.kind() == EndpointRecord.TOPIC && !discovery.isIgnored(record))
            {
                topic.onTopicDiscovered(record); // those announced before this topic existed
            }
        }
        return topic;
    }

    /**
     * Only this participant's own topics: one of another participant with another type is no error here (DDS 1.4
     * §2.2.2.2.1.5) but an inconsistent topic, reported on both sides by {@link TopicImpl#onTopicDiscovered}, so
     * that the outcome does not depend on whether discovery brought the other one before this call.
     */
    private void checkTypeConsistent(final String topicName, final String typeName)
    {
        for (final TopicImpl<?> existing : registry.topics())
        {
            if (existing.getName().equals(topicName) && !existing.getTypeName().equals(typeName))
            {
                throw DdsExceptions.precondition(env, owner + ": createTopic('" + topicName + "') with type '" +
                    typeName + "', but the topic exists here with type '" + existing.getTypeName() + "'");
            }
        }
    }

    /**
     * The named topic, local or discovered, as a new local Topic of this participant; waits up to the timeout for
     * discovery to bring it.
     */
    @SuppressWarnings("unchecked")
    <T> Topic<T> find(final String topicName, final long timeoutNs, final TopicQos defaultQos)
        throws TimeoutException
    {
        final long deadlineNs = timeoutNs >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : System.nanoTime() + timeoutNs;
        try
        {
            final Topic<?> found = discovery.await(() -> findNow(topicName, defaultQos), deadlineNs);
            if (found == null)
            {
                throw new TimeoutException(owner + ": findTopic('" + topicName + "') found no such topic " +
                    "in the domain within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms");
            }
            return (Topic<T>)found;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new TimeoutException(owner + ": findTopic('" + topicName + "') interrupted");
        }
    }

    private Topic<?> findNow(final String topicName, final TopicQos defaultQos)
    {
        final TopicImpl<?> local = registry.topic(topicName);
        if (local != null)
        {
            return proxyOf(local.getName(), local.typeSupport(), local.getQos());
        }
        for (final EndpointRecord record : discovery.records())
        {
            if (record.kind() == EndpointRecord.TOPIC && record.topicName().equals(topicName))
            {
                return proxyOf(topicName, remoteTypeSupport(record), defaultQos);
            }
        }
        return null;
    }

    private TypeSupportImpl<?> remoteTypeSupport(final EndpointRecord record)
    {
        try
        {
            final Class<?> type = Class.forName(record.typeClassName(), true,
                Thread.currentThread().getContextClassLoader());
            return TypeSupportImpl.forClass(env, type, record.typeName());
        }
        catch (final ClassNotFoundException ex)
        {
            throw DdsExceptions.precondition(env, owner + ": findTopic('" + record.topicName() + "'): its type '" +
                record.typeName() + "' (Java class " + record.typeClassName() + ") is not on this class path");
        }
    }

    private <T> TopicImpl<T> proxyOf(final String topicName, final TypeSupportImpl<T> support, final TopicQos qos)
    {
        final TopicImpl<T> topic = new TopicImpl<>(env, participant, participant.nextGuid(), topicName, support,
            support, qos, null, null);
        registry.add(topic);
        topic.enable();
        participant.bus().announce(topic.record());
        return topic;
    }
}
