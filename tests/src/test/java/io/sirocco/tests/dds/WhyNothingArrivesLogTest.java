package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * A user whose reader gets nothing finds the reason in the log, not only in a status: an incompatible QoS pair gives a
 * WARN naming the topic, both endpoints, their participants and the policy. Reads slf4j-simple's output (System.err,
 * looked up at each line) while the status is awaited. (An inconsistent topic between two processes:
 * {@link InconsistentTopicProcessTest}.)
 */
@Timeout(120)
class WhyNothingArrivesLogTest
{
    @Test
    void incompatibleQosAndInconsistentTopicAreLogged() throws Exception
    {
        final PrintStream original = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (DomainParticipant a = Dds.participant(); DomainParticipant b = Dds.participant(a.getDomainId()))
        {
            final Topic<Shape> shapes = a.createTopic("WhyQos", Shape.class);
            final Publisher publisher = a.createPublisher();
            publisher.createDataWriter(shapes, publisher.getDefaultDataWriterQos()
                .withPolicy(Dds.policies().Reliability().withBestEffort()));
            final Subscriber subscriber = b.createSubscriber();
            final DataReader<Shape> reader = subscriber.createDataReader(b.createTopic("WhyQos", Shape.class),
                subscriber.getDefaultDataReaderQos().withPolicy(Dds.policies().Reliability().withReliable()));
            Dds.await("requested incompatible QoS",
                () -> reader.getRequestedIncompatibleQosStatus().getTotalCount() > 0);
        }
        finally
        {
            System.setErr(original);
        }
        final List<String> warnings = captured.toString(StandardCharsets.UTF_8).lines()
            .filter(l -> l.contains(" WARN ")).toList();
        assertThat(warnings).as("WARN lines").anyMatch(l -> l.contains("topic 'WhyQos': writer ")
            && l.contains("do not match") && l.contains("Reliability") && l.matches(".*participant [0-9a-f]{16}\\).*"
            + "participant [0-9a-f]{16}\\).*"));
        assertThat(warnings.stream().filter(l -> l.contains("topic 'WhyQos'")))
            .as("incompatible-QoS lines: at most one per endpoint of the pair").hasSizeBetween(1, 2);
    }
}
