package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.event.RequestedDeadlineMissedEvent;
import org.omg.dds.core.policy.Deadline;
import org.omg.dds.core.policy.QosPolicyCount;
import org.omg.dds.core.status.OfferedDeadlineMissedStatus;
import org.omg.dds.core.status.OfferedIncompatibleQosStatus;
import org.omg.dds.core.status.RequestedDeadlineMissedStatus;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderAdapter;
import org.omg.dds.sub.DataReaderListener;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.3.7 DEADLINE: a DataReader expects, and a DataWriter commits to, a new sample of each instance at
 * least once every period; each missed period raises REQUESTED_DEADLINE_MISSED (reader) or OFFERED_DEADLINE_MISSED
 * (writer), with total_count, total_count_change and the last instance that missed. The policy is RxO (offered period
 * <= requested period) and changeable. Periods here are short and the tests wait for the misses themselves.
 */
@Timeout(120)
class DeadlineConformanceTest extends OverEveryTransport
{
    private final DomainParticipant participant = participant();
    private final Topic<Shape> topic = participant.createTopic("Deadline", Shape.class);

    DeadlineConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    private Deadline deadline(final long periodMs)
    {
        return periodMs < 0 ? pf.Deadline().withPeriod(env.getSPI().infiniteDuration())
            : pf.Deadline().withPeriod(periodMs, TimeUnit.MILLISECONDS);
    }

