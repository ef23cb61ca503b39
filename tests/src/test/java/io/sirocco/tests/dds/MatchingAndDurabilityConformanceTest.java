package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.QosPolicyCount;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.core.status.OfferedIncompatibleQosStatus;
import org.omg.dds.core.status.RequestedIncompatibleQosStatus;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * Request/offered matching with the matched and incompatible-QoS statuses (DDS 1.4 §2.2.3), partitions, and
 * TRANSIENT_LOCAL history for a late joiner (the writer's HISTORY depth per instance, not a service's).
 */
@Timeout(60)
class MatchingAndDurabilityConformanceTest extends OverEveryTransport
{
    private final DomainParticipant pubSide = participant();
    private final DomainParticipant subSide = participant();
    private final Topic<Shape> pubTopic = pubSide.createTopic("Square", Shape.class);
    private final Topic<Shape> subTopic = subSide.createTopic("Square", Shape.class);

    MatchingAndDurabilityConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    @AfterEach
    void close()
    {
        subSide.close();
        pubSide.close();
    }

    private DataWriter<Shape> writer(final Publisher publisher, final Reliability reliability,
        final Durability durability, final int depth)
    {
        return publisher.createDataWriter(pubTopic, publisher.getDefaultDataWriterQos().withPolicies(reliability,
            durability, pf.History().withKeepLast(depth)));
    }

    private DataReader<Shape> reader(final Subscriber subscriber, final Reliability reliability,
        final Durability durability)
    {
        return subscriber.createDataReader(subTopic, subscriber.getDefaultDataReaderQos().withPolicies(reliability,
            durability, pf.History().withKeepAll()));
    }

    @Test
    void matchedStatusesCountBothSides() throws Exception
    {
        final DataWriter<Shape> writer = writer(pubSide.createPublisher(), pf.Reliability().withReliable(),
            pf.Durability().withVolatile(), 1);
        final DataReader<Shape> r1 = reader(subSide.createSubscriber(), pf.Reliability().withReliable(),
            pf.Durability().withVolatile());
        final DataReader<Shape> r2 = reader(subSide.createSubscriber(), pf.Reliability().withBestEffort(),
            pf.Durability().withVolatile());
        Dds.await("two matched readers", () -> writer.getMatchedSubscriptions().size() == 2);
        assertThat(writer.getPublicationMatchedStatus().getTotalCount()).isEqualTo(2);
        assertThat(writer.getMatchedSubscriptionData(r1.getInstanceHandle()).getTopicName()).isEqualTo("Square");
        Dds.await("reader matched", () -> r1.getMatchedPublications().contains(writer.getInstanceHandle()));
        // Each endpoint learns of a match on its own: the writer and r1 knowing of it says nothing about r2.
        Dds.await("second reader matched", () -> r2.getMatchedPublications().contains(writer.getInstanceHandle()));
        assertThat(r2.getMatchedPublicationData(writer.getInstanceHandle()).getReliability().getKind())
            .isEqualTo(Reliability.Kind.RELIABLE);
        r2.close();
        Dds.await("one matched reader", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
    }

    @Test
    void reliableReaderAndBestEffortWriterAreIncompatible() throws Exception
    {
        final DataWriter<Shape> writer = writer(pubSide.createPublisher(), pf.Reliability().withBestEffort(),
            pf.Durability().withVolatile(), 1);
        final DataReader<Shape> reader = reader(subSide.createSubscriber(), pf.Reliability().withReliable(),
            pf.Durability().withTransientLocal());
        Dds.await("offered incompatible", () -> writer.getStatusChanges()
            .contains(OfferedIncompatibleQosStatus.class));
        final OfferedIncompatibleQosStatus offered = writer.getOfferedIncompatibleQosStatus();
        assertThat(offered.getTotalCount()).isEqualTo(1);
        assertThat(offered.getPolicies()).extracting(QosPolicyCount::getPolicyClass)
            .contains(Reliability.class, Durability.class);
        Dds.await("requested incompatible", () -> reader.getRequestedIncompatibleQosStatus().getTotalCount() == 1);
        final RequestedIncompatibleQosStatus requested = reader.getRequestedIncompatibleQosStatus();
        assertThat(requested.getPolicies()).extracting(QosPolicyCount::getPolicyClass).contains(Reliability.class);
        assertThat(writer.getPublicationMatchedStatus().getCurrentCount()).isZero();
        assertThat(reader.getSubscriptionMatchedStatus().getCurrentCount()).isZero();
    }

    @Test
    void partitionsMustIntersectAndWildcardsMatch() throws Exception
    {
        final Publisher inA = pubSide.createPublisher(pubSide.getDefaultPublisherQos().withPolicy(
            pf.Partition().withName(List.of("sensors/a"))));
        final Subscriber inB = subSide.createSubscriber(subSide.getDefaultSubscriberQos().withPolicy(
            pf.Partition().withName(List.of("sensors/b"))));
        final Subscriber inAny = subSide.createSubscriber(subSide.getDefaultSubscriberQos().withPolicy(
            pf.Partition().withName(List.of("sensors/*"))));
        final DataWriter<Shape> writer = writer(inA, pf.Reliability().withReliable(), pf.Durability().withVolatile(),
            1);
        final DataReader<Shape> wrong = reader(inB, pf.Reliability().withReliable(), pf.Durability().withVolatile());
        final DataReader<Shape> wildcard = reader(inAny, pf.Reliability().withReliable(),
            pf.Durability().withVolatile());
        Dds.await("wildcard match", () -> wildcard.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        writer.write(new Shape("RED", 1, 1, 1));
        writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
        Dds.await("wildcard reader has data", () -> !wildcard.read(new ArrayList<>()).isEmpty());
        assertThat(wrong.read(new ArrayList<>())).isEmpty();
        assertThat(wrong.getSubscriptionMatchedStatus().getTotalCount()).isZero();
        // Each endpoint learns of a match on its own: the writer may hear of the wildcard reader after its sample.
        Dds.await("writer matched the wildcard reader", () ->
            writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        assertThat(writer.getPublicationMatchedStatus().getTotalCount()).isEqualTo(1);
    }

    @Test
    void transientLocalLateJoinerGetsTheLastDepthSamplesPerInstance() throws Exception
    {
        final DataWriter<Shape> writer = writer(pubSide.createPublisher(), pf.Reliability().withReliable(),
            pf.Durability().withTransientLocal(), 2);
        for (int i = 0; i < 5; i++)
        {
            writer.write(new Shape("RED", i, 0, 1));
            writer.write(new Shape("BLUE", 100 + i, 0, 1));
        }
        final DataReader<Shape> late = reader(subSide.createSubscriber(), pf.Reliability().withReliable(),
            pf.Durability().withTransientLocal());
        final DataReader<Shape> volatileLate = reader(subSide.createSubscriber(), pf.Reliability().withReliable(),
            pf.Durability().withVolatile());
        Dds.await("late joiner matched", () -> late.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        late.waitForHistoricalData(30, TimeUnit.SECONDS);
        writer.write(new Shape("RED", 5, 0, 1));
        writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
        Dds.await("history and the live sample", () -> late.read(new ArrayList<>()).size() == 5);
        final List<Sample<Shape>> got = late.take(new ArrayList<>());
        assertThat(got).extracting(s -> s.getData().color + s.getData().x)
            .containsExactlyInAnyOrder("RED3", "RED4", "RED5", "BLUE103", "BLUE104");
        Dds.await("volatile reader matched", () -> volatileLate.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        assertThat(volatileLate.take(new ArrayList<>())).extracting(s -> s.getData().x).doesNotContain(3, 4, 103);
    }
}
