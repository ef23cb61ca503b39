package io.sirocco.pubsub.pub;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.ParticipantView;
import io.sirocco.pubsub.durability.WriterIdentity;
import io.sirocco.pubsub.entity.GroupEntity;
import io.sirocco.pubsub.entity.NestedBrackets;
import io.sirocco.pubsub.qos.Qos.DataWriterQosImpl;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.policy.EntityFactory;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.status.Status;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.DataWriterListener;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.pub.Publisher;
import org.omg.dds.pub.PublisherListener;
import org.omg.dds.pub.PublisherQos;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicQos;

/** A Publisher: groups DataWriters under one partition list and listener. */
public final class PublisherImpl extends GroupEntity<PublisherListener, PublisherQos, DataWriterImpl<?>>
    implements PublisherView
{
    private final NestedBrackets coherentSets = new NestedBrackets();
    private volatile DataWriterQos defaultWriterQos;

    public PublisherImpl(final SiroccoServiceEnvironment env, final ParticipantView participant, final long guid,
        final PublisherQos qos, final PublisherListener listener, final Collection<Class<? extends Status>> statuses)
    {
        super(env, participant, guid, "Publisher", qos, listener, statuses);
        this.defaultWriterQos = DataWriterQosImpl.defaults(env);
    }

    @Override
    protected Presentation presentationOf(final PublisherQos qos)
    {
        return qos.getPresentation();
    }

    @Override
    protected EntityFactory entityFactoryOf(final PublisherQos qos)
    {
        return qos.getEntityFactory();
    }

    @Override
    protected void groupQosChanged(final DataWriterImpl<?> child)
    {
        child.publisherQosChanged();
    }

    @Override
    protected String topicNameOf(final DataWriterImpl<?> writer)
    {
        return writer.getTopic().getName();
    }

    @Override
    protected void removeFromParticipant()
    {
        participant.removed(this);
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
        final TopicImpl<TYPE> topicImpl = ownTopic(topic, "createDataWriter: the topic must be created by this " +
            "publisher's participant");
        final DataWriterQos effective = qos == null ? defaultWriterQos : qos;
        final long guid = WriterIdentity.guidFor(topicImpl.getName(), effective.getDurability().getKind())
            .orElseGet(participant::nextGuid);
        return adopt(new DataWriterImpl<>(env, this, guid, topicImpl, effective, listener, statuses));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <TYPE> DataWriter<TYPE> lookupDataWriter(final String topicName)
    {
        return (DataWriter<TYPE>)lookup(topicName);
    }

    @Override
    public <TYPE> DataWriter<TYPE> lookupDataWriter(final Topic<TYPE> topic)
    {
        return lookupDataWriter(topic.getName());
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

    /**
     * Opens a coherent set (sets nest). Only INSTANCE-scope Presentation is accepted with coherent_access (see
     * {@code QosChecks.presentation}), and at that scope the spec makes instances independent, so a set changes
     * nothing in delivery: its samples go out as they are written.
     */
    @Override
    public void beginCoherentChanges()
    {
        checkEnabled();
        coherentSets.begin();
    }

    /** Closes the innermost coherent set; PreconditionNotMetException if none is open. */
    @Override
    public void endCoherentChanges()
    {
        checkEnabled();
        coherentSets.end(env, describe() + ": endCoherentChanges without beginCoherentChanges");
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
        for (final DataWriterImpl<?> writer : children)
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
        return ((DataWriterQosImpl)writerQos).withApplicable(topicQos.values());
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StatusCondition<Publisher> getStatusCondition()
    {
        return (StatusCondition)super.getStatusCondition();
    }
}
