package io.sirocco.pubsub.sub;

import java.util.Collection;
import java.util.List;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.core.ParticipantView;
import io.sirocco.pubsub.qos.Qos.DataReaderQosImpl;
import io.sirocco.pubsub.qos.Qos.SubscriberQosImpl;
import io.sirocco.pubsub.qos.Qos.TopicQosImpl;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.builtin.BuiltinTypeSupport;
import io.sirocco.pubsub.topic.builtin.ParticipantDataImpl;
import io.sirocco.pubsub.topic.builtin.PublicationDataImpl;
import io.sirocco.pubsub.topic.builtin.SubscriptionDataImpl;
import io.sirocco.pubsub.topic.builtin.TopicDataImpl;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.core.status.Status;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderListener;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.topic.ParticipantBuiltinTopicData;
import org.omg.dds.topic.PublicationBuiltinTopicData;
import org.omg.dds.topic.SubscriptionBuiltinTopicData;
import org.omg.dds.topic.TopicBuiltinTopicData;
import org.omg.dds.topic.TopicDescription;

/**
 * The built-in Subscriber: readers of DCPSParticipant, DCPSPublication, DCPSSubscription and DCPSTopic, filled from
 * discovery on the participant's discovery thread. Unlike the spec's minimum (and as Cyclone does), local entities
 * are included, so a tool sees its own process too. Keyed by the entity's GUID; a retraction disposes the
 * instance (NOT_ALIVE_DISPOSED).
 */
public final class BuiltinSubscriber extends SubscriberImpl
{
    public static final String DCPS_PARTICIPANT = "DCPSParticipant";
    public static final String DCPS_PUBLICATION = "DCPSPublication";
    public static final String DCPS_SUBSCRIPTION = "DCPSSubscription";
    public static final String DCPS_TOPIC = "DCPSTopic";

    private final DataReaderImpl<ParticipantBuiltinTopicData> participants;
    private final DataReaderImpl<PublicationBuiltinTopicData> publications;
    private final DataReaderImpl<SubscriptionBuiltinTopicData> subscriptions;
    private final DataReaderImpl<TopicBuiltinTopicData> topics;

    public BuiltinSubscriber(final SiroccoServiceEnvironment env, final ParticipantView participant)
    {
        super(env, participant, HandleImpl.nextLocal(), SubscriberQosImpl.defaults(env), null, null);
        markEnabled(true);
        final PolicyFactory policies = PolicyFactory.getPolicyFactory(env);
        final DataReaderQos qos = DataReaderQosImpl.defaults(env).withAll(
            policies.Reliability().withReliable(), policies.Durability().withTransientLocal(),
            policies.History().withKeepLast(1));
        participants = reader(env, participant, DCPS_PARTICIPANT, ParticipantBuiltinTopicData.class, qos);
        publications = reader(env, participant, DCPS_PUBLICATION, PublicationBuiltinTopicData.class, qos);
        subscriptions = reader(env, participant, DCPS_SUBSCRIPTION, SubscriptionBuiltinTopicData.class, qos);
        topics = reader(env, participant, DCPS_TOPIC, TopicBuiltinTopicData.class, qos);
    }

    @SuppressWarnings("unchecked")
    private <T> DataReaderImpl<T> reader(final SiroccoServiceEnvironment env, final ParticipantView participant,
        final String name, final Class<T> type, final DataReaderQos qos)
    {
        final BuiltinTypeSupport<T> support = new BuiltinTypeSupport<>(env, type, name, () -> null,
            sample -> sample == null ? null : (T)cloneOf(sample));
        final TopicImpl<T> topic = new TopicImpl<>(env, participant, HandleImpl.nextLocal(), name, support, support,
            TopicQosImpl.defaults(env), null, null);
        topic.enable();
        final DataReaderImpl<T> reader = new DataReaderImpl<>(env, this, HandleImpl.nextLocal(), topic, qos, null,
            null, true);
        children.add(reader);
        reader.enable();
        return reader;
    }

    private static Object cloneOf(final Object sample)
    {
        return switch (sample)
        {
            case ParticipantBuiltinTopicData p -> p.clone();
            case PublicationBuiltinTopicData p -> p.clone();
            case SubscriptionBuiltinTopicData s -> s.clone();
            case TopicBuiltinTopicData t -> t.clone();
            default -> sample;
        };
    }

    /** Discovery thread: an entity appeared. */
    public void onAnnounce(final EndpointRecord record)
    {
        switch (record.kind())
        {
            case EndpointRecord.PARTICIPANT ->
                participants.inject(BusMessage.KIND_DATA, record.guid(), new ParticipantDataImpl(env, record));
            case EndpointRecord.WRITER ->
                publications.inject(BusMessage.KIND_DATA, record.guid(), new PublicationDataImpl(env, record));
            case EndpointRecord.READER ->
                subscriptions.inject(BusMessage.KIND_DATA, record.guid(), new SubscriptionDataImpl(env, record));
            case EndpointRecord.TOPIC ->
                topics.inject(BusMessage.KIND_DATA, record.guid(), new TopicDataImpl(env, record));
            default ->
            {
            }
        }
    }

    /** Discovery thread: an entity went away. */
    public void onRetract(final EndpointRecord record)
    {
        final int kind = BusMessage.KIND_DISPOSE | BusMessage.KIND_UNREGISTER;
        switch (record.kind())
        {
            case EndpointRecord.PARTICIPANT -> participants.inject(kind, record.guid(), null);
            case EndpointRecord.WRITER -> publications.inject(kind, record.guid(), null);
            case EndpointRecord.READER -> subscriptions.inject(kind, record.guid(), null);
            case EndpointRecord.TOPIC -> topics.inject(kind, record.guid(), null);
            default ->
            {
            }
        }
    }

    @SuppressWarnings("unchecked")
    public <T> TopicDescription<T> lookupTopic(final String name)
    {
        for (final DataReaderImpl<?> reader : List.of(participants, publications, subscriptions, topics))
        {
            if (reader.getTopicDescription().getName().equals(name))
            {
                return (TopicDescription<T>)reader.getTopicDescription();
            }
        }
        return null;
    }

    @Override
    public <TYPE> DataReader<TYPE> createDataReader(final TopicDescription<TYPE> topic, final DataReaderQos qos,
        final DataReaderListener<TYPE> listener, final Collection<Class<? extends Status>> statuses)
    {
        throw DdsExceptions.illegalOperation(env, describe() + ": the built-in Subscriber's readers are fixed; use " +
            "lookupDataReader(\"DCPSParticipant\" | \"DCPSPublication\" | \"DCPSSubscription\" | \"DCPSTopic\")");
    }

    @Override
    public void close()
    {
        throw DdsExceptions.illegalOperation(env, describe() + ": the built-in Subscriber is closed with its " +
            "participant");
    }

    public void closeBuiltin()
    {
        markClosed();
    }

    @Override
    public String describe()
    {
        return "built-in Subscriber";
    }
}
