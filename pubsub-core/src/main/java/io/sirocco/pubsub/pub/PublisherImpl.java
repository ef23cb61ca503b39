package io.sirocco.pubsub.pub;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.CoherentSetMark;
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
    /** Serializes begin/endCoherentChanges (cold path: once per set, never per sample). */
    private final ReentrantLock coherentLock = new ReentrantLock();
    /** Whether PRESENTATION makes coherent sets group messages: coherent_access at TOPIC or GROUP scope. */
    private final boolean groupsCoherentSets;
    /** The last coherent set opened (under {@code coherentLock}). */
    private long lastCoherentSet;
    /** The open set, 0 when none: written under {@code coherentLock}, read by writers on every send. */
    private volatile long openCoherentSet;
    private volatile DataWriterQos defaultWriterQos;

    public PublisherImpl(final SiroccoServiceEnvironment env, final ParticipantView participant, final long guid,
        final PublisherQos qos, final PublisherListener listener, final Collection<Class<? extends Status>> statuses)
    {
        super(env, participant, guid, "Publisher", qos, listener, statuses);
        this.defaultWriterQos = DataWriterQosImpl.defaults(env);
        final Presentation presentation = qos.getPresentation();
        this.groupsCoherentSets = presentation.isCoherentAccess() &&
            presentation.getAccessScope() != Presentation.AccessScopeKind.INSTANCE;
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
     * Opens a coherent set (sets nest: only the outermost begin and end count). With coherent_access at TOPIC or GROUP
     * scope, every message the publisher's writers send until the matching {@link #endCoherentChanges} is marked as
     * part of the set, and a reader that requests coherent access makes none of them visible before the whole set
     * arrived. At INSTANCE scope the spec makes instances independent, so a set changes nothing in delivery.
     */
    @Override
    public void beginCoherentChanges()
    {
        checkEnabled();
        coherentLock.lock();
        try
        {
            if (coherentSets.begin() == 1 && groupsCoherentSets)
            {
                openCoherentSet = ++lastCoherentSet;
            }
        }
        finally
        {
            coherentLock.unlock();
        }
    }

    /**
     * Closes the innermost coherent set; PreconditionNotMetException if none is open. Closing the outermost sends the
     * set's end mark through each writer that sent something in it (see {@link #sendCoherentEnds}).
     */
    @Override
    public void endCoherentChanges()
    {
        checkEnabled();
        coherentLock.lock();
        try
        {
            final String misuse = describe() + ": endCoherentChanges without beginCoherentChanges";
            if (coherentSets.end(env, misuse) == 0 && openCoherentSet != 0)
            {
                final long set = openCoherentSet;
                openCoherentSet = 0; // writes from now on are outside the set
                sendCoherentEnds(set);
            }
        }
        finally
        {
            coherentLock.unlock();
        }
    }

    /**
     * Asks every writer how many messages it sent in {@code set}, then has each that sent some send the set's end
     * mark. At GROUP scope each mark lists every such writer with its count, so that a subscriber knows which parts
     * (one per topic it reads) make the set; at TOPIC scope a writer's mark lists only itself.
     */
    private void sendCoherentEnds(final long set)
    {
        final List<DataWriterImpl<?>> parts = new ArrayList<>();
        final List<Integer> counts = new ArrayList<>();
        for (final DataWriterImpl<?> writer : children)
        {
            final int count = writer.coherentCount(set);
            if (count > 0)
            {
                parts.add(writer);
                counts.add(count);
            }
        }
        final boolean group = getQos().getPresentation().getAccessScope() == Presentation.AccessScopeKind.GROUP;
        final long[] all = new long[parts.size()];
        final int[] allCounts = new int[parts.size()];
        for (int i = 0; i < all.length; i++)
        {
            all[i] = parts.get(i).guid();
            allCounts[i] = counts.get(i);
        }
        for (int i = 0; i < all.length; i++)
        {
            final CoherentSetMark mark = group ? new CoherentSetMark(guid, set, all, allCounts)
                : new CoherentSetMark(guid, set, new long[] {all[i]}, new int[] {allCounts[i]});
            try
            {
                parts.get(i).endCoherentSet(mark);
            }
            catch (final TimeoutException ex)
            {
                throw new IllegalStateException(describe() + ": endCoherentChanges: the end of coherent set " + set +
                    " could not be sent by " + parts.get(i).describe() + " (readers discard the set): " +
                    ex.getMessage(), ex);
            }
        }
    }

    @Override
    public long openCoherentSet()
    {
        return openCoherentSet;
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
