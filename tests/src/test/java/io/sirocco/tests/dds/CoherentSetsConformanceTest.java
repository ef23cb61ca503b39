package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.policy.Presentation.AccessScopeKind;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.3.6 PRESENTATION coherent_access at TOPIC and GROUP scope, with §2.2.2.4.1.10/11
 * begin/endCoherentChanges and §2.2.2.5.2.8/9 begin/endAccess: the samples a Publisher's writers write inside a
 * coherent set reach a reader that requests coherent access all or nothing. Writers and readers are in two
 * participants.
 *
 * <p>How "invisible until the end" is shown without waiting for time to pass: a second publisher of the same topic
 * (same PRESENTATION, never in a set) writes a GREEN marker after the set's samples. The topic subgroup delivers in
 * one total order, so once the reader shows the marker it has received every sample of the set written before it;
 * none of them may be visible. A set delivered piecemeal fails there.
 */
@Timeout(240)
class CoherentSetsConformanceTest extends OverEveryTransport
{
    private static final int SET_SIZE = 10;

    private final DomainParticipant writers = participant();
    private final DomainParticipant readers = participant();

    CoherentSetsConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    private Presentation coherent(final AccessScopeKind scope)
    {
        return writers.getDefaultPublisherQos().getPresentation().withAccessScope(scope).withCoherentAccess(true);
    }

    private Publisher publisher(final AccessScopeKind scope)
    {
        return writers.createPublisher(writers.getDefaultPublisherQos().withPolicy(coherent(scope)));
    }

    private Subscriber subscriber(final AccessScopeKind scope)
    {
        return readers.createSubscriber(readers.getDefaultSubscriberQos().withPolicy(coherent(scope)));
    }

