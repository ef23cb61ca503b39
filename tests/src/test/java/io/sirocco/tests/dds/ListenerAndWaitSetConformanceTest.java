package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.Condition;
import org.omg.dds.core.GuardCondition;
import org.omg.dds.core.StatusCondition;
import org.omg.dds.core.WaitSet;
import org.omg.dds.core.event.DataAvailableEvent;
import org.omg.dds.core.event.DataOnReadersEvent;
import org.omg.dds.core.event.SubscriptionMatchedEvent;
import org.omg.dds.core.status.DataAvailableStatus;
import org.omg.dds.core.status.SubscriptionMatchedStatus;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderAdapter;
import org.omg.dds.sub.ReadCondition;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.sub.SubscriberAdapter;
import org.omg.dds.topic.Topic;

/** Listeners with status masks versus WaitSets with ReadConditions, StatusConditions and GuardConditions. */
@Timeout(60)
class ListenerAndWaitSetConformanceTest extends OverEveryTransport
{
    private final DomainParticipant participant = participant();
    private final Topic<Shape> topic = participant.createTopic("Triangle", Shape.class);

    ListenerAndWaitSetConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    @AfterEach
    void close()
    {
        participant.close();
    }

    private DataWriter<Shape> writer()
    {
        return participant.createPublisher().createDataWriter(topic, participant.createPublisher()
            .getDefaultDataWriterQos().withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
    }

    @Test
    void dataAvailableListenerSeesEverySample() throws Exception
    {
        final AtomicInteger taken = new AtomicInteger();
        final AtomicInteger matched = new AtomicInteger();
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()), new DataReaderAdapter<>()
            {
                @Override
                public void onDataAvailable(final DataAvailableEvent<Shape> event)
                {
                    taken.addAndGet(event.getSource().take(new ArrayList<>()).size());
                }

                @Override
                public void onSubscriptionMatched(final SubscriptionMatchedEvent<Shape> event)
                {
                    matched.set(event.getStatus().getCurrentCount());
                }
            }, null);
        final DataWriter<Shape> writer = writer();
        Dds.await("matched listener", () -> matched.get() == 1);
        for (int i = 0; i < 50; i++)
        {
            writer.write(new Shape("RED", i, 0, 1));
        }
        Dds.await("50 samples through the listener", () -> taken.get() == 50);
        assertThat(reader.getStatusChanges()).doesNotContain(DataAvailableStatus.class);
    }

    @Test
    void theStatusMaskFiltersListenerCalls() throws Exception
    {
        final AtomicInteger calls = new AtomicInteger();
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable()), new DataReaderAdapter<>()
            {
                @Override
                public void onDataAvailable(final DataAvailableEvent<Shape> event)
                {
                    calls.incrementAndGet();
                }
            }, Set.of(SubscriptionMatchedStatus.class));
        final DataWriter<Shape> writer = writer();
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        writer.write(new Shape("RED", 1, 0, 1));
        writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
        Dds.await("data", () -> reader.getStatusChanges().contains(DataAvailableStatus.class));
        assertThat(calls.get()).isZero();
    }

    @Test
    void dataOnReadersOnTheSubscriberTakesPrecedence() throws Exception
    {
        final AtomicInteger onReaders = new AtomicInteger();
        final AtomicInteger onAvailable = new AtomicInteger();
        final Subscriber subscriber = participant.createSubscriber(participant.getDefaultSubscriberQos(),
            new SubscriberAdapter()
            {
                @Override
                public void onDataOnReaders(final DataOnReadersEvent event)
                {
                    onReaders.incrementAndGet();
                }
            }, Set.of(org.omg.dds.core.status.DataOnReadersStatus.class));
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable()), new DataReaderAdapter<>()
            {
                @Override
                public void onDataAvailable(final DataAvailableEvent<Shape> event)
                {
                    onAvailable.incrementAndGet();
                }
            }, null);
        final DataWriter<Shape> writer = writer();
        Dds.await("matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        writer.write(new Shape("RED", 1, 0, 1));
        Dds.await("on_data_on_readers", () -> onReaders.get() >= 1);
        assertThat(onAvailable.get()).isZero();
    }

    @Test
    void waitSetWakesOnReadConditionAndStatusCondition() throws Exception
    {
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable()));
        final WaitSet waitSet = WaitSet.newWaitSet(env);
        final StatusCondition<DataReader<Shape>> matched = reader.getStatusCondition();
        matched.setEnabledStatuses(Set.of(SubscriptionMatchedStatus.class));
        waitSet.attachCondition(matched);
        final DataWriter<Shape> writer = writer();
        final List<Condition> active = new ArrayList<>();
        waitSet.waitForConditions(active, 30, TimeUnit.SECONDS);
        assertThat(active).containsExactly(matched);
        assertThat(reader.getSubscriptionMatchedStatus().getCurrentCount()).isEqualTo(1);
        assertThat(matched.getTriggerValue()).isFalse();
        waitSet.detachCondition(matched);

        final ReadCondition<Shape> anyData = reader.createReadCondition(subscriber.createDataState()
            .withAnySampleState().withAnyViewState().withAnyInstanceState());
        waitSet.attachCondition(anyData);
        final Thread later = Thread.ofVirtual().start(() ->
        {
            try
            {
                writer.write(new Shape("BLUE", 1, 2, 3));
            }
            catch (final TimeoutException ex)
            {
                throw new AssertionError(ex);
            }
        });
        waitSet.waitForConditions(active, 30, TimeUnit.SECONDS);
        later.join();
        assertThat(active).containsExactly(anyData);
        try (Sample.Iterator<Shape> it = reader.select().dataState(anyData.getSampleStates().isEmpty() ?
            subscriber.createDataState() : subscriber.createDataState().withAnySampleState().withAnyViewState()
                .withAnyInstanceState()).take())
        {
            assertThat(it.hasNext()).isTrue();
        }
        assertThat(anyData.getTriggerValue()).isFalse();
    }

    @Test
    void guardConditionWakesAWaiterAndTimeoutsThrow() throws Exception
    {
        final WaitSet waitSet = WaitSet.newWaitSet(env);
        final GuardCondition guard = GuardCondition.newGuardCondition(env);
        waitSet.attachCondition(guard);
        assertThatThrownBy(() -> waitSet.waitForConditions(50, TimeUnit.MILLISECONDS))
            .isInstanceOf(TimeoutException.class);
        final CountDownLatch woke = new CountDownLatch(1);
        final Thread waiter = Thread.ofVirtual().start(() ->
        {
            waitSet.waitForConditions();
            woke.countDown();
        });
        guard.setTriggerValue(true);
        assertThat(woke.await(30, TimeUnit.SECONDS)).isTrue();
        waiter.join();
    }
}
