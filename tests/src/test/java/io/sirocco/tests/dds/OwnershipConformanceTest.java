package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.policy.Ownership;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.3.9 OWNERSHIP EXCLUSIVE with §2.2.3.10 OWNERSHIP_STRENGTH: per instance a reader keeps only the
 * samples of the strongest writer (on a tie, the lower GUID); ownership passes when the owner goes away, and when a
 * writer's (changeable) strength overtakes the owner's. A writer's samples arrive in the order it wrote them, so once
 * a later marker sample of a writer (another instance, which nobody owns yet) is read, its earlier samples were
 * delivered: whether they were kept never depends on timing.
 */
@Timeout(120)
class OwnershipConformanceTest extends OverEveryTransport
{
    private final DomainParticipant writers = participant();
    private final DomainParticipant readers = participant();
    private final Topic<Shape> writerTopic = writers.createTopic("Ownership", Shape.class);
    private final Topic<Shape> readerTopic = readers.createTopic("Ownership", Shape.class);
    private final Publisher publisher = writers.createPublisher();

    OwnershipConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    @Test
    void theStrongestWriterOwnsAnInstanceAndOwnershipPassesWhenItLeaves() throws Exception
    {
        final DataWriter<Shape> weak = writer(1);
        final DataWriter<Shape> strong = writer(10);
        final DataReader<Shape> reader = exclusiveReader(2);
        strong.write(new Shape("RED", 100, 0, 0));
        Dds.await("the strong writer's RED", () -> xs(reader, "RED").contains(100));
        weak.write(new Shape("RED", 1, 0, 0));
        weak.write(new Shape("RED", 2, 0, 0));
        marker(weak, reader, "BLUE", 1);
        assertThat(xs(reader, "RED")).as("the weaker writer's samples are dropped").containsExactly(100);
        strong.write(new Shape("RED", 101, 0, 0));
        Dds.await("the owner's next RED", () -> xs(reader, "RED").contains(101));
        strong.close();
        Dds.await("the strong writer unmatched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        weak.write(new Shape("RED", 3, 0, 0));
        Dds.await("the weaker writer, now the owner", () -> xs(reader, "RED").contains(3));
        assertThat(xs(reader, "RED")).containsExactly(100, 101, 3);
        assertThat(lastState(reader, "RED")).as("the weaker writer kept the instance alive")
            .isEqualTo(InstanceState.ALIVE);
    }

    @Test
    void aStrengthRaisedWithSetQosTakesOwnership() throws Exception
    {
        final DataWriter<Shape> weak = writer(1);
        final DataWriter<Shape> strong = writer(10);
        final DataReader<Shape> reader = exclusiveReader(2);
        strong.write(new Shape("RED", 100, 0, 0));
        Dds.await("the strong writer's RED", () -> xs(reader, "RED").contains(100));
        weak.setQos(weak.getQos().withPolicy(pf.OwnershipStrength().withValue(20)));
        Dds.await("the new strength announced", () ->
            reader.getMatchedPublicationData(weak.getInstanceHandle()).getOwnershipStrength().getValue() == 20);
        weak.write(new Shape("RED", 1, 0, 0));
        Dds.await("the now stronger writer's RED", () -> xs(reader, "RED").contains(1));
        strong.write(new Shape("RED", 101, 0, 0));
        marker(strong, reader, "BLUE", 1);
        assertThat(xs(reader, "RED")).as("the formerly strong writer is now the weaker").containsExactly(100, 1);
    }

    @Test
    void onATieTheLowerGuidOwns() throws Exception
    {
        final DataWriter<Shape> first = writer(5);
        final DataWriter<Shape> second = writer(5);
        final DataReader<Shape> reader = exclusiveReader(2);
        final boolean firstIsLower = Long.compareUnsigned(HandleImpl.valueOf(first.getInstanceHandle()),
            HandleImpl.valueOf(second.getInstanceHandle())) < 0;
        final DataWriter<Shape> lower = firstIsLower ? first : second;
        final DataWriter<Shape> higher = firstIsLower ? second : first;
        higher.write(new Shape("RED", 1, 0, 0));
        Dds.await("the higher GUID's RED (nobody owned the instance)", () -> xs(reader, "RED").contains(1));
        lower.write(new Shape("RED", 2, 0, 0));
        Dds.await("the lower GUID's RED", () -> xs(reader, "RED").contains(2));
        higher.write(new Shape("RED", 3, 0, 0));
        marker(higher, reader, "BLUE", 1);
        assertThat(xs(reader, "RED")).containsExactly(1, 2);
    }

    @Test
    void aSharedReaderKeepsEveryWritersSamples() throws Exception
    {
        final DataWriter<Shape> weak = writer(Ownership.Kind.SHARED, 1);
        final DataWriter<Shape> strong = writer(Ownership.Kind.SHARED, 10);
        final Subscriber subscriber = readers.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(readerTopic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        Dds.await("matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 2);
        strong.write(new Shape("RED", 100, 0, 0));
        Dds.await("the strong writer's RED", () -> xs(reader, "RED").contains(100));
        weak.write(new Shape("RED", 1, 0, 0));
        Dds.await("the weak writer's RED", () -> xs(reader, "RED").contains(1));
        assertThat(xs(reader, "RED")).containsExactly(100, 1);
    }

    @Test
    void ownershipKindsMustBeEqualToMatch()
    {
        final DataWriter<Shape> shared = writer(Ownership.Kind.SHARED, 1);
        final DataWriter<Shape> exclusive = writer(Ownership.Kind.EXCLUSIVE, 1);
        final DataReader<Shape> exclusiveReader = reader(Ownership.Kind.EXCLUSIVE);
        final DataReader<Shape> sharedReader = reader(Ownership.Kind.SHARED);
        for (final DataReader<Shape> reader : List.of(exclusiveReader, sharedReader))
        {
            Dds.await("one match, one incompatible", () ->
                reader.getSubscriptionMatchedStatus().getCurrentCount() == 1 &&
                reader.getRequestedIncompatibleQosStatus().getTotalCount() >= 1);
            assertThat(reader.getRequestedIncompatibleQosStatus().getLastPolicyClass()).isEqualTo(Ownership.class);
        }
        assertThat(exclusiveReader.getMatchedPublications()).containsExactly(exclusive.getInstanceHandle());
        assertThat(sharedReader.getMatchedPublications()).containsExactly(shared.getInstanceHandle());
    }

    private DataReader<Shape> reader(final Ownership.Kind kind)
    {
        final Subscriber subscriber = readers.createSubscriber();
        return subscriber.createDataReader(readerTopic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.Ownership().withKind(kind)));
    }

    private DataWriter<Shape> writer(final int strength)
    {
        return writer(Ownership.Kind.EXCLUSIVE, strength);
    }

    /** A RELIABLE, KEEP_ALL writer of that ownership and strength that keeps its instances when it is deleted. */
    private DataWriter<Shape> writer(final Ownership.Kind kind, final int strength)
    {
        return publisher.createDataWriter(writerTopic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepAll(),
            pf.Ownership().withKind(kind), pf.OwnershipStrength().withValue(strength),
            pf.WriterDataLifecycle().withAutDisposeUnregisteredInstances(false)));
    }

    private DataReader<Shape> exclusiveReader(final int writerCount)
    {
        final Subscriber subscriber = readers.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(readerTopic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll(),
                pf.Ownership().withKind(Ownership.Kind.EXCLUSIVE)));
        Dds.await("matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == writerCount);
        return reader;
    }

    /** Writes a marker on an instance of its own and waits for it: the writer's earlier samples have arrived. */
    private static void marker(final DataWriter<Shape> writer, final DataReader<Shape> reader, final String color,
        final int x) throws Exception
    {
        writer.write(new Shape(color, x, 0, 0));
        Dds.await("the marker " + color, () -> xs(reader, color).contains(x));
    }

    private static List<Integer> xs(final DataReader<Shape> reader, final String color)
    {
        final List<Integer> xs = new ArrayList<>();
        for (final Sample<Shape> sample : reader.read(new ArrayList<>()))
        {
            if (sample.getData() != null && sample.getData().color.equals(color))
            {
                xs.add(sample.getData().x);
            }
        }
        return xs;
    }

    private static InstanceState lastState(final DataReader<Shape> reader, final String color)
    {
        InstanceState state = null;
        for (final Sample<Shape> sample : reader.read(new ArrayList<>()))
        {
            if (sample.getData() != null && sample.getData().color.equals(color))
            {
                state = sample.getInstanceState();
            }
        }
        return state;
    }
}
