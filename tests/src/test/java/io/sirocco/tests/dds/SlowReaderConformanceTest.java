package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.event.DataAvailableEvent;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderAdapter;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * A slow reader hurts only whom it should: a BEST_EFFORT reader loses samples (counted in SampleLost) and never
 * slows the writer or a fast reader; a RELIABLE reader a window behind blocks the writer for max_blocking_time,
 * after which write throws TimeoutException. The slowness is a listener blocked on a latch.
 */
@Timeout(90)
class SlowReaderConformanceTest extends OverEveryTransport
{
    private static final int WINDOW = 4;
    private final DomainParticipant participant = participant();
    private final Topic<Shape> topic = participant.createTopic("Slow", Shape.class);
    private final CountDownLatch release = new CountDownLatch(1);

    SlowReaderConformanceTest(final DdsTransport transport)
    {
        super(transport, transport.environment(Map.of("sirocco.dds.window.slots", WINDOW)));
    }

    @AfterEach
    void close()
    {
        release.countDown();
        participant.close();
    }

    private DataReader<Shape> slowReader(final boolean reliable)
    {
        final Subscriber subscriber = participant.createSubscriber();
        return subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos().withPolicies(
            reliable ? pf.Reliability().withReliable() : pf.Reliability().withBestEffort(),
            pf.History().withKeepAll()), new DataReaderAdapter<>()
            {
                @Override
                public void onDataAvailable(final DataAvailableEvent<Shape> event)
                {
                    try
                    {
                        release.await();
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                    }
                }
            }, null);
    }

    private DataWriter<Shape> writer(final long maxBlockingMs)
    {
        final Publisher publisher = participant.createPublisher();
        return publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable().withMaxBlockingTime(maxBlockingMs, TimeUnit.MILLISECONDS),
            pf.History().withKeepAll()));
    }

    @Test
    void aBestEffortReaderLosesSamplesWithoutSlowingAnyone() throws Exception
    {
        final DataReader<Shape> slow = slowReader(false);
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> fast = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        final DataWriter<Shape> writer = writer(30_000);
        Dds.await("both matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 2);
        final int count = 200;
        for (int i = 0; i < count; i++)
        {
            writer.write(new Shape("RED", i, 0, 1));
        }
        writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
        final ArrayList<Integer> seen = new ArrayList<>();
        Dds.await("the fast reader got everything", () ->
        {
            fast.take(new ArrayList<>()).forEach(s -> seen.add(s.getData().x));
            return seen.size() == count;
        });
        assertThat(seen).isSorted().doesNotHaveDuplicates();
        release.countDown();
        Dds.await("SampleLost counted", () -> slow.getSampleLostStatus().getTotalCount() > 0);
        final int[] kept = new int[2];
        try
        {
            Dds.await("the slow reader kept the rest", () ->
            {
                kept[0] = slow.read(new ArrayList<>()).size();
                kept[1] = slow.getSampleLostStatus().getTotalCount();
                return kept[0] + kept[1] == count;
            });
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError("kept " + kept[0] + ", lost " + kept[1] + " of " + count, ex);
        }
    }

    @Test
    void aReliableReaderAWindowBehindBlocksTheWriterThenWriteTimesOut() throws Exception
    {
        slowReader(true);
        final DataWriter<Shape> writer = writer(200);
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        assertThatThrownBy(() ->
        {
            for (int i = 0; i < 10 * WINDOW; i++)
            {
                writer.write(new Shape("RED", i, 0, 1));
            }
        }).isInstanceOf(TimeoutException.class).hasMessageContaining("max_blocking_time")
            .hasMessageContaining("DataWriter on topic 'Slow'");
        release.countDown();
        writer.write(new Shape("RED", -1, 0, 1));
    }
}
