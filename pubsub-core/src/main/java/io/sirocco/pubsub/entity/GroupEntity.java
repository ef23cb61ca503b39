package io.sirocco.pubsub.entity;

import java.util.Collection;
import java.util.EventListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.EntityBase;
import io.sirocco.pubsub.core.GroupView;
import io.sirocco.pubsub.core.ParticipantView;
import io.sirocco.pubsub.qos.QosChecks;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.Entity;
import org.omg.dds.core.EntityQos;
import org.omg.dds.core.policy.EntityFactory;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.status.Status;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.topic.TopicDescription;

/**
 * What a Publisher and a Subscriber share, and how their writers or readers see them ({@link GroupView}): their
 * participant (as a {@link ParticipantView}), the writers or readers they contain, the Presentation
 * check on their QoS, autoenable of what they create, lookup by topic name, and closing what they contain.
 *
 * <p>The application thread adds writers or readers; {@code close} on any thread removes them. The list is
 * copy-on-write, so lookups and listener dispatch iterate it without a lock.
 *
 * @param <L> the listener type.
 * @param <Q> the QoS type (PublisherQos or SubscriberQos).
 * @param <C> the contained entity (DataWriterImpl or DataReaderImpl).
 */
public abstract class GroupEntity<L extends EventListener, Q extends EntityQos<?>, C extends EntityBase<?, ?>>
    extends EntityBase<L, Q> implements GroupView<L>
{
    protected final ParticipantView participant;
    protected final CopyOnWriteArrayList<C> children = new CopyOnWriteArrayList<>();
    private final String name;

    /** {@code kind} ("Publisher", "Subscriber") names this entity in messages, with its GUID. */
    protected GroupEntity(final SiroccoServiceEnvironment env, final ParticipantView participant, final long guid,
        final String kind, final Q qos, final L listener, final Collection<Class<? extends Status>> statuses)
    {
        super(env, guid, qos, listener, statuses);
        this.name = String.format("%s %016x", kind, guid);
        QosChecks.presentation(name, presentationOf(qos));
        this.participant = participant;
    }

    /** The Presentation policy of a QoS of this kind; the constructor calls it, so it must use no instance state. */
    protected abstract Presentation presentationOf(Q qos);

    /** The EntityFactory policy of a QoS of this kind. */
    protected abstract EntityFactory entityFactoryOf(Q qos);

    /** The name of the topic a contained writer or reader uses. */
    protected abstract String topicNameOf(C child);

    /** After {@link #setQos}: a contained writer or reader is announced again with the new PARTITION and GROUP_DATA. */
    protected abstract void groupQosChanged(C child);

    /** Tells the participant that this entity is closed. */
    protected abstract void removeFromParticipant();

    @Override
    public ParticipantView participant()
    {
        return participant;
    }

    public DomainParticipant getParent()
    {
        return participant;
    }

    @Override
    public String describe()
    {
        return name;
    }

    /**
     * The topic as this participant's open TopicImpl, for creating a writer or reader on it.
     *
     * @throws IllegalArgumentException naming this entity and {@code misuse} when it is not one.
     */
    protected <T> TopicImpl<T> ownTopic(final TopicDescription<T> topic, final String misuse)
    {
        checkOpen();
        if (!(topic instanceof TopicImpl<T> topicImpl) || topicImpl.getParent() != participant)
        {
            throw new IllegalArgumentException(describe() + ": " + misuse);
        }
        topicImpl.checkOpen();
        return topicImpl;
    }

    /** Adds a new writer or reader, and enables it when this entity is enabled and its EntityFactory autoenables. */
    protected <E extends C> E adopt(final E child)
    {
        children.add(child);
        if (isEnabled() && entityFactoryOf(qos).isAutoEnableCreatedEntities())
        {
            child.enable();
        }
        return child;
    }

    @Override
    public void removed(final Entity<?, ?> child)
    {
        children.remove(child);
    }

    /** The first contained writer or reader on the named topic, or null. */
    protected C lookup(final String topicName)
    {
        checkOpen();
        for (final C child : children)
        {
            if (topicNameOf(child).equals(topicName))
            {
                return child;
            }
        }
        return null;
    }

    @Override
    public void enable()
    {
        if (!participant.isEnabled())
        {
            throw DdsExceptions.precondition(env, describe() + ": enable() before its participant is enabled");
        }
        super.enable();
    }

    public void closeContainedEntities()
    {
        for (final C child : List.copyOf(children))
        {
            child.close();
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
        markClosed();
        removeFromParticipant();
    }

    /**
     * PRESENTATION is not changeable (ImmutablePolicyException); PARTITION and GROUP_DATA are, and every contained
     * writer or reader is announced again, so that remote endpoints re-match it (a partition that no longer matches
     * unmatches) and see the new GROUP_DATA in the built-in topics.
     */
    @Override
    public void setQos(final Q qos)
    {
        checkOpen();
        QosChecks.presentationUnchanged(env, describe(), presentationOf(this.qos), presentationOf(qos));
        this.qos = qos;
        for (final C child : children)
        {
            groupQosChanged(child);
        }
    }
}
