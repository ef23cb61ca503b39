package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.ImmutablePolicyException;
import org.omg.dds.core.InconsistentPolicyException;
import org.omg.dds.core.policy.Deadline;
import org.omg.dds.core.status.OfferedIncompatibleQosStatus;
import org.omg.dds.core.status.PublicationMatchedStatus;
import org.omg.dds.core.status.RequestedIncompatibleQosStatus;
import org.omg.dds.core.status.SubscriptionMatchedStatus;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.ParticipantBuiltinTopicData;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicBuiltinTopicData;

/**
 * DDS 1.4 §2.2.3 (the QoS table's "changeable" column) and §2.2.2.1.1 set_qos: a changeable policy set on an enabled
 * entity takes effect and reaches the matched remote endpoints, which re-match (DEADLINE, PARTITION) or see the new
 * value (USER_DATA, GROUP_DATA, TOPIC_DATA in the built-in topics and the matched-endpoint data); an immutable one
 * throws ImmutablePolicyException and an inconsistent one InconsistentPolicyException, naming the policy. The writer
 * and the reader are in two participants, so the change travels through discovery. OWNERSHIP_STRENGTH and LIFESPAN
 * are covered in OwnershipConformanceTest and LifespanConformanceTest.
 */
@Timeout(180)
class SetQosConformanceTest extends OverEveryTransport
{
    private final DomainParticipant writers = participant();
    private final DomainParticipant readers = participant();
    private final Topic<Shape> writerTopic = writers.createTopic("SetQos", Shape.class);
    private final Topic<Shape> readerTopic = readers.createTopic("SetQos", Shape.class);

    SetQosConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    private Deadline deadlineMs(final long periodMs)
    {
        return pf.Deadline().withPeriod(periodMs, TimeUnit.MILLISECONDS);
    }

