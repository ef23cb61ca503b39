package io.sirocco.pubsub.entity;

import java.util.Collection;
import java.util.EventListener;
import java.util.List;
import java.util.function.BiConsumer;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.EntityBase;
import io.sirocco.pubsub.core.GroupView;
import io.sirocco.pubsub.core.ParticipantView;
import io.sirocco.pubsub.qos.Matching;
import io.sirocco.pubsub.qos.QosChecks;
import io.sirocco.pubsub.status.IncompatibleQosCounts;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.transport.log.RateLimitedWarning;
import org.omg.dds.core.Entity;
import org.omg.dds.core.EntityQos;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.status.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a DataWriter and a DataReader share: their topic, their Publisher or Subscriber ({@code group}) and its
 * participant, the immutable-policy check of {@code setQos}, the close sequence, the first checks on a discovered
 * endpoint of the other kind (topic, partitions, incompatible QoS counted once), and the listener chain (DDS 1.4
 * §2.2.4.2.1: the endpoint's own listener if its mask has the status, else the group's, else the participant's).
 *
 * <p>Status counters are guarded by {@link #statusLock}, which no other lock is taken under; listeners are called
 * after it is released. {@link #takeStatus} reads a status for {@code getXStatus} and for a listener alike: under
 * the lock it clears the status bit and resets the {@code *_change} counters.
 *
 * @param <T> the data type.
 * @param <E> the entity interface ({@code DataWriter<T>} or {@code DataReader<T>}).
 * @param <L> the endpoint's listener type.
 * @param <GL> the group's listener type (PublisherListener or SubscriberListener).
 * @param <Q> the QoS type.
 * @param <G> the group as its endpoints see it (PublisherView or SubscriberView).
 */
public abstract class EndpointEntity<T, E extends Entity<?, ?>, L extends EventListener, GL extends EventListener,
    Q extends EntityQos<?>, G extends GroupView<GL>> extends EntityBase<L, Q>
{
    private static final Logger LOG = LoggerFactory.getLogger(EndpointEntity.class);
    private static final RateLimitedWarning INCOMPATIBLE = new RateLimitedWarning(LOG);

    /** Makes the event a listener receives; {@code Events.XEventImpl<T>::new}. */
    @FunctionalInterface
    protected interface EventFactory<E, S, V>
    {
        V create(ServiceEnvironment env, E source, S status);
    }

    protected final G group;
    protected final ParticipantView participant;
    protected final TopicImpl<T> topic;
    protected final Object statusLock = new Object();
    /** The incompatible endpoints of the other kind, under {@link #statusLock}. */
    protected final IncompatibleQosCounts incompatible = new IncompatibleQosCounts();
    private final String kind;

    /** {@code kind} ("DataWriter", "DataReader") names this entity in messages, with its topic and GUID. */
    protected EndpointEntity(final SiroccoServiceEnvironment env, final String kind, final G group, final long guid,
        final TopicImpl<T> topic, final Q qos, final L listener, final Collection<Class<? extends Status>> statuses)
    {
        super(env, guid, qos, listener, statuses);
        this.kind = kind;
        this.group = group;
        this.participant = group.participant();
        this.topic = topic;
    }

    @Override
    public String describe()
    {
        return String.format("%s on topic '%s' (%016x)", kind, topic == null ? "?" : topic.getName(), guid);
    }

    public G getParent()
    {
        return group;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StatusCondition<E> getStatusCondition()
    {
        return (StatusCondition)super.getStatusCondition();
    }

    /**
     * Refuses a change of a policy the spec makes immutable (ImmutablePolicyException naming it) and an inconsistent
     * QoS ({@link #checkConsistent}), then stores the QoS and applies the changeable policies
     * ({@link #applyChangeable}).
     */
    @Override
    public void setQos(final Q newQos)
    {
        checkOpen();
        QosChecks.endpointUnchanged(env, describe(), kind, qos, newQos);
        checkConsistent(newQos);
        this.qos = newQos;
        applyChangeable(newQos);
    }

    /** Before {@link #setQos} stores a QoS: InconsistentPolicyException naming the policies that contradict. */
    protected void checkConsistent(final Q newQos)
    {
    }

    /**
     * After {@link #setQos}: puts the changeable policies into effect (e.g. DEADLINE) and announces the endpoint
     * again, so that matched remotes re-match and see its new QoS.
     */
    protected void applyChangeable(final Q newQos)
    {
    }

    /**
     * Closes this endpoint once: {@link #detach()}, mark it closed, {@link #afterClosed()}, then leave the topic and
     * the group.
     */
    @Override
    public final void close()
    {
        if (isClosed())
        {
            return;
        }
        detach();
        markClosed();
        afterClosed();
        topic.removeUser();
        group.removed(this);
    }

    /** Gives up what this endpoint holds on the bus and in discovery; may refuse to close by throwing. */
    protected abstract void detach();

    /** Runs right after this endpoint is marked closed; nothing by default. */
    protected void afterClosed()
    {
    }

    /**
     * Discovery thread, for a discovered endpoint of the other kind ({@code peer}, which is {@code writer} or
     * {@code reader}): true when it is on this topic, in a matching partition and of compatible QoS. An incompatible
     * one is counted once and raises the incompatible-QoS status ({@link #fireIncompatible}).
     */
    protected final boolean compatible(final EndpointRecord writer, final EndpointRecord reader,
        final EndpointRecord peer)
    {
        if (!Matching.sameTopic(writer, reader) || !Matching.partitionsMatch(writer.partitions(), reader.partitions()))
        {
            return false;
        }
        final List<Class<? extends QosPolicy>> failed = Matching.incompatible(writer, reader);
        if (failed.isEmpty())
        {
            synchronized (statusLock)
            {
                // Compatible again after a setQos: a later incompatibility counts anew.
                incompatible.remove(peer.guid());
            }
            return true;
        }
        synchronized (statusLock)
        {
            if (!incompatible.add(peer.guid(), failed))
            {
                return false;
            }
        }
        warnIncompatible(writer, reader, failed);
        fireIncompatible();
        return false;
    }

    /**
     * Says once per pair, at WARN, why a writer and a reader of one topic do not match: a status alone leaves a user
     * whose reader gets nothing without a clue. Rate-limited, since a remote process can create endpoints at will.
     */
    private static void warnIncompatible(final EndpointRecord writer, final EndpointRecord reader,
        final List<Class<? extends QosPolicy>> failed)
    {
        final StringBuilder policies = new StringBuilder();
        for (final Class<? extends QosPolicy> policy : failed)
        {
            policies.append(policies.isEmpty() ? "" : ", ").append(policy.getSimpleName());
        }
        INCOMPATIBLE.warn("topic '{}': writer {} (participant {}) and reader {} (participant {}) do not match: the "
            + "reader requests more than the writer offers in {}", writer.topicName(),
            String.format("%016x", writer.guid()), String.format("%016x", writer.participantGuid()),
            String.format("%016x", reader.guid()), String.format("%016x", reader.participantGuid()), policies);
    }

    /** Raises the Offered or Requested IncompatibleQos status ({@link #fire}). */
    protected abstract void fireIncompatible();

    /**
     * Who hears a status: this endpoint's listener (an {@code L}) if its mask has the status, else
     * {@link #inheritedListenerFor}; null when none does.
     */
    protected final Object listenerChainFor(final int statusBit)
    {
        final L own = listenerFor(statusBit);
        return own != null ? own : inheritedListenerFor(statusBit);
    }

    /** The group's listener for a status, else the participant's; null when neither mask has it. */
    @SuppressWarnings("unchecked")
    protected final GL inheritedListenerFor(final int statusBit)
    {
        final GL parent = group.listenerFor(statusBit);
        // A DomainParticipantListener is both a PublisherListener and a SubscriberListener.
        return parent != null ? parent : (GL)participant.listenerFor(statusBit);
    }

    /**
     * A status changed: sets its bit (waking WaitSets) and, when a listener of the chain has the status, reads the
     * status for it ({@link #takeStatus}, which clears the bit) and calls {@code own} with this endpoint's listener or
     * {@code inherited} with the group's or participant's. Pass non-capturing method references: nothing but the
     * status and the event is allocated.
     */
    @SuppressWarnings("unchecked")
    protected final <S extends Status, V> void fire(final int statusBit, final EventFactory<E, S, V> event,
        final BiConsumer<L, V> own, final BiConsumer<GL, V> inherited)
    {
        statusChanged(statusBit);
        final L mine = listenerFor(statusBit);
        final GL theirs = mine == null ? inheritedListenerFor(statusBit) : null;
        if (mine == null && theirs == null)
        {
            return;
        }
        final V created = event.create(env, (E)this, takeStatus(statusBit));
        if (mine != null)
        {
            own.accept(mine, created);
        }
        else
        {
            inherited.accept(theirs, created);
        }
    }

    /**
     * Reads a status for {@code getXStatus} or to hand it to a listener: under {@link #statusLock}, clears its bit and
     * returns its snapshot with the {@code *_change} counters reset.
     */
    @SuppressWarnings("unchecked")
    protected final <S extends Status> S takeStatus(final int statusBit)
    {
        synchronized (statusLock)
        {
            statusRead(statusBit);
            return (S)resetStatus(statusBit);
        }
    }

    /** Under {@link #statusLock}: the status of a {@code StatusKinds} bit, its {@code *_change} counters reset. */
    protected abstract Status resetStatus(int statusBit);
}
