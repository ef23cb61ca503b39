package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.policy.DestinationOrder;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.3.17 DESTINATION_ORDER: a BY_SOURCE_TIMESTAMP reader keeps, per instance, only samples whose source
 * timestamp is not older than that of the last one it kept, so that every reader ends with the value written last;
 * a BY_RECEPTION_TIMESTAMP reader keeps them in arrival order. RxO: a BY_RECEPTION_TIMESTAMP writer does not match
 * a BY_SOURCE_TIMESTAMP reader. The source timestamps here are given explicitly; a writer's samples arrive in the
 * order it wrote them, so a marker sample read later proves its earlier samples were delivered.
 */
@Timeout(120)
class DestinationOrderConformanceTest extends OverEveryTransport
{
    private static final long T1 = 1_000_000_000_000L;
    private static final long T2 = 2_000_000_000_000L;
    private static final long T3 = 3_000_000_000_000L;
    private final DomainParticipant writers = participant();
    private final DomainParticipant readers = participant();
    private final Topic<Shape> writerTopic = writers.createTopic("DestinationOrder", Shape.class);
    private final Topic<Shape> readerTopic = readers.createTopic("DestinationOrder", Shape.class);
    private final Publisher publisher = writers.createPublisher();
    private final Subscriber subscriber = readers.createSubscriber();

    DestinationOrderConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    @Test
    void aBySourceTimestampReaderDropsASampleOlderThanTheLastKept() throws Exception
    {
        final DataWriter<Shape> a = writer(DestinationOrder.Kind.BY_SOURCE_TIMESTAMP);
        final DataWriter<Shape> b = writer(DestinationOrder.Kind.BY_SOURCE_TIMESTAMP);
        final DataReader<Shape> bySource = reader(DestinationOrder.Kind.BY_SOURCE_TIMESTAMP);
        final DataReader<Shape> byReception = reader(DestinationOrder.Kind.BY_RECEPTION_TIMESTAMP);
        Dds.await("matched", () -> bySource.getSubscriptionMatchedStatus().getCurrentCount() == 2 &&
            byReception.getSubscriptionMatchedStatus().getCurrentCount() == 2);
        a.write(new Shape("RED", 2, 0, 0), T2, TimeUnit.NANOSECONDS);
        Dds.await("RED at T2", () -> xs(bySource, "RED").contains(2) && xs(byReception, "RED").contains(2));
        b.write(new Shape("RED", 1, 0, 0), T1, TimeUnit.NANOSECONDS);
        b.write(new Shape("BLUE", 1, 0, 0), T1, TimeUnit.NANOSECONDS);
        Dds.await("b's marker", () -> xs(bySource, "BLUE").contains(1) && xs(byReception, "BLUE").contains(1));
        assertThat(xs(bySource, "RED")).as("the older sample is dropped").containsExactly(2);
        assertThat(xs(byReception, "RED")).as("in arrival order").containsExactly(2, 1);
        b.write(new Shape("RED", 3, 0, 0), T3, TimeUnit.NANOSECONDS);
        Dds.await("RED at T3", () -> xs(bySource, "RED").contains(3) && xs(byReception, "RED").contains(3));
        assertThat(xs(bySource, "RED")).containsExactly(2, 3);
        assertThat(sourceTimes(bySource, "RED")).containsExactly(T2, T3);
    }

    @Test
    void aByReceptionWriterDoesNotMatchABySourceReader()
    {
        final DataWriter<Shape> byReceptionWriter = writer(DestinationOrder.Kind.BY_RECEPTION_TIMESTAMP);
        final DataReader<Shape> bySource = reader(DestinationOrder.Kind.BY_SOURCE_TIMESTAMP);
        final DataReader<Shape> byReception = reader(DestinationOrder.Kind.BY_RECEPTION_TIMESTAMP);
        Dds.await("incompatible", () -> bySource.getRequestedIncompatibleQosStatus().getTotalCount() >= 1 &&
            byReception.getSubscriptionMatchedStatus().getCurrentCount() == 1 &&
            byReceptionWriter.getPublicationMatchedStatus().getCurrentCount() == 1);
        assertThat(bySource.getRequestedIncompatibleQosStatus().getLastPolicyClass())
            .isEqualTo(DestinationOrder.class);
        assertThat(bySource.getMatchedPublications()).isEmpty();
        assertThat(byReceptionWriter.getMatchedSubscriptions()).containsExactly(byReception.getInstanceHandle());
    }

    private DataWriter<Shape> writer(final DestinationOrder.Kind kind)
    {
        return publisher.createDataWriter(writerTopic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepAll(), pf.DestinationOrder().withKind(kind)));
    }

    private DataReader<Shape> reader(final DestinationOrder.Kind kind)
    {
        return subscriber.createDataReader(readerTopic, subscriber.getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepAll(), pf.DestinationOrder().withKind(kind)));
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

    private static List<Long> sourceTimes(final DataReader<Shape> reader, final String color)
    {
        final List<Long> times = new ArrayList<>();
        for (final Sample<Shape> sample : reader.read(new ArrayList<>()))
        {
            if (sample.getData() != null && sample.getData().color.equals(color))
            {
                times.add(sample.getSourceTimestamp().getTime(TimeUnit.NANOSECONDS));
            }
        }
        return times;
    }
}
