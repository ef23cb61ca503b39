package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.InconsistentPolicyException;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.3.12 TIME_BASED_FILTER: a DataReader sees at most one sample per instance each minimum_separation; the
 * policy is changeable, and a deadline period shorter than the separation is inconsistent. The separation here is an
 * hour, so which samples are dropped never depends on timing; the writer's samples arrive in order, so once a later
 * sample is read the earlier ones were filtered.
 */
@Timeout(120)
class TimeBasedFilterConformanceTest extends OverEveryTransport
{
    private final DomainParticipant participant = participant();
    private final Topic<Shape> topic = participant.createTopic("TimeBasedFilter", Shape.class);

    TimeBasedFilterConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    @Test
    void aReaderKeepsOneSamplePerInstanceEachSeparationUntilTheSeparationChanges() throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll(),
                pf.TimeBasedFilter().withMinimumSeparation(1, TimeUnit.HOURS)));
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1 &&
            reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        for (int i = 1; i <= 5; i++)
        {
            writer.write(new Shape("RED", i, 0, 0));
        }
        writer.write(new Shape("BLUE", 1, 0, 0));
        Dds.await("BLUE", () -> xs(reader, "BLUE").size() == 1);
        assertThat(xs(reader, "RED")).as("the first RED only").containsExactly(1);
        reader.setQos(reader.getQos().withPolicy(pf.TimeBasedFilter().withMinimumSeparation(0, TimeUnit.SECONDS)));
        writer.write(new Shape("RED", 6, 0, 0));
        writer.write(new Shape("RED", 7, 0, 0));
        Dds.await("the later REDs", () -> xs(reader, "RED").size() == 3);
        assertThat(xs(reader, "RED")).containsExactly(1, 6, 7);
    }

    @Test
    void aDeadlineShorterThanTheSeparationIsInconsistent()
    {
        final Subscriber subscriber = participant.createSubscriber();
        assertThatThrownBy(() -> subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Deadline().withPeriod(100, TimeUnit.MILLISECONDS),
                pf.TimeBasedFilter().withMinimumSeparation(1, TimeUnit.SECONDS))))
            .isInstanceOf(InconsistentPolicyException.class).hasMessageContaining("TimeBasedFilter")
            .hasMessageContaining("Deadline");
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
}
