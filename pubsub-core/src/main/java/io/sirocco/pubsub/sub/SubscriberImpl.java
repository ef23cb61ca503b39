package io.sirocco.pubsub.sub;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.EntityBase;
import io.sirocco.pubsub.domain.ParticipantImpl;
import io.sirocco.pubsub.qos.QosChecks;
import io.sirocco.pubsub.qos.Qos.DataReaderQosImpl;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.status.Status;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderListener;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.sub.SubscriberListener;
import org.omg.dds.sub.SubscriberQos;
import org.omg.dds.topic.TopicDescription;
import org.omg.dds.topic.TopicQos;

/** A Subscriber: groups DataReaders under one partition list and listener. */
public class SubscriberImpl extends EntityBase<SubscriberListener, SubscriberQos> implements Subscriber
{
    private final ParticipantImpl participant;
    protected final CopyOnWriteArrayList<DataReaderImpl<?>> readers = new CopyOnWriteArrayList<>();
    private volatile DataReaderQos defaultReaderQos;

    public SubscriberImpl(final SiroccoServiceEnvironment env, final ParticipantImpl participant, final long guid,
        final SubscriberQos qos, final SubscriberListener listener,
        final Collection<Class<? extends Status>> statuses)
    {
        super(env, guid, qos, listener, statuses);
        QosChecks.presentation(String.format("Subscriber %016x", guid), qos.getPresentation());
        this.participant = participant;
        this.defaultReaderQos = DataReaderQosImpl.defaults(env);
    }

    public ParticipantImpl participant()
    {
        return participant;
    }

    @Override
    public String describe()
    {
        return String.format("Subscriber %016x", guid);
    }

    @Override
    public <TYPE> DataReader<TYPE> createDataReader(final TopicDescription<TYPE> topic)
    {
        return createDataReader(topic, defaultReaderQos, null, null);
    }

    @Override
    public <TYPE> DataReader<TYPE> createDataReader(final TopicDescription<TYPE> topic, final DataReaderQos qos)
    {
        return createDataReader(topic, qos, null, null);
    }

    @Override
    public <TYPE> DataReader<TYPE> createDataReader(final TopicDescription<TYPE> topic, final DataReaderQos qos,
        final DataReaderListener<TYPE> listener, final Collection<Class<? extends Status>> statuses)
    {
        checkOpen();
        if (!(topic instanceof TopicImpl<TYPE> topicImpl) || topicImpl.getParent() != participant)
        {
            throw new IllegalArgumentException(describe() + ": createDataReader: the topic must be a Topic created " +
                "by this subscriber's participant (ContentFilteredTopic and MultiTopic are not implemented yet)");
        }
        topicImpl.checkOpen();
        final DataReaderImpl<TYPE> reader = new DataReaderImpl<>(env, this, participant.nextGuid(), topicImpl,
            qos == null ? defaultReaderQos : qos, listener, statuses, false);
        readers.add(reader);
        if (isEnabled() && this.qos.getEntityFactory().isAutoEnableCreatedEntities())
        {
            reader.enable();
        }
        return reader;
    }

    void removed(final DataReaderImpl<?> reader)
    {
        readers.remove(reader);
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
    public <TYPE> DataReader<TYPE> lookupDataReader(final String topicName)
    {
        checkOpen();
        for (final DataReaderImpl<?> reader : readers)
        {
            if (reader.getTopicDescription().getName().equals(topicName))
            {
                return (DataReader<TYPE>)reader;
            }
        }
        return null;
    }

    @Override
    public <TYPE> DataReader<TYPE> lookupDataReader(final TopicDescription<TYPE> topic)
    {
        return lookupDataReader(topic.getName());
    }

    @Override
    public void closeContainedEntities()
    {
        for (final DataReaderImpl<?> reader : List.copyOf(readers))
        {
            reader.close();
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
    public Collection<DataReader<?>> getDataReaders(final Collection<DataReader<?>> out)
    {
        return getDataReaders(out, DataStateImpl.any(env));
    }

    @Override
    public Collection<DataReader<?>> getDataReaders(final Collection<DataReader<?>> out,
        final Subscriber.DataState state)
    {
        checkOpen();
        final Collection<DataReader<?>> result = out == null ? new ArrayList<>() : out;
        result.clear();
        final DataStateImpl mask = DataStateImpl.of(env, state);
        for (final DataReaderImpl<?> reader : readers)
        {
            if (reader.hasSamples(mask))
            {
                result.add(reader);
            }
        }
        return result;
    }

    @Override
    public void notifyDataReaders()
    {
        checkOpen();
        for (final DataReaderImpl<?> reader : readers)
        {
            reader.notifyDataAvailable();
        }
    }

    /** Presentation is INSTANCE scope without ordered access (enforced), so access groups need no marking. */
    @Override
    public void beginAccess()
    {
        checkOpen();
    }

    @Override
    public void endAccess()
    {
        checkOpen();
    }

    @Override
    public DataReaderQos getDefaultDataReaderQos()
    {
        return defaultReaderQos;
    }

    @Override
    public void setDefaultDataReaderQos(final DataReaderQos qos)
    {
        defaultReaderQos = qos == null ? DataReaderQosImpl.defaults(env) : qos;
    }

    @Override
    public DataReaderQos copyFromTopicQos(final DataReaderQos readerQos, final TopicQos topicQos)
    {
        DataReaderQosImpl result = (DataReaderQosImpl)readerQos;
        for (final QosPolicy.ForTopic policy : topicQos.values())
        {
            if (policy instanceof QosPolicy.ForDataReader forReader)
            {
                result = result.with(forReader);
            }
        }
        return result;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StatusCondition<Subscriber> getStatusCondition()
    {
        return (StatusCondition)super.getStatusCondition();
    }

    @Override
    public DomainParticipant getParent()
    {
        return participant;
    }

    @Override
    public Subscriber.DataState createDataState()
    {
        return new DataStateImpl(env, 0, 0, 0);
    }

    @Override
    public void setQos(final SubscriberQos qos)
    {
        checkOpen();
        QosChecks.presentation(describe(), qos.getPresentation());
        this.qos = qos;
    }
}
