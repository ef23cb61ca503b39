package io.sirocco.pubsub.sub;

import java.util.ArrayList;
import java.util.Collection;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.ParticipantView;
import io.sirocco.pubsub.entity.GroupEntity;
import io.sirocco.pubsub.entity.NestedBrackets;
import io.sirocco.pubsub.qos.Qos.DataReaderQosImpl;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.filtered.ContentFilteredTopicImpl;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.policy.EntityFactory;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.status.Status;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderListener;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.sub.SubscriberListener;
import org.omg.dds.sub.SubscriberQos;
import org.omg.dds.topic.TopicDescription;
import org.omg.dds.topic.TopicQos;

/** A Subscriber: groups DataReaders under one partition list and listener. */
public class SubscriberImpl extends GroupEntity<SubscriberListener, SubscriberQos, DataReaderImpl<?>>
    implements SubscriberView
{
    private final NestedBrackets accesses = new NestedBrackets();
    private final GroupCoherence coherentSets = new GroupCoherence();
    private volatile DataReaderQos defaultReaderQos;

    public SubscriberImpl(final SiroccoServiceEnvironment env, final ParticipantView participant, final long guid,
        final SubscriberQos qos, final SubscriberListener listener,
        final Collection<Class<? extends Status>> statuses)
    {
        super(env, participant, guid, "Subscriber", qos, listener, statuses);
        this.defaultReaderQos = DataReaderQosImpl.defaults(env);
    }

    @Override
    protected Presentation presentationOf(final SubscriberQos qos)
    {
        return qos.getPresentation();
    }

    @Override
    protected EntityFactory entityFactoryOf(final SubscriberQos qos)
    {
        return qos.getEntityFactory();
    }

    @Override
    protected void groupQosChanged(final DataReaderImpl<?> child)
    {
        child.subscriberQosChanged();
    }

    @Override
    protected String topicNameOf(final DataReaderImpl<?> reader)
    {
        return reader.getTopicDescription().getName();
    }

    @Override
    protected void removeFromParticipant()
    {
        participant.removed(this);
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
        final ContentFilteredTopicImpl<TYPE> filtered = topic instanceof ContentFilteredTopicImpl<TYPE> f ? f : null;
        final TopicImpl<TYPE> topicImpl = ownTopic(filtered != null ? filtered.related() : topic, "createDataReader: " +
            "the topic must be a Topic or ContentFilteredTopic created by this subscriber's participant (MultiTopic " +
            "is not implemented yet)");
        final DataReaderImpl<TYPE> reader = new DataReaderImpl<>(env, this, participant.nextGuid(), topicImpl,
            qos == null ? defaultReaderQos : qos, listener, statuses, false);
        if (filtered != null)
        {
            reader.filterBy(filtered);
        }
        return adopt(reader);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <TYPE> DataReader<TYPE> lookupDataReader(final String topicName)
    {
        return (DataReader<TYPE>)lookup(topicName);
    }

    @Override
    public <TYPE> DataReader<TYPE> lookupDataReader(final TopicDescription<TYPE> topic)
    {
        return lookupDataReader(topic.getName());
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
        for (final DataReaderImpl<?> reader : children)
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
        for (final DataReaderImpl<?> reader : children)
        {
            reader.notifyDataAvailable();
        }
    }

    @Override
    public GroupCoherence coherentSets()
    {
        return coherentSets;
    }

    /**
     * Opens an access (accesses nest). With coherent_access at GROUP scope, no coherent set is made visible in this
     * subscriber's readers from now until the matching {@link #endAccess}, so that reads of several readers inside
     * the access see each set in all of them or in none. At other scopes an access changes nothing in what read and
     * take return (INSTANCE: each instance is in one order for every reader; TOPIC: a set reaches a reader at once).
     */
    @Override
    public void beginAccess()
    {
        checkEnabled();
        accesses.begin();
        coherentSets.beginAccess();
    }

    /**
     * Closes the innermost access; PreconditionNotMetException if none is open. The sets completed during the access
     * are made visible now, on this thread (whose listeners then run here).
     */
    @Override
    public void endAccess()
    {
        checkEnabled();
        accesses.end(env, describe() + ": endAccess without beginAccess");
        coherentSets.endAccess();
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
        return ((DataReaderQosImpl)readerQos).withApplicable(topicQos.values());
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StatusCondition<Subscriber> getStatusCondition()
    {
        return (StatusCondition)super.getStatusCondition();
    }

    @Override
    public Subscriber.DataState createDataState()
    {
        return new DataStateImpl(env, 0, 0, 0);
    }
}
