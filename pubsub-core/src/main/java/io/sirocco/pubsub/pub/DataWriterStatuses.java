package io.sirocco.pubsub.pub;

import java.util.Collection;
import java.util.Set;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.StatusKinds;
import io.sirocco.pubsub.status.DeadlineMissedCounts;
import io.sirocco.pubsub.status.Events;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.status.LivelinessLostStatus;
import org.omg.dds.core.status.OfferedDeadlineMissedStatus;
import org.omg.dds.core.status.OfferedIncompatibleQosStatus;
import org.omg.dds.core.status.PublicationMatchedStatus;
import org.omg.dds.core.status.Status;
import org.omg.dds.pub.DataWriterListener;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.pub.PublisherListener;
import org.omg.dds.topic.SubscriptionBuiltinTopicData;

/**
 * A DataWriter's communication statuses and the listener calls that report them: publication matched, offered
 * incompatible QoS, offered deadline missed and liveliness lost, with the writer's LIVELINESS assertions
 * ({@link WriterLiveliness}). Holds the counts those statuses are made of; {@code DataWriterImpl} updates them and
 * decides when to call.
 *
 * <p>Threads: listeners are called on the discovery thread (matching) or on the participant's timer thread
 * (deadline, liveliness), never under the writer's {@code lock}; the counts are guarded by the entity's
 * {@code statusLock}; the status getters and assertions run on application threads.
 */
abstract class DataWriterStatuses<T> extends DataWriterOverloads<T>
{
    /** The matched readers' content filters, kept up to date by {@link #matches}, used by the send path. */
    final ReaderFilters<T> readerFilters;
    /** The matched readers and PUBLICATION_MATCHED counts, under {@code statusLock}. */
    final WriterMatches matches;
    final DeadlineMissedCounts deadlineMisses = new DeadlineMissedCounts();
    final WriterLiveliness liveliness;

    DataWriterStatuses(final SiroccoServiceEnvironment env, final PublisherView publisher, final long guid,
        final TopicImpl<T> topic, final DataWriterQos qos, final DataWriterListener<T> listener,
        final Collection<Class<? extends Status>> statuses)
    {
        super(env, publisher, guid, topic, qos, listener, statuses);
        this.readerFilters = new ReaderFilters<>(describe(), topic.typeSupport().codec().type());
        this.matches = new WriterMatches(statusLock, readerFilters);
        this.liveliness = new WriterLiveliness(qos.getLiveliness(),
            DurationImpl.toNanos(qos.getLiveliness().getLeaseDuration()), statusLock, participant.timers(),
            this::fireLivelinessLost);
    }

    @Override
    protected Status resetStatus(final int statusBit)
    {
        return switch (statusBit)
        {
            case StatusKinds.PUBLICATION_MATCHED -> matches.status(env);
            case StatusKinds.OFFERED_INCOMPATIBLE_QOS -> incompatible.offered(env);
            case StatusKinds.OFFERED_DEADLINE_MISSED -> deadlineMisses.offered(env);
            case StatusKinds.LIVELINESS_LOST -> liveliness.status(env);
            default -> throw new IllegalArgumentException(describe() + ": no status for bit " + statusBit);
        };
    }

    final void fireMatched()
    {
        fire(StatusKinds.PUBLICATION_MATCHED, Events.PublicationMatchedEventImpl<T>::new,
            DataWriterListener::onPublicationMatched, PublisherListener::onPublicationMatched);
    }

    @Override
    protected void fireIncompatible()
    {
        fire(StatusKinds.OFFERED_INCOMPATIBLE_QOS, Events.OfferedIncompatibleQosEventImpl<T>::new,
            DataWriterListener::onOfferedIncompatibleQos, PublisherListener::onOfferedIncompatibleQos);
    }

    /** Timer thread: instances missed their deadline (the counts are in {@code deadlineMisses}). */
    final void fireDeadlineMissed()
    {
        fire(StatusKinds.OFFERED_DEADLINE_MISSED, Events.OfferedDeadlineMissedEventImpl<T>::new,
            DataWriterListener::onOfferedDeadlineMissed, PublisherListener::onOfferedDeadlineMissed);
    }

    /** Timer thread: the lease ended without an assertion (the count is in {@code liveliness}). */
    private void fireLivelinessLost()
    {
        fire(StatusKinds.LIVELINESS_LOST, Events.LivelinessLostEventImpl<T>::new,
            DataWriterListener::onLivelinessLost, PublisherListener::onLivelinessLost);
    }

    @Override
    public PublicationMatchedStatus getPublicationMatchedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.PUBLICATION_MATCHED);
    }

    @Override
    public OfferedIncompatibleQosStatus getOfferedIncompatibleQosStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.OFFERED_INCOMPATIBLE_QOS);
    }

    @Override
    public LivelinessLostStatus getLivelinessLostStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.LIVELINESS_LOST);
    }

    @Override
    public OfferedDeadlineMissedStatus getOfferedDeadlineMissedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.OFFERED_DEADLINE_MISSED);
    }

    @Override
    public void assertLiveliness()
    {
        checkOpen();
        liveliness.asserted(System.nanoTime());
    }

    /** {@code DomainParticipant.assertLiveliness}: asserts this writer if its liveliness is MANUAL_BY_PARTICIPANT. */
    public void participantAsserted(final long nowNs)
    {
        if (getQos().getLiveliness().getKind() == Liveliness.Kind.MANUAL_BY_PARTICIPANT)
        {
            liveliness.asserted(nowNs);
        }
    }

    @Override
    public Set<InstanceHandle> getMatchedSubscriptions()
    {
        checkOpen();
        return matches.handles(env);
    }

    @Override
    public SubscriptionBuiltinTopicData getMatchedSubscriptionData(final InstanceHandle handle)
    {
        checkOpen();
        return matches.readerData(env, describe(), handle);
    }
}
