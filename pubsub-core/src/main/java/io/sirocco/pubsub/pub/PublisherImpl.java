package io.sirocco.pubsub.pub;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.EntityBase;
import io.sirocco.pubsub.domain.ParticipantImpl;
import io.sirocco.pubsub.qos.QosChecks;
import io.sirocco.pubsub.qos.Qos.DataWriterQosImpl;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.status.Status;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.DataWriterListener;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.pub.Publisher;
import org.omg.dds.pub.PublisherListener;
import org.omg.dds.pub.PublisherQos;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicQos;

/** A Publisher: groups DataWriters under one partition list and listener. */
public final class PublisherImpl extends EntityBase<PublisherListener, PublisherQos> implements Publisher
{
    private final ParticipantImpl participant;
    private final CopyOnWriteArrayList<DataWriterImpl<?>> writers = new CopyOnWriteArrayList<>();
    private volatile DataWriterQos defaultWriterQos;

    public PublisherImpl(final SiroccoServiceEnvironment env, final ParticipantImpl participant, final long guid,
        final PublisherQos qos, final PublisherListener listener, final Collection<Class<? extends Status>> statuses)
    {
        super(env, guid, qos, listener, statuses);
        QosChecks.presentation(describeFor(guid), qos.getPresentation());
        this.participant = participant;
        this.defaultWriterQos = DataWriterQosImpl.defaults(env);
    }

    private static String describeFor(final long guid)
    {
        return String.format("Publisher %016x", guid);
    }

    public ParticipantImpl participant()
    {
        return participant;
    }

    @Override
    public String describe()
    {
        return describeFor(guid);
    }

    @Override
    public <TYPE> DataWriter<TYPE> createDataWriter(final Topic<TYPE> topic)
    {
        return createDataWriter(topic, defaultWriterQos, null, null);
    }

    @Override
    public <TYPE> DataWriter<TYPE> createDataWriter(final Topic<TYPE> topic, final DataWriterQos qos)
    {
        return createDataWriter(topic, qos, null, null);
    }

    @Override
    public <TYPE> DataWriter<TYPE> createDataWriter(final Topic<TYPE> topic, final DataWriterQos qos,
        final DataWriterListener<TYPE> listener, final Collection<Class<? extends Status>> statuses)
    {
        checkOpen();
        if (!(topic instanceof TopicImpl<TYPE> topicImpl) || topicImpl.getParent() != participant)
        {
            throw new IllegalArgumentException(describe() + ": createDataWriter: the topic must be created by " +
                "this publisher's participant");
        }
        topicImpl.checkOpen();
        final DataWriterImpl<TYPE> writer = new DataWriterImpl<>(env, this, participant.nextGuid(), topicImpl,
            qos == null ? defaultWriterQos : qos, listener, statuses);
        writers.add(writer);
        if (isEnabled() && this.qos.getEntityFactory().isAutoEnableCreatedEntities())
        {
            writer.enable();
        }
        return writer;
    }

    void removed(final DataWriterImpl<?> writer)
    {
        writers.remove(writer);
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

    @Override
    @SuppressWarnings("unchecked")
    public <TYPE> DataWriter<TYPE> lookupDataWriter(final String topicName)
    {
        checkOpen();
        for (final DataWriterImpl<?> writer : writers)
        {
            if (writer.getTopic().getName().equals(topicName))
            {
                return (DataWriter<TYPE>)writer;
            }
        }
        return null;
    }

    @Override
    public <TYPE> DataWriter<TYPE> lookupDataWriter(final Topic<TYPE> topic)
    {
        return lookupDataWriter(topic.getName());
    }

    @Override
    public void closeContainedEntities()
    {
        for (final DataWriterImpl<?> writer : List.copyOf(writers))
        {
            writer.close();
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
        participant.removed(this);
    }

    @Override
    public void suspendPublications()
    {
        throw new UnsupportedOperationException(describe() + ": suspendPublications (batched coherent publication) " +
            "is not implemented yet");
    }

    @Override
    public void resumePublications()
    {
        throw new UnsupportedOperationException(describe() + ": resumePublications is not implemented yet");
    }

    @Override
    public void beginCoherentChanges()
    {
        throw new UnsupportedOperationException(describe() + ": coherent changes (Presentation coherent_access) are " +
            "not implemented yet");
    }

    @Override
    public void endCoherentChanges()
    {
        throw new UnsupportedOperationException(describe() + ": coherent changes (Presentation coherent_access) are " +
            "not implemented yet");
    }

    @Override
    public void waitForAcknowledgments(final Duration maxWait) throws TimeoutException
    {
        waitForAcknowledgments(DurationImpl.toNanos(maxWait), TimeUnit.NANOSECONDS);
    }

    @Override
    public void waitForAcknowledgments(final long maxWait, final TimeUnit unit) throws TimeoutException
    {
        final long deadlineNs = System.nanoTime() + Math.min(unit.toNanos(maxWait), Long.MAX_VALUE / 4);
        for (final DataWriterImpl<?> writer : writers)
        {
            writer.waitForAcknowledgments(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public DataWriterQos getDefaultDataWriterQos()
    {
        return defaultWriterQos;
    }

    @Override
    public void setDefaultDataWriterQos(final DataWriterQos qos)
    {
        defaultWriterQos = qos == null ? DataWriterQosImpl.defaults(env) : qos;
    }

    @Override
    public DataWriterQos copyFromTopicQos(final DataWriterQos writerQos, final TopicQos topicQos)
    {
        DataWriterQosImpl result = (DataWriterQosImpl)writerQos;
        for (final QosPolicy.ForTopic policy : topicQos.values())
        {
            if (policy instanceof QosPolicy.ForDataWriter forWriter)
            {
                result = result.with(forWriter);
            }
        }
        return result;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StatusCondition<Publisher> getStatusCondition()
    {
        return (StatusCondition)super.getStatusCondition();
    }

    @Override
    public DomainParticipant getParent()
    {
        return participant;
    }

    @Override
    public void setQos(final PublisherQos qos)
    {
        checkOpen();
        QosChecks.presentation(describe(), qos.getPresentation());
        this.qos = qos;
    }
}
