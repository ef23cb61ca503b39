package io.sirocco.pubsub.domain;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sirocco.pubsub.core.EntityBase;
import io.sirocco.pubsub.pub.DataWriterImpl;
import io.sirocco.pubsub.pub.PublisherImpl;
import io.sirocco.pubsub.sub.DataReaderImpl;
import io.sirocco.pubsub.sub.SubscriberImpl;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.Entity;

/**
 * The entities one participant contains: its publishers, subscribers and topics (what it created), and its enabled
 * writers and readers (what discovery matches against remote records).
 *
 * <p>Threads: any. Every list is copy-on-write: the application thread adds and removes (rarely), while the
 * discovery thread iterates the writers, readers and topics for each announcement without a lock.
 */
final class EntityRegistry
{
    private final CopyOnWriteArrayList<PublisherImpl> publishers = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<SubscriberImpl> subscribers = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<TopicImpl<?>> topics = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<DataWriterImpl<?>> writers = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<DataReaderImpl<?>> readers = new CopyOnWriteArrayList<>();

    void add(final PublisherImpl publisher)
    {
        publishers.add(publisher);
    }

    void add(final SubscriberImpl subscriber)
    {
        subscribers.add(subscriber);
    }

    void add(final TopicImpl<?> topic)
    {
        topics.add(topic);
    }

    /** An enabled writer, matched from now on; a writer's own class, as only it registers itself. */
    void addWriter(final EntityBase<?, ?> writer)
    {
        writers.add((DataWriterImpl<?>)writer);
    }

    void removeWriter(final EntityBase<?, ?> writer)
    {
        writers.remove(writer);
    }

    /** An enabled reader, matched from now on; a reader's own class, as only it registers itself. */
    void addReader(final EntityBase<?, ?> reader)
    {
        readers.add((DataReaderImpl<?>)reader);
    }

    void removeReader(final EntityBase<?, ?> reader)
    {
        readers.remove(reader);
    }

    /**
     * A closed publisher, subscriber or topic leaves.
     *
     * @return the topic, if the child was one (its record is then to be retracted), else null.
     */
    TopicImpl<?> removed(final Entity<?, ?> child)
    {
        publishers.remove(child);
        subscribers.remove(child);
        return topics.remove(child) ? (TopicImpl<?>)child : null;
    }

    List<TopicImpl<?>> topics()
    {
        return topics;
    }

    /**
     * {@code DomainParticipant.assertLiveliness}: each MANUAL_BY_PARTICIPANT writer is asserted (AUTOMATIC ones are
     * alive while their participant is a group member).
     */
    void assertLiveliness(final long nowNs)
    {
        for (final DataWriterImpl<?> writer : writers)
        {
            writer.participantAsserted(nowNs);
        }
    }

    List<DataWriterImpl<?>> writers()
    {
        return writers;
    }

    List<DataReaderImpl<?>> readers()
    {
        return readers;
    }

    /** The local topic of that name, or null. */
    TopicImpl<?> topic(final String name)
    {
        for (final TopicImpl<?> topic : topics)
        {
            if (topic.getName().equals(name))
            {
                return topic;
            }
        }
        return null;
    }

    /** True when a contained publisher, subscriber, topic, writer or reader has this GUID. */
    boolean contains(final long guid)
    {
        for (final List<? extends EntityBase<?, ?>> list : List.of(publishers, subscribers, topics, writers, readers))
        {
            for (final EntityBase<?, ?> entity : list)
            {
                if (entity.guid() == guid)
                {
                    return true;
                }
            }
        }
        return false;
    }

    /** Closes every publisher, subscriber and topic (a publisher or subscriber closes its writers or readers). */
    void closeAll()
    {
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
}