    private DataWriter<Shape> writer(final Publisher publisher, final Deadline deadline)
    {
        return publisher.createDataWriter(writerTopic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable(), deadline));
    }

    private DataReader<Shape> reader(final Subscriber subscriber, final Deadline deadline)
    {
        return subscriber.createDataReader(readerTopic, subscriber.getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), deadline));
    }

    private static void matchedCounts(final DataWriter<Shape> writer, final DataReader<Shape> reader,
        final int current, final int total)
    {
        Dds.await("current " + current + ", total " + total, () ->
        {
            final PublicationMatchedStatus pub = writer.getPublicationMatchedStatus();
            final SubscriptionMatchedStatus sub = reader.getSubscriptionMatchedStatus();
            return pub.getCurrentCount() == current && pub.getTotalCount() == total &&
                sub.getCurrentCount() == current && sub.getTotalCount() == total;
        });
    }

    private static List<String> colors(final DataReader<Shape> reader)
    {
        final List<String> colors = new ArrayList<>();
        for (final Sample<Shape> sample : reader.read(new ArrayList<>()))
        {
            if (sample.getData() != null)
            {
                colors.add(sample.getData().color);
            }
        }
        return colors;
    }

    @Test
    void aWriterWhoseOfferedDeadlineBecomesTooLongIsUnmatchedAndMatchedAgainWhenItIsShortAgain() throws Exception
    {
        final DataWriter<Shape> writer = writer(writers.createPublisher(), deadlineMs(100));
        final DataReader<Shape> reader = reader(readers.createSubscriber(), deadlineMs(10_000));
        matchedCounts(writer, reader, 1, 1);
        writer.setQos(writer.getQos().withPolicy(deadlineMs(20_000)));
        matchedCounts(writer, reader, 0, 1);
        Dds.await("requested incompatible", () -> reader.getStatusChanges()
            .contains(RequestedIncompatibleQosStatus.class));
        final RequestedIncompatibleQosStatus requested = reader.getRequestedIncompatibleQosStatus();
        assertThat(requested.getTotalCount()).isEqualTo(1);
        assertThat(requested.getTotalCountChange()).isEqualTo(1);
        assertThat(requested.getLastPolicyClass()).isEqualTo(Deadline.class);
        Dds.await("offered incompatible", () -> writer.getOfferedIncompatibleQosStatus().getTotalCount() == 1);
        assertThat(writer.getOfferedIncompatibleQosStatus().getLastPolicyClass()).isEqualTo(Deadline.class);
        assertThat(reader.getMatchedPublications()).isEmpty();

        writer.setQos(writer.getQos().withPolicy(deadlineMs(5_000)));
        matchedCounts(writer, reader, 1, 2);
        assertThat(reader.getMatchedPublicationData(writer.getInstanceHandle()).getDeadline().getPeriod()
            .getDuration(TimeUnit.MILLISECONDS)).isEqualTo(5_000);
        writer.write(new Shape("RED", 1, 1, 1));
        Dds.await("a sample after the re-match", () -> colors(reader).contains("RED"));
    }

    @Test
    void aReaderWhoseRequestedDeadlineBecomesTooShortIsUnmatched() throws Exception
    {
        final DataWriter<Shape> writer = writer(writers.createPublisher(), deadlineMs(1_000));
        final DataReader<Shape> reader = reader(readers.createSubscriber(), deadlineMs(10_000));
        matchedCounts(writer, reader, 1, 1);
        reader.setQos(reader.getQos().withPolicy(deadlineMs(500)));
        matchedCounts(writer, reader, 0, 1);
        Dds.await("offered incompatible", () -> writer.getStatusChanges()
            .contains(OfferedIncompatibleQosStatus.class));
        final OfferedIncompatibleQosStatus offered = writer.getOfferedIncompatibleQosStatus();
        assertThat(offered.getTotalCount()).isEqualTo(1);
        assertThat(offered.getLastPolicyClass()).isEqualTo(Deadline.class);
        assertThat(writer.getMatchedSubscriptions()).isEmpty();
        reader.setQos(reader.getQos().withPolicy(deadlineMs(2_000)));
        matchedCounts(writer, reader, 1, 2);
        assertThat(writer.getMatchedSubscriptionData(reader.getInstanceHandle()).getDeadline().getPeriod()
            .getDuration(TimeUnit.MILLISECONDS)).isEqualTo(2_000);
    }

    @Test
    void aPartitionChangeOnThePublisherOrSubscriberUnmatchesAndRematches() throws Exception
    {
        final Publisher publisher = writers.createPublisher(writers.getDefaultPublisherQos().withPolicy(
            pf.Partition().withName(List.of("A"))));
        final Subscriber subscriber = readers.createSubscriber(readers.getDefaultSubscriberQos().withPolicy(
            pf.Partition().withName(List.of("A"))));
        final DataWriter<Shape> writer = writer(publisher, pf.Deadline());
        final DataReader<Shape> reader = reader(subscriber, pf.Deadline());
        matchedCounts(writer, reader, 1, 1);

        publisher.setQos(publisher.getQos().withPolicy(pf.Partition().withName(List.of("B"))));
        matchedCounts(writer, reader, 0, 1);
        assertThat(reader.getSubscriptionMatchedStatus().getCurrentCountChange()).as("read just now").isZero();
        assertThat(reader.getRequestedIncompatibleQosStatus().getTotalCount())
            .as("a partition mismatch is not an incompatible QoS").isZero();

        subscriber.setQos(subscriber.getQos().withPolicy(pf.Partition().withName(List.of("B", "C"))));
        matchedCounts(writer, reader, 1, 2);
        assertThat(reader.getMatchedPublicationData(writer.getInstanceHandle()).getPartition().getName())
            .containsExactly("B");
        writer.write(new Shape("BLUE", 2, 2, 2));
        Dds.await("a sample in partition B", () -> colors(reader).contains("BLUE"));
    }

    @Test
    void userAndGroupDataChangesReachTheMatchedEndpoints() throws Exception
    {
        final Publisher publisher = writers.createPublisher();
        final Subscriber subscriber = readers.createSubscriber();
        final DataWriter<Shape> writer = writer(publisher, pf.Deadline());
        final DataReader<Shape> reader = reader(subscriber, pf.Deadline());
        matchedCounts(writer, reader, 1, 1);
        writer.setQos(writer.getQos().withPolicy(pf.UserData().withValue(new byte[] {7, 8}, 0, 2)));
        reader.setQos(reader.getQos().withPolicy(pf.UserData().withValue(new byte[] {9}, 0, 1)));
        publisher.setQos(publisher.getQos().withPolicy(pf.GroupData().withValue(new byte[] {1, 2, 3}, 0, 3)));
        subscriber.setQos(subscriber.getQos().withPolicy(pf.GroupData().withValue(new byte[] {4}, 0, 1)));
        Dds.await("the writer's USER_DATA and GROUP_DATA at the reader", () ->
        {
            final var data = reader.getMatchedPublicationData(writer.getInstanceHandle());
            return data.getUserData().getValue().length == 2 && data.getGroupData().getValue().length == 3;
        });
        final var publication = reader.getMatchedPublicationData(writer.getInstanceHandle());
        assertThat(publication.getUserData().getValue()).containsExactly(7, 8);
        assertThat(publication.getGroupData().getValue()).containsExactly(1, 2, 3);
        Dds.await("the reader's USER_DATA and GROUP_DATA at the writer", () ->
        {
            final var data = writer.getMatchedSubscriptionData(reader.getInstanceHandle());
            return data.getUserData().getValue().length == 1 && data.getGroupData().getValue().length == 1;
        });
        final var subscription = writer.getMatchedSubscriptionData(reader.getInstanceHandle());
        assertThat(subscription.getUserData().getValue()).containsExactly(9);
        assertThat(subscription.getGroupData().getValue()).containsExactly(4);
        assertThat(writer.getPublicationMatchedStatus().getTotalCount()).as("still the one match").isEqualTo(1);
    }

    @Test
    void participantUserDataAndTopicDataChangesReachTheBuiltinTopics() throws Exception
    {
        final DataReader<ParticipantBuiltinTopicData> participants =
            readers.getBuiltinSubscriber().lookupDataReader("DCPSParticipant");
        final DataReader<TopicBuiltinTopicData> topics = readers.getBuiltinSubscriber().lookupDataReader("DCPSTopic");
        writers.setQos(writers.getQos().withPolicy(pf.UserData().withValue(new byte[] {5, 6}, 0, 2)));
        writerTopic.setQos(writerTopic.getQos().withPolicy(writerTopic.getQos().getTopicData().withValue(new byte[] {42}, 0, 1)));
        Dds.await("the participant's new USER_DATA", () ->
        {
            for (final Sample<ParticipantBuiltinTopicData> sample : participants.read(new ArrayList<>()))
            {
                final ParticipantBuiltinTopicData data = sample.getData();
                if (data != null && data.getUserData().getValue().length == 2)
                {
                    return data.getUserData().getValue()[0] == 5 && data.getUserData().getValue()[1] == 6;
                }
            }
            return false;
        });
        Dds.await("the topic's new TOPIC_DATA", () ->
        {
            for (final Sample<TopicBuiltinTopicData> sample : topics.read(new ArrayList<>()))
            {
                final TopicBuiltinTopicData data = sample.getData();
                if (data != null && data.getTopicData().getValue().length == 1)
                {
                    return data.getTopicData().getValue()[0] == 42 && "SetQos".equals(data.getName());
                }
            }
            return false;
        });
    }

    @Test
    void immutableAndInconsistentChangesAreRefusedNamingThePolicy()
    {
        final Publisher publisher = writers.createPublisher();
        assertThatThrownBy(() -> publisher.setQos(publisher.getQos().withPolicy(
            publisher.getQos().getPresentation().withCoherentAccess(true)))).isInstanceOf(ImmutablePolicyException.class)
            .hasMessageContaining("Presentation");
        assertThatThrownBy(() -> writerTopic.setQos(writerTopic.getQos().withPolicy(
            pf.Durability().withTransientLocal()))).isInstanceOf(ImmutablePolicyException.class)
            .hasMessageContaining("Topic 'SetQos'").hasMessageContaining("Durability");
        final Subscriber subscriber = readers.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(readerTopic, subscriber.getDefaultDataReaderQos()
            .withPolicies(deadlineMs(1_000), pf.TimeBasedFilter().withMinimumSeparation(100, TimeUnit.MILLISECONDS)));
        assertThatThrownBy(() -> reader.setQos(reader.getQos().withPolicy(deadlineMs(50))))
            .isInstanceOf(InconsistentPolicyException.class).hasMessageContaining("Deadline")
            .hasMessageContaining("TimeBasedFilter");
        assertThat(reader.getQos().getDeadline().getPeriod().getDuration(TimeUnit.MILLISECONDS))
            .as("the refused QoS is not stored").isEqualTo(1_000);
    }
}
