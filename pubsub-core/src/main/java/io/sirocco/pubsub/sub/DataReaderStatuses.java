package io.sirocco.pubsub.sub;

import java.util.Collection;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.StatusKinds;
import io.sirocco.pubsub.status.DeadlineMissedCounts;
import io.sirocco.pubsub.status.Events;
import io.sirocco.pubsub.status.Statuses;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.status.LivelinessChangedStatus;
import org.omg.dds.core.status.RequestedDeadlineMissedStatus;
import org.omg.dds.core.status.RequestedIncompatibleQosStatus;
import org.omg.dds.core.status.SampleLostStatus;
import org.omg.dds.core.status.SampleRejectedStatus;
import org.omg.dds.core.status.Status;
import org.omg.dds.core.status.SubscriptionMatchedStatus;
import org.omg.dds.domain.DomainParticipantListener;
import org.omg.dds.sub.DataReaderListener;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.SubscriberListener;

/**
 * A DataReader's communication statuses and the listener calls that report them: subscription matched, requested
 * incompatible QoS and deadline missed, liveliness changed ({@link ReaderLiveliness}), sample lost and rejected,
 * data available (or data on readers), and the ReadConditions woken with it. Holds the counts those statuses are
 * made of; {@code DataReaderImpl} updates them and decides when to call.
 *
 * <p>Threads: listeners are called on the delivery thread after a batch (outside the reader's lock), on the
 * discovery thread (matching) or on the participant's timer thread (deadline, liveliness), each inside
 * {@code listenerGate} so that close() waits for a call in progress and stops later ones. The counts are guarded by
 * the entity's {@code statusLock}; the status getters run on application threads.
 */
abstract class DataReaderStatuses<T> extends DataReaderOverloads<T>
{
    /** Listener calls of a batch versus close(); see {@link ListenerGate}. */
    final ListenerGate listenerGate = new ListenerGate();
    final MatchedWriters writers = new MatchedWriters(statusLock);
    final SampleStatusCounts sampleStatuses = new SampleStatusCounts(statusLock);
    final DeadlineMissedCounts deadlineMisses = new DeadlineMissedCounts();
    final ReadConditions conditions = new ReadConditions();
    /** The DataAvailable event handed to listeners; racy single assignment of an immutable object (benign). */
    private Events.DataAvailableEventImpl<T> dataAvailableEvent;

    DataReaderStatuses(final SiroccoServiceEnvironment env, final SubscriberView subscriber, final long guid,
        final TopicImpl<T> topic, final DataReaderQos qos, final DataReaderListener<T> listener,
        final Collection<Class<? extends Status>> statuses)
    {
        super(env, subscriber, guid, topic, qos, listener, statuses);
    }

    final void signalConditions()
    {
        conditions.signalAll();
    }

    /** After a batch, outside the reader's lock: publishes its lost/rejected counts and calls the listeners. */
    final void batchStatuses(final int lost, final int rejected, final boolean data)
    {
        sampleStatuses.publish(lost, rejected);
        if (!listenerGate.enter())
        {
            return;
        }
        try
        {
            if (lost > 0)
            {
                fireLost();
            }
            if (rejected > 0)
            {
                fireRejected();
            }
            if (data)
            {
                fireDataAvailable();
            }
        }
        finally
        {
            listenerGate.exit();
        }
    }

    @Override
    protected Status resetStatus(final int statusBit)
    {
        return switch (statusBit)
        {
            case StatusKinds.SUBSCRIPTION_MATCHED -> writers.subscriptionStatus(env);
            case StatusKinds.REQUESTED_INCOMPATIBLE_QOS -> incompatible.requested(env);
            case StatusKinds.SAMPLE_LOST -> sampleStatuses.lostStatus(env);
            case StatusKinds.SAMPLE_REJECTED -> sampleStatuses.rejectedStatus(env);
            case StatusKinds.REQUESTED_DEADLINE_MISSED -> deadlineMisses.requested(env);
            case StatusKinds.LIVELINESS_CHANGED -> liveliness().status(env);
            default -> throw new IllegalArgumentException(describe() + ": no status for bit " + statusBit);
        };
    }

    /** The matched writers' LIVELINESS and the counts of LivelinessChanged. */
    abstract ReaderLiveliness liveliness();

    final boolean hasListener(final int bits)
    {
        return listenerChainFor(bits) != null;
    }

    final void fireMatched()
    {
        if (!listenerGate.enter())
        {
            return;
        }
        try
        {
            fire(StatusKinds.SUBSCRIPTION_MATCHED, Events.SubscriptionMatchedEventImpl<T>::new,
                DataReaderListener::onSubscriptionMatched, SubscriberListener::onSubscriptionMatched);
        }
        finally
        {
            listenerGate.exit();
        }
        fireLivelinessChanged(); // a matched writer is alive; an unmatched one leaves its count
    }

