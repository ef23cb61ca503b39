package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.2.2.1 puts no order on the creation of a participant's DataWriters and DataReaders: a participant
 * that created a reader of a topic may create a writer of it afterwards, and both match each other and any remote
 * endpoint (on the subgroup bus the member's topic subgroup gains the writer role with the next view).
 */
@Timeout(120)
class CreationOrderConformanceTest extends OverEveryTransport
{
    CreationOrderConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    private static DataReader<Shape> reader(final DomainParticipant p, final Topic<Shape> topic,
        final PolicyFactory pf, final boolean reliable)
    {
        final Subscriber subscriber = p.createSubscriber();
        return subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos().withPolicies(
            reliable ? pf.Reliability().withReliable() : pf.Reliability().withBestEffort(), pf.History().withKeepAll()));
    }

    private static DataWriter<Shape> writer(final DomainParticipant p, final Topic<Shape> topic,
        final PolicyFactory pf, final boolean reliable)
    {
        final Publisher publisher = p.createPublisher();
        return publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos().withPolicies(
            reliable ? pf.Reliability().withReliable() : pf.Reliability().withBestEffort(), pf.History().withKeepAll()));
    }

    private static List<Integer> xs(final DataReader<Shape> reader)
    {
        final List<Integer> xs = new ArrayList<>();
        for (final Sample<Shape> s : reader.read(new ArrayList<>()))
        {
            if (s.getData() != null)
            {
                xs.add(s.getData().x);
            }
        }
        return xs;
    }

    @Test
    void aReliableWriterCreatedAfterAReaderOfItsTopicMatchesAndDelivers() throws Exception
    {
        final DomainParticipant p = participant();
        final Topic<Shape> topic = p.createTopic("ReaderFirst", Shape.class);
        final DataReader<Shape> reader = reader(p, topic, pf, true);
        final DataWriter<Shape> writer = writer(p, topic, pf, true);
        Dds.await("writer matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        Dds.await("reader matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        for (int i = 0; i < 10; i++)
        {
            writer.write(new Shape("RED", i, 0, 1));
        }
        Dds.await("ten samples", () -> xs(reader).size() == 10);
        assertThat(xs(reader)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void aWriterMatchedBeforeItsMemberSendsStillDeliversWhatItWritesAtOnce() throws Exception
    {
        // The writer sees the reader matched as soon as the reader's record is handed over, possibly before the view
        // that promotes this member to a sender of the topic subgroup: nothing written then may be lost.
        final DomainParticipant p = participant();
        final Topic<Shape> topic = p.createTopic("WriterMatchedFirst", Shape.class);
        final DataReader<Shape> reader = reader(p, topic, pf, true);
        final DataWriter<Shape> writer = writer(p, topic, pf, true);
        Dds.await("writer matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        for (int i = 0; i < 10; i++)
        {
            writer.write(new Shape("RED", i, 0, 1));
        }
        Dds.await("ten samples", () -> xs(reader).size() == 10);
        assertThat(xs(reader)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void aWriterAfterAReaderAlsoReachesARemoteReaderAndHearsARemoteWriter() throws Exception
    {
        final DomainParticipant p = participant();
        final DomainParticipant remote = participant();
        final Topic<Shape> topic = p.createTopic("ReaderFirstRemote", Shape.class);
        final Topic<Shape> remoteTopic = remote.createTopic("ReaderFirstRemote", Shape.class);
        final DataReader<Shape> localReader = reader(p, topic, pf, true);
        final DataWriter<Shape> remoteWriter = writer(remote, remoteTopic, pf, true);
        Dds.await("local reader hears the remote writer",
            () -> localReader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        remoteWriter.write(new Shape("BLUE", 100, 0, 1));
        Dds.await("remote sample", () -> xs(localReader).contains(100));

        final DataReader<Shape> remoteReader = reader(remote, remoteTopic, pf, true);
        final DataWriter<Shape> localWriter = writer(p, topic, pf, true);
        Dds.await("local writer matched both readers",
            () -> localWriter.getPublicationMatchedStatus().getCurrentCount() == 2);
        Dds.await("remote reader matched both writers",
            () -> remoteReader.getSubscriptionMatchedStatus().getCurrentCount() == 2);
        localWriter.write(new Shape("GREEN", 7, 0, 1));
        Dds.await("the local writer's sample at both readers",
            () -> xs(localReader).contains(7) && xs(remoteReader).contains(7));
        remoteWriter.write(new Shape("BLUE", 101, 0, 1));
        Dds.await("the remote writer still reaches the local reader", () -> xs(localReader).contains(101));
        assertThat(xs(localReader)).containsExactlyInAnyOrder(100, 7, 101);
    }

    @Test
    void aBestEffortWriterAfterABestEffortReaderMatchesAndDelivers() throws Exception
    {
        final DomainParticipant p = participant();
        final Topic<Shape> topic = p.createTopic("ReaderFirstBestEffort", Shape.class);
        final DataReader<Shape> reader = reader(p, topic, pf, false);
        final DataWriter<Shape> writer = writer(p, topic, pf, false);
        Dds.await("writer matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        Dds.await("reader matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        writer.write(new Shape("RED", 42, 0, 1));
        Dds.await("the sample", () -> xs(reader).contains(42));
    }
}
