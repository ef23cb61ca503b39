package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.event.DataAvailableEvent;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderAdapter;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * A BEST_EFFORT reader of a BEST_EFFORT writer that writes as fast as it can, with a small window and a listener
 * that is slow now and then (so the reader is lapped, and its receive window fills): every sample written is either
 * taken once, in order, or counted in SampleLost. received + lost == written, exactly. The listener holds its first
 * delivery until the burst is written, so the reader is lapped on any machine.
 */
@Timeout(120)
class BestEffortAccountingTest
{
    private static final int WINDOW = 16;
    private static final int COUNT = 50_000;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "shm"})
    void everySampleIsTakenOnceOrCountedLost(final String transport) throws Exception
    {
        // Listeners off the offering thread, whatever this JVM's properties say: with inline listeners the local bus
        // runs the listener on the writer's own thread, which the held first delivery would then hold too.
        final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.window.slots", WINDOW,
            "sirocco.dds.transport", transport, "sirocco.dds.listener.inline", "false"));
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Dds.newDomain());
        try
        {
            final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
            final Topic<Shape> topic = participant.createTopic("BestEffortAccounting", Shape.class);
            final Publisher publisher = participant.createPublisher();
            final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
                .withPolicies(pf.Reliability().withBestEffort(), pf.History().withKeepLast(1)));
            final List<Integer> taken = new ArrayList<>();
            // The first delivery waits until the whole burst is written, so the reader falls behind whatever the
            // machine's load (a paced writer on a starved machine never laps a reader by itself).
            final CountDownLatch burstWritten = new CountDownLatch(1);
            final Subscriber subscriber = participant.createSubscriber();
            final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
                .withPolicies(pf.Reliability().withBestEffort(), pf.History().withKeepAll()), new DataReaderAdapter<>()
                {
                    private int calls;
                    /** Whether the first delivery was held: once only, so a wait that timed out is not repeated. */
                    private boolean held;

                    @Override
                    public void onDataAvailable(final DataAvailableEvent<Shape> event)
                    {
                        if (!held)
                        {
                            held = true;
                            awaitBurst(burstWritten);
                        }
                        synchronized (taken)
                        {
                            try (Sample.Iterator<Shape> it = event.getSource().take())
                            {
                                while (it.hasNext())
                                {
                                    final Shape s = it.next().getData();
                                    if (s != null)
                                    {
                                        taken.add(s.x);
                                    }
                                }
                            }
                            catch (final java.io.IOException ex)
                            {
                                throw new java.io.UncheckedIOException(ex);
                            }
                        }
                        if (++calls % 16 == 0)
                        {
                            // A slow consumer now and then: the writer laps the reader meanwhile.
                            LockSupport.parkNanos(1_000_000L);
                        }
                    }
                }, null);
            Dds.await("matched both ways", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1
                && reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
            for (int i = 0; i < COUNT; i++)
            {
                writer.write(new Shape("RED", i, 0, 1));
            }
            burstWritten.countDown();
            final long[] seen = new long[2];
            try
            {
                Dds.await("every sample taken or counted lost", () ->
                {
                    synchronized (taken)
                    {
                        seen[0] = taken.size();
                    }
                    seen[1] = reader.getSampleLostStatus().getTotalCount();
                    return seen[0] + seen[1] >= COUNT;
                });
            }
            catch (final AssertionError ex)
            {
                throw new AssertionError("taken " + seen[0] + ", lost " + seen[1] + " of " + COUNT, ex);
            }
            final int takenInBurst;
            synchronized (taken)
            {
                assertThat(taken).as("in order, no duplicate").isSorted().doesNotHaveDuplicates();
                assertThat(taken.size() + reader.getSampleLostStatus().getTotalCount())
                    .as("taken + lost == written").isEqualTo(COUNT);
                takenInBurst = taken.size();
            }
            assertThat(reader.getSampleLostStatus().getTotalCount()).as("the scenario: the reader fell behind")
                .isPositive();
            // Recovery after falling behind, paced by events: on a loaded machine the delivery thread may not run at
            // all while the burst is written, so the burst alone can leave the reader with just its window. Each
            // sample now waits until it is taken or counted lost; only the write that meets the burst's last batch
            // still in the window can be dropped, so 4 windows of writes bound the 2 windows this expects taken.
            int written = COUNT;
            int takenAfter = 0;
            while (takenAfter < 2 * WINDOW && written < COUNT + 4 * WINDOW)
            {
                writer.write(new Shape("RED", written, 0, 1));
                final int accounted = ++written;
                Dds.await("sample " + (accounted - 1) + " taken or counted lost", () ->
                {
                    synchronized (taken)
                    {
                        seen[0] = taken.size();
                    }
                    return seen[0] + reader.getSampleLostStatus().getTotalCount() >= accounted;
                });
                synchronized (taken)
                {
                    takenAfter = taken.size() - takenInBurst;
                }
            }
            synchronized (taken)
            {
                assertThat(taken).as("in order, no duplicate").isSorted().doesNotHaveDuplicates();
                assertThat(taken.size() + reader.getSampleLostStatus().getTotalCount())
                    .as("taken + lost == written").isEqualTo(written);
                assertThat(taken.size() - takenInBurst).as("the reader got samples after falling behind")
                    .isGreaterThanOrEqualTo(2 * WINDOW);
            }
        }
        finally
        {
            participant.close();
        }
    }

    private static void awaitBurst(final CountDownLatch burstWritten)
    {
        try
        {
            // Bounded: a writer that blocked on this reader would show as "no loss", not as a hang.
            burstWritten.await(60, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