    private DataWriter<Shape> writer(final long periodMs)
    {
        final Publisher publisher = participant.createPublisher();
        return publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable(), deadline(periodMs)));
    }

    private DataReader<Shape> reader(final long periodMs, final DataReaderListener<Shape> listener)
    {
        final Subscriber subscriber = participant.createSubscriber();
        return subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), deadline(periodMs)), listener, null);
    }

    private static void matched(final DataWriter<Shape> writer, final DataReader<Shape> reader)
    {
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1 &&
            reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
    }

    @Test
    void aReaderCountsEachMissedPeriodOfEachInstance() throws Exception
    {
        final DataWriter<Shape> writer = writer(50);
        final DataReader<Shape> reader = reader(100, null);
        matched(writer, reader);
        writer.write(new Shape("RED", 1, 1, 1));
        writer.write(new Shape("BLUE", 2, 2, 2));
        Dds.await("both instances", () -> reader.read(new ArrayList<>()).size() == 2);
        final InstanceHandle red = reader.lookupInstance(new Shape("RED", 0, 0, 0));
        final InstanceHandle blue = reader.lookupInstance(new Shape("BLUE", 0, 0, 0));
        Dds.await("misses of both instances", () -> totalRequested(reader) >= 2);
        Dds.await("a miss after that read", () -> changed(reader));
        final RequestedDeadlineMissedStatus first = reader.getRequestedDeadlineMissedStatus();
        assertThat(first.getTotalCount()).isGreaterThanOrEqualTo(3);
        assertThat(first.getTotalCountChange()).isPositive();
        assertThat(first.getLastInstanceHandle()).isIn(red, blue);
        Dds.await("a miss after the first read", () -> changed(reader));
        final RequestedDeadlineMissedStatus second = reader.getRequestedDeadlineMissedStatus();
        assertThat(second.getTotalCount()).isGreaterThan(first.getTotalCount());
        assertThat(second.getTotalCountChange()).as("the change since the last read")
            .isEqualTo(second.getTotalCount() - first.getTotalCount());
        assertThat(second.getLastInstanceHandle()).isIn(red, blue);
    }

    private static boolean changed(final DataReader<Shape> reader)
    {
        return reader.getStatusChanges().contains(RequestedDeadlineMissedStatus.class);
    }

    /** The total through a read of the status (which resets its change count and its changed flag). */
    private static int totalRequested(final DataReader<Shape> reader)
    {
        return reader.getRequestedDeadlineMissedStatus().getTotalCount();
    }

    @Test
    void aWriterCountsEachMissedPeriodOfEachRegisteredInstance() throws Exception
    {
        final DataWriter<Shape> writer = writer(50);
        final InstanceHandle red = writer.registerInstance(new Shape("RED", 0, 0, 0));
        writer.write(new Shape("RED", 1, 1, 1), red);
        Dds.await("offered misses", () -> writer.getStatusChanges().contains(OfferedDeadlineMissedStatus.class));
        final OfferedDeadlineMissedStatus status = writer.getOfferedDeadlineMissedStatus();
        assertThat(status.getTotalCount()).isPositive();
        assertThat(status.getTotalCountChange()).isEqualTo(status.getTotalCount());
        assertThat(status.getLastInstanceHandle()).isEqualTo(red);
        writer.unregisterInstance(red);
        final int afterUnregister = writer.getOfferedDeadlineMissedStatus().getTotalCount();
        // An unregistered instance is no longer monitored: a second instance's misses are what count from here.
        final InstanceHandle blue = writer.registerInstance(new Shape("BLUE", 0, 0, 0));
        final OfferedDeadlineMissedStatus[] later = new OfferedDeadlineMissedStatus[1];
        Dds.await("misses of the new instance", () ->
        {
            later[0] = writer.getOfferedDeadlineMissedStatus();
            return later[0].getLastInstanceHandle().equals(blue);
        });
        assertThat(later[0].getTotalCount()).isGreaterThan(afterUnregister);
    }

    @Test
    void theListenerHearsARequestedDeadlineMissed() throws Exception
    {
        final List<RequestedDeadlineMissedStatus> heard = new CopyOnWriteArrayList<>();
        final DataWriter<Shape> writer = writer(50);
        final DataReader<Shape> reader = reader(100, new DataReaderAdapter<>()
        {
            @Override
            public void onRequestedDeadlineMissed(final RequestedDeadlineMissedEvent<Shape> event)
            {
                heard.add(event.getStatus());
            }
        });
        matched(writer, reader);
        writer.write(new Shape("GREEN", 1, 1, 1));
        Dds.await("the listener", () -> !heard.isEmpty());
        assertThat(heard.get(0).getTotalCount()).isPositive();
        assertThat(heard.get(0).getTotalCountChange()).as("the first call: every miss is new")
            .isEqualTo(heard.get(0).getTotalCount());
    }

    @Test
    void aDeadlineSetOnAnEnabledReaderTakesEffect() throws Exception
    {
        final DataWriter<Shape> writer = writer(-1);
        final DataReader<Shape> reader = reader(-1, null);
        matched(writer, reader);
        writer.write(new Shape("RED", 1, 1, 1));
        Dds.await("the sample", () -> !reader.read(new ArrayList<>()).isEmpty());
        assertThat(reader.getRequestedDeadlineMissedStatus().getTotalCount()).as("infinite: never missed").isZero();
        // The writer first: a reader requesting 50 ms of a writer still offering an infinite period would no longer
        // match it (setQos re-matches), and its instance would lose its only writer.
        writer.setQos(writer.getQos().withPolicy(deadline(50)));
        reader.setQos(reader.getQos().withPolicy(deadline(50)));
        Dds.await("reader misses", () -> totalRequested(reader) > 0);
        Dds.await("writer misses", () -> writer.getOfferedDeadlineMissedStatus().getTotalCount() > 0);
        assertThat(reader.getQos().getDeadline().getPeriod().getDuration(TimeUnit.MILLISECONDS)).isEqualTo(50);
    }

    @Test
    void anOfferedPeriodLongerThanTheRequestedOneIsIncompatible() throws Exception
    {
        final DataWriter<Shape> writer = writer(200);
        final DataReader<Shape> reader = reader(100, null);
        Dds.await("offered incompatible", () -> writer.getStatusChanges()
            .contains(OfferedIncompatibleQosStatus.class));
        final OfferedIncompatibleQosStatus offered = writer.getOfferedIncompatibleQosStatus();
        assertThat(offered.getTotalCount()).isEqualTo(1);
        assertThat(offered.getLastPolicyClass()).isEqualTo(Deadline.class);
        assertThat(offered.getPolicies()).extracting(QosPolicyCount::getPolicyClass).containsExactly(Deadline.class);
        Dds.await("requested incompatible", () -> reader.getRequestedIncompatibleQosStatus().getTotalCount() == 1);
        assertThat(reader.getRequestedIncompatibleQosStatus().getLastPolicyClass()).isEqualTo(Deadline.class);
        assertThat(writer.getPublicationMatchedStatus().getCurrentCount()).isZero();
        assertThat(reader.getSubscriptionMatchedStatus().getCurrentCount()).isZero();
    }
}