    private static DataWriter<Shape> writer(final Publisher publisher, final Topic<Shape> topic)
    {
        final var pf = org.omg.dds.core.policy.PolicyFactory.getPolicyFactory(publisher.getEnvironment());
        return publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepAll()));
    }

    private static DataReader<Shape> reader(final Subscriber subscriber, final Topic<Shape> topic)
    {
        final var pf = org.omg.dds.core.policy.PolicyFactory.getPolicyFactory(subscriber.getEnvironment());
        return subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepAll()));
    }

    /** Waits (up to 90 s) for an event that makes the condition true. */
    private static void await(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    /** The valid samples the reader holds whose color is {@code color}. */
    private static int count(final DataReader<Shape> reader, final String color)
    {
        int n = 0;
        for (final Sample<Shape> sample : reader.read(new ArrayList<>()))
        {
            if (sample.getData() != null && color.equals(sample.getData().color))
            {
                n++;
            }
        }
        return n;
    }

    /** The samples of the set (RED and BLUE) the reader holds. */
    private static int setSamples(final DataReader<Shape> reader)
    {
        return count(reader, "RED") + count(reader, "BLUE");
    }

    private static void awaitMatched(final DataReader<Shape> reader, final int writerCount)
    {
        await(writerCount + " writers matched", () ->
            reader.getSubscriptionMatchedStatus().getCurrentCount() == writerCount);
    }

    /**
     * Two topics written by one GROUP-scope publisher (the set) and by a second one (markers written after it), read
     * by one GROUP-scope subscriber; returned once each reader has matched both writers of its topic.
     */
    private record GroupPair(Publisher publisher, DataWriter<Shape> writeA, DataWriter<Shape> writeB,
        DataWriter<Shape> markA, DataWriter<Shape> markB, Subscriber subscriber, DataReader<Shape> readA,
        DataReader<Shape> readB)
    {
    }

    private GroupPair groupPair(final String topicA, final String topicB)
    {
        final Topic<Shape> writerA = writers.createTopic(topicA, Shape.class);
        final Topic<Shape> writerB = writers.createTopic(topicB, Shape.class);
        final Publisher publisher = publisher(AccessScopeKind.GROUP);
        final Publisher markers = publisher(AccessScopeKind.GROUP);
        final Subscriber subscriber = subscriber(AccessScopeKind.GROUP);
        final GroupPair pair = new GroupPair(publisher, writer(publisher, writerA), writer(publisher, writerB),
            writer(markers, writerA), writer(markers, writerB), subscriber,
            reader(subscriber, readers.createTopic(topicA, Shape.class)),
            reader(subscriber, readers.createTopic(topicB, Shape.class)));
        awaitMatched(pair.readA(), 2);
        awaitMatched(pair.readB(), 2);
        return pair;
    }

    /** Writes {@code n} samples alternating the RED and BLUE instances; returns how many of each. */
    private static void writeSet(final DataWriter<Shape> writer, final int n, final int offset) throws Exception
    {
        for (int i = 0; i < n; i++)
        {
            writer.write(new Shape(i % 2 == 0 ? "RED" : "BLUE", offset + i, i, 1));
        }
    }

    @Test
    void aTopicScopeSetOverTwoInstancesIsInvisibleUntilItsEndThenVisibleWhole() throws Exception
    {
        final Topic<Shape> writerTopic = writers.createTopic("CoherentTopic", Shape.class);
        final Topic<Shape> readerTopic = readers.createTopic("CoherentTopic", Shape.class);
        final Publisher publisher = publisher(AccessScopeKind.TOPIC);
        final DataWriter<Shape> writer = writer(publisher, writerTopic);
        final DataWriter<Shape> marker = writer(publisher(AccessScopeKind.TOPIC), writerTopic);
        final DataReader<Shape> reader = reader(subscriber(AccessScopeKind.TOPIC), readerTopic);
        awaitMatched(reader, 2);

        publisher.beginCoherentChanges();
        writeSet(writer, SET_SIZE, 0);
        marker.write(new Shape("GREEN", 1, 0, 1));
        await("the marker written after the set", () -> count(reader, "GREEN") == 1);
        assertThat(setSamples(reader)).as("samples of an open coherent set").isZero();

        publisher.endCoherentChanges();
        marker.write(new Shape("GREEN", 2, 0, 1));
        await("the marker written after the set's end", () -> count(reader, "GREEN") == 2);
        assertThat(count(reader, "RED")).as("RED samples of the ended set").isEqualTo(SET_SIZE / 2);
        assertThat(count(reader, "BLUE")).as("BLUE samples of the ended set").isEqualTo(SET_SIZE / 2);

        // Outside a set the same writer's samples come as they are written.
        writer.write(new Shape("RED", 100, 0, 1));
        await("a sample written outside a set", () -> count(reader, "RED") == SET_SIZE / 2 + 1);
        assertThat(reader.getSampleLostStatus().getTotalCount()).isZero();
    }

    @Test
    void aGroupScopeSetOverTwoTopicsIsInvisibleUntilItsEndThenVisibleInBothReadersAtOnce() throws Exception
    {
        final GroupPair g = groupPair("CoherentA", "CoherentB");
        final Publisher publisher = g.publisher();
        final Subscriber subscriber = g.subscriber();
        final DataWriter<Shape> writeA = g.writeA();
        final DataWriter<Shape> writeB = g.writeB();
        final DataWriter<Shape> markA = g.markA();
        final DataWriter<Shape> markB = g.markB();
        final DataReader<Shape> readA = g.readA();
        final DataReader<Shape> readB = g.readB();

        publisher.beginCoherentChanges();
        writeSet(writeA, SET_SIZE, 0);
        writeSet(writeB, SET_SIZE / 2, 0);
        markA.write(new Shape("GREEN", 1, 0, 1));
        markB.write(new Shape("GREEN", 1, 0, 1));
        await("the markers written after the set", () -> count(readA, "GREEN") == 1 && count(readB, "GREEN") == 1);
        assertThat(setSamples(readA)).as("topic A samples of an open coherent set").isZero();
        assertThat(setSamples(readB)).as("topic B samples of an open coherent set").isZero();

        // Inside an access the subscriber's readers do not change: the set ends, both parts arrive, nothing shows.
        subscriber.beginAccess();
        publisher.endCoherentChanges();
        markA.write(new Shape("GREEN", 2, 0, 1));
        markB.write(new Shape("GREEN", 2, 0, 1));
        await("the markers written after the set's end", () -> count(readA, "GREEN") == 2 &&
            count(readB, "GREEN") == 2);
        assertThat(setSamples(readA)).as("topic A part while an access is open").isZero();
        assertThat(setSamples(readB)).as("topic B part while an access is open").isZero();
        subscriber.endAccess();
        // Both parts had arrived (the markers came after them), so ending the access made the whole set visible.
        assertThat(setSamples(readA)).as("topic A part after endAccess").isEqualTo(SET_SIZE);
        assertThat(setSamples(readB)).as("topic B part after endAccess").isEqualTo(SET_SIZE / 2);

        // A second set, read only inside accesses: each access sees it in both readers or in neither.
        publisher.beginCoherentChanges();
        writeSet(writeB, 4, 100);
        writeSet(writeA, 2, 100);
        publisher.endCoherentChanges();
        while (true)
        {
            subscriber.beginAccess();
            final int a = setSamples(readA);
            final int b = setSamples(readB);
            subscriber.endAccess();
            assertThat(List.of(a, b)).as("one access sees the second set whole or not at all")
                .isIn(List.of(SET_SIZE, SET_SIZE / 2), List.of(SET_SIZE + 2, SET_SIZE / 2 + 4));
            if (a == SET_SIZE + 2)
            {
                break;
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    @Test
    void aSetCutOffByClosingItsPublisherDeliversNothing() throws Exception
    {
        final Topic<Shape> writerTopic = writers.createTopic("CoherentCut", Shape.class);
        final Topic<Shape> readerTopic = readers.createTopic("CoherentCut", Shape.class);
        final Publisher publisher = publisher(AccessScopeKind.TOPIC);
        final DataWriter<Shape> writer = writer(publisher, writerTopic);
        final DataWriter<Shape> marker = writer(publisher(AccessScopeKind.TOPIC), writerTopic);
        final DataReader<Shape> reader = reader(subscriber(AccessScopeKind.TOPIC), readerTopic);
        awaitMatched(reader, 2);

        publisher.beginCoherentChanges();
        writeSet(writer, SET_SIZE, 0);
        publisher.close();
        awaitMatched(reader, 1);
        marker.write(new Shape("GREEN", 1, 0, 1));
        await("the marker written after the close", () -> count(reader, "GREEN") == 1);
        assertThat(reader.read(new ArrayList<>())).as("nothing of the cut set, not even its instances' unregisters")
            .hasSize(1);
    }

    @Test
    void aGroupSetCutOffByClosingItsPublisherDeliversNothingOnEitherTopic() throws Exception
    {
        final GroupPair g = groupPair("CutA", "CutB");
        final Publisher publisher = g.publisher();
        final Subscriber subscriber = g.subscriber();
        final DataWriter<Shape> writeA = g.writeA();
        final DataWriter<Shape> writeB = g.writeB();
        final DataWriter<Shape> markA = g.markA();
        final DataWriter<Shape> markB = g.markB();
        final DataReader<Shape> readA = g.readA();
        final DataReader<Shape> readB = g.readB();

        publisher.beginCoherentChanges();
        writeSet(writeA, SET_SIZE, 0);
        writeSet(writeB, SET_SIZE, 0);
        publisher.close();
        awaitMatched(readA, 1);
        awaitMatched(readB, 1);
        markA.write(new Shape("GREEN", 1, 0, 1));
        markB.write(new Shape("GREEN", 1, 0, 1));
        await("the markers written after the close", () -> count(readA, "GREEN") == 1 && count(readB, "GREEN") == 1);
        assertThat(readA.read(new ArrayList<>())).as("nothing of the cut set on topic A").hasSize(1);
        assertThat(readB.read(new ArrayList<>())).as("nothing of the cut set on topic B").hasSize(1);
    }
}