    /** Discovery or timer thread, or the delivery thread after a batch: the matched writers' liveliness changed. */
    final void fireLivelinessChanged()
    {
        listenerGate.run(() -> fire(StatusKinds.LIVELINESS_CHANGED, Events.LivelinessChangedEventImpl<T>::new,
            DataReaderListener::onLivelinessChanged, SubscriberListener::onLivelinessChanged));
    }

    @Override
    protected void fireIncompatible()
    {
        fire(StatusKinds.REQUESTED_INCOMPATIBLE_QOS, Events.RequestedIncompatibleQosEventImpl<T>::new,
            DataReaderListener::onRequestedIncompatibleQos, SubscriberListener::onRequestedIncompatibleQos);
    }

    /** Timer thread: instances missed their deadline (the counts are in {@code deadlineMisses}). */
    final void fireDeadlineMissed()
    {
        if (!listenerGate.enter())
        {
            return; // closing
        }
        try
        {
            fire(StatusKinds.REQUESTED_DEADLINE_MISSED, Events.RequestedDeadlineMissedEventImpl<T>::new,
                DataReaderListener::onRequestedDeadlineMissed, SubscriberListener::onRequestedDeadlineMissed);
        }
        finally
        {
            listenerGate.exit();
        }
    }

    private void fireLost()
    {
        fire(StatusKinds.SAMPLE_LOST, Events.SampleLostEventImpl<T>::new,
            DataReaderListener::onSampleLost, SubscriberListener::onSampleLost);
    }

    private void fireRejected()
    {
        fire(StatusKinds.SAMPLE_REJECTED, Events.SampleRejectedEventImpl<T>::new,
            DataReaderListener::onSampleRejected, SubscriberListener::onSampleRejected);
    }

    @SuppressWarnings("unchecked")
    private void fireDataAvailable()
    {
        statusChanged(StatusKinds.DATA_AVAILABLE);
        group.statusChanged(StatusKinds.DATA_ON_READERS);
        signalConditions();
        final SubscriberListener onReaders = group.listenerFor(StatusKinds.DATA_ON_READERS);
        final DomainParticipantListener topOnReaders = participant.listenerFor(StatusKinds.DATA_ON_READERS);
        if (onReaders != null || topOnReaders != null)
        {
            group.statusRead(StatusKinds.DATA_ON_READERS);
            final Events.DataOnReadersEventImpl event = new Events.DataOnReadersEventImpl(env, group,
                new Statuses.DataOnReadersStatusImpl(env));
            if (onReaders != null)
            {
                onReaders.onDataOnReaders(event);
            }
            else
            {
                topOnReaders.onDataOnReaders(event);
            }
            return;
        }
        final Object handler = listenerChainFor(StatusKinds.DATA_AVAILABLE);
        if (handler == null)
        {
            return;
        }
        statusRead(StatusKinds.DATA_AVAILABLE);
        Events.DataAvailableEventImpl<T> event = dataAvailableEvent;
        if (event == null)
        {
            // The event carries no per-call state (DataAvailableStatus has no fields): one per reader, made once.
            event = new Events.DataAvailableEventImpl<>(env, this, new Statuses.DataAvailableStatusImpl(env));
            dataAvailableEvent = event;
        }
        if (handler instanceof DataReaderListener<?> l)
        {
            ((DataReaderListener<T>)l).onDataAvailable(event);
        }
        else if (handler instanceof SubscriberListener l)
        {
            l.onDataAvailable(event);
        }
    }

    /** Calls this reader's DataAvailable listener (Subscriber.notifyDataReaders). */
    @SuppressWarnings("unchecked")
    void notifyDataAvailable()
    {
        final DataReaderListener<T> own = listenerFor(StatusKinds.DATA_AVAILABLE);
        if (own != null && getStatusChanges().contains(org.omg.dds.core.status.DataAvailableStatus.class))
        {
            own.onDataAvailable(new Events.DataAvailableEventImpl<>(env, this,
                new Statuses.DataAvailableStatusImpl(env)));
        }
    }

    @Override
    public SubscriptionMatchedStatus getSubscriptionMatchedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.SUBSCRIPTION_MATCHED);
    }

    @Override
    public RequestedIncompatibleQosStatus getRequestedIncompatibleQosStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.REQUESTED_INCOMPATIBLE_QOS);
    }

    @Override
    public SampleLostStatus getSampleLostStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.SAMPLE_LOST);
    }

    @Override
    public SampleRejectedStatus getSampleRejectedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.SAMPLE_REJECTED);
    }

    @Override
    public LivelinessChangedStatus getLivelinessChangedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.LIVELINESS_CHANGED);
    }

    @Override
    public RequestedDeadlineMissedStatus getRequestedDeadlineMissedStatus()
    {
        checkOpen();
        return takeStatus(StatusKinds.REQUESTED_DEADLINE_MISSED);
    }
}
