package io.sirocco.pubsub.topic;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.EntityBase;
import io.sirocco.pubsub.core.ParticipantView;
import io.sirocco.pubsub.core.StatusKinds;
import io.sirocco.pubsub.qos.QosChecks;
import io.sirocco.pubsub.status.Events;
import io.sirocco.pubsub.status.Statuses;
import io.sirocco.transport.log.RateLimitedWarning;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.status.InconsistentTopicStatus;
import org.omg.dds.core.status.Status;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantListener;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicDescription;
import org.omg.dds.topic.TopicListener;
import org.omg.dds.topic.TopicQos;
import org.omg.dds.type.TypeSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Topic: a name bound to a type. Each topic is one subgroup of the domain's group; its writers and readers are
 * the subgroup's members.
 */
public final class TopicImpl<T> extends EntityBase<TopicListener<T>, TopicQos> implements Topic<T>
{
    private final ParticipantView participant;
    private final String name;
    private final TypeSupport<T> typeSupport;
    private final SampleOps<T> ops;
    private final AtomicInteger users = new AtomicInteger();
    private static final Logger LOG = LoggerFactory.getLogger(TopicImpl.class);
    /** Rate-limited: a remote process can create topics at will. */
    private static final RateLimitedWarning INCONSISTENT = new RateLimitedWarning(LOG);

    /** The remote topics already counted inconsistent and logged (each once); guarded by {@code this}. */
    private final Set<Long> reportedInconsistent = new HashSet<>();
    private int inconsistentTotal;
    private int inconsistentChange;

    public TopicImpl(final SiroccoServiceEnvironment env, final ParticipantView participant, final long guid,
        final String name, final TypeSupport<T> typeSupport, final SampleOps<T> ops, final TopicQos qos,
        final TopicListener<T> listener, final Collection<Class<? extends Status>> statuses)
    {
        super(env, guid, qos, listener, statuses);
        this.participant = participant;
        this.name = name;
        this.typeSupport = typeSupport;
        this.ops = ops;
    }

    public SampleOps<T> ops()
    {
        return ops;
    }

    @SuppressWarnings("unchecked")
    public TypeSupportImpl<T> typeSupport()
    {
        return (TypeSupportImpl<T>)typeSupport;
    }

    public EndpointRecord record()
    {
        return new EndpointRecord(EndpointRecord.TOPIC, guid, participant.guid(), name, getTypeName(),
            typeSupport.getType().getName(), qos.getReliability().getKind().ordinal(), 0,
            qos.getDurability().getKind().ordinal(), Long.MAX_VALUE, 0, 0, Long.MAX_VALUE, 0, 0, 0, false, false,
            qos.getHistory().getKind().ordinal(), qos.getHistory().getDepth(), List.of(), new byte[0], "",
            0, 0, "", List.of(), Long.MAX_VALUE, qos.getTopicData().getValue(), new byte[0]);
    }

    /**
     * A topic record seen in the domain (announced, or already known when this topic was created): another topic of
     * this name with another type counts once, by its GUID, however often it is announced, and is logged once.
     * Called from the discovery thread and, at creation, from the creating thread.
     */
    public void onTopicDiscovered(final EndpointRecord record)
    {
        if (!record.topicName().equals(name) || record.typeName().equals(getTypeName()) || isClosed())
        {
            return;
        }
        final InconsistentTopicStatus status;
        synchronized (this)
        {
            if (!reportedInconsistent.add(record.guid()))
            {
                return;
            }
            inconsistentTotal++;
            inconsistentChange++;
            status = new Statuses.InconsistentTopicStatusImpl(env, inconsistentTotal, inconsistentChange);
        }
        INCONSISTENT.warn("topic '{}': participant {} has type '{}' for it, this participant {} has '{}'; their "
            + "writers and readers of it will not match", name, String.format("%016x", record.participantGuid()),
            record.typeName(), String.format("%016x", participant.guid()), getTypeName());
        statusChanged(StatusKinds.INCONSISTENT_TOPIC);
        final TopicListener<T> own = listenerFor(StatusKinds.INCONSISTENT_TOPIC);
        if (own != null)
        {
            resetInconsistent();
            own.onInconsistentTopic(new Events.InconsistentTopicEventImpl<>(env, this, status));
            return;
        }
        final DomainParticipantListener parent = participant.listenerFor(StatusKinds.INCONSISTENT_TOPIC);
        if (parent != null)
        {
            resetInconsistent();
            parent.onInconsistentTopic(new Events.InconsistentTopicEventImpl<>(env, this, status));
        }
    }

    private synchronized void resetInconsistent()
    {
        inconsistentChange = 0;
        statusRead(StatusKinds.INCONSISTENT_TOPIC);
    }

    @Override
    public synchronized InconsistentTopicStatus getInconsistentTopicStatus()
    {
        checkOpen();
        final InconsistentTopicStatus status = new Statuses.InconsistentTopicStatusImpl(env, inconsistentTotal,
            inconsistentChange);
        inconsistentChange = 0;
        statusRead(StatusKinds.INCONSISTENT_TOPIC);
        return status;
    }

    public void addUser()
    {
        users.incrementAndGet();
    }

    public void removeUser()
    {
        users.decrementAndGet();
    }

    @Override
    public String describe()
    {
        return "Topic '" + name + "' (type " + getTypeName() + ")";
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StatusCondition<Topic<T>> getStatusCondition()
    {
        return (StatusCondition)super.getStatusCondition();
    }

    @Override
    public DomainParticipant getParent()
    {
        return participant;
    }

    @Override
    public TypeSupport<T> getTypeSupport()
    {
        return typeSupport;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <OTHER> TopicDescription<OTHER> cast()
    {
        return (TopicDescription<OTHER>)this;
    }

    @Override
    public String getTypeName()
    {
        return typeSupport.getTypeName();
    }

    @Override
    public String getName()
    {
        return name;
    }

    /**
     * Refuses a change of a policy the spec makes immutable (ImmutablePolicyException naming it); the changeable
     * ones are stored and the topic is announced again, so that TOPIC_DATA reaches the built-in DCPSTopic readers.
     * Writers and readers created after this carry the new TOPIC_DATA; existing ones keep theirs until they are
     * announced again.
     */
    @Override
    public void setQos(final TopicQos qos)
    {
        checkOpen();
        QosChecks.endpointUnchanged(env, describe(), "Topic", this.qos, qos);
        this.qos = qos;
        if (isEnabled())
        {
            participant.bus().announce(record());
        }
    }

    @Override
    public void close()
    {
        if (isClosed())
        {
            return;
        }
        if (users.get() > 0)
        {
            throw DdsExceptions.precondition(env, describe() + " cannot be closed: " + users.get() +
                " DataWriter(s)/DataReader(s) still use it");
        }
        markClosed();
        participant.removed(this);
    }
}
