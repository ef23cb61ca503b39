package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.AlreadyClosedException;
import org.omg.dds.core.event.DataAvailableEvent;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderAdapter;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * Closing a reader while its DataAvailable listener is inside a take() with the loan open (on the reader's delivery
 * thread) waits for the listener to return its loan, then closes: the loan is the middleware's own listener call's,
 * not one the application left open. This is the race behind a rare "loan(s) from read()/take() are not closed" at
 * participant close in BestEffortAccountingTest (a trailing DataAvailable call taking while the test closed); here
 * the listener holds its loan until the close is under way, so the race is taken every time.
 */
@Timeout(120)
class CloseDuringListenerTest
{
    @Test
    void closeWaitsForAListenerCallThatHoldsALoan() throws Exception
    {
        final DomainParticipant participant = Dds.participant();
        final CountDownLatch inTake = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger taken = new AtomicInteger();
        final AtomicReference<Throwable> closeFailure = new AtomicReference<>();
        try
        {
            final Topic<Shape> topic = participant.createTopic("CloseDuringListener", Shape.class);
            final Publisher publisher = participant.createPublisher();
            final DataWriter<Shape> writer = publisher.createDataWriter(topic);
            final Subscriber subscriber = participant.createSubscriber();
            final DataReader<Shape> reader = subscriber.createDataReader(topic,
                subscriber.getDefaultDataReaderQos(), new DataReaderAdapter<>()
                {
                    @Override
                    public void onDataAvailable(final DataAvailableEvent<Shape> event)
                    {
                        try (Sample.Iterator<Shape> it = event.getSource().take())
                        {
                            while (it.hasNext())
                            {
                                it.next();
                                taken.incrementAndGet();
                            }
                            inTake.countDown();
                            // Bounded: the test releases it once the close is waiting (or has failed).
                            release.await(60, TimeUnit.SECONDS);
                        }
                        catch (final java.io.IOException ex)
                        {
                            throw new java.io.UncheckedIOException(ex);
                        }
                        catch (final InterruptedException ex)
                        {
                            Thread.currentThread().interrupt();
                        }
                    }
                }, null);
            Dds.await("matched both ways", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1
                && reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
            writer.write(new Shape("RED", 1, 0, 1));
            assertThat(inTake.await(30, TimeUnit.SECONDS)).as("the listener took the sample, loan open").isTrue();
            final Thread closer = Thread.ofPlatform().name("closer").start(() ->
            {
                try
                {
                    reader.close();
                }
                catch (final Throwable t)
                {
                    closeFailure.set(t);
                }
            });
            // The event itself: the close either gave up at once (the race lost) or waits for the listener call.
            Dds.await("close waiting for the listener call, or finished", () ->
                closer.getState() == Thread.State.WAITING || !closer.isAlive());
            release.countDown();
            closer.join(30_000);
            assertThat(closer.isAlive()).as("close returned once the listener returned").isFalse();
            assertThat(closeFailure.get()).as("close did not fail on the listener's own loan").isNull();
            assertThatThrownBy(reader::getQos).as("the reader is closed").isInstanceOf(AlreadyClosedException.class);
            assertThat(taken.get()).isEqualTo(1);
        }
        finally
        {
            release.countDown();
            participant.close();
        }
    }
}
