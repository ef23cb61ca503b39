package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.pubsub.pub.DataWriterImpl;
import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.ContentFilteredTopic;
import org.omg.dds.topic.Topic;

/**
 * Writer-side filtering follows the reader's filter parameters: {@code setExpressionParameters} is announced again,
 * and the writer (another participant) then filters with the new ones. Until it does, a sample only the new
 * parameters pass is left out at the writer, so the test writes such samples until one arrives (the event itself,
 * bounded), then checks what the writer leaves out from there on. Over the in-process bus, shm and tcp.
 */
@Timeout(180)
class WriterSideFilterParametersTest extends OverEveryTransport
{
    private final DomainParticipant writerSide = participant();
    private final DomainParticipant readerSide = participant();

    WriterSideFilterParametersTest(final DdsTransport transport)
    {
        super(transport);
    }

    @Test
    void newParametersReachTheWriter() throws Exception
    {
        final Topic<Shape> writerTopic = writerSide.createTopic("FilterParameters", Shape.class);
        final Publisher publisher = writerSide.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(writerTopic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(60, TimeUnit.SECONDS),
                pf.History().withKeepAll()));
        final Topic<Shape> readerTopic = readerSide.createTopic("FilterParameters", Shape.class);
        final ContentFilteredTopic<Shape> filtered = readerSide.createContentFilteredTopic("FilterParametersAbove",
            readerTopic, "x > %0", List.of("100"));
        final Subscriber subscriber = readerSide.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(filtered, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        final DataWriterImpl<?> impl = (DataWriterImpl<?>)writer;
        await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);

        writer.write(new Shape("P", 5, 0, 1));
        writer.write(new Shape("P", 200, 0, 1));
        assertThat(takeUntil(reader, 200)).containsExactly(200);
        assertThat(impl.samplesFilteredAtWriter()).as("x = 5 left out at the writer").isEqualTo(1);

        filtered.setExpressionParameters(List.of("1"));
        final List<Integer> afterChange = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!afterChange.contains(5))
        {
            assertThat(System.nanoTime()).as("a sample of x = 5 arrives within 60 s").isLessThan(deadline);
            writer.write(new Shape("P", 5, 0, 1));
            LockSupport.parkNanos(10_000_000L);
            afterChange.addAll(taken(reader));
        }
        final long leftOut = impl.samplesFilteredAtWriter();
        writer.write(new Shape("P", 0, 0, 1));
        writer.write(new Shape("P", 7, 0, 1));
        afterChange.addAll(takeUntil(reader, 7));
        assertThat(afterChange).as("only samples the new parameters pass").allMatch(x -> x == 5 || x == 7)
            .endsWith(7);
        assertThat(impl.samplesFilteredAtWriter()).as("x = 0 left out with the new parameters")
            .isEqualTo(leftOut + 1);
    }

    private static void await(final String what, final java.util.function.BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean())
        {
            assertThat(System.nanoTime()).as(what + " within 60 s").isLessThan(deadline);
            LockSupport.parkNanos(1_000_000L);
        }
    }

    private static List<Integer> taken(final DataReader<Shape> reader)
    {
        final List<Integer> xs = new ArrayList<>();
        for (final Sample<Shape> sample : reader.take(new ArrayList<>()))
        {
            if (sample.getData() != null)
            {
                xs.add(sample.getData().x);
            }
        }
        return xs;
    }

    /** Takes until a sample of {@code x = last} was taken (one instance: in the writer's order). */
    private static List<Integer> takeUntil(final DataReader<Shape> reader, final int last)
    {
        final List<Integer> xs = new ArrayList<>();
        await("x = " + last, () ->
        {
            xs.addAll(taken(reader));
            return xs.contains(last);
        });
        return xs;
    }
}
