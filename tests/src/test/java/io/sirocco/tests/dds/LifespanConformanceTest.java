package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.policy.Lifespan;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.ReadCondition;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.3.16 LIFESPAN: a sample expires at its source timestamp plus its writer's lifespan duration. A reader
 * does not deliver a sample already expired when it arrives, nor one that expired in its cache; a writer does not
 * give expired samples of its TRANSIENT_LOCAL history to a late joiner; an infinite lifespan never expires. Source
 * timestamps are set explicitly (a day in the past: expired under a ten-minute lifespan), so that expiry does not
 * depend on how fast the machine is; a writer's samples arrive in the order it wrote them, so a marker read later
 * proves its earlier samples were delivered or dropped.
 */
@Timeout(180)
class LifespanConformanceTest extends OverEveryTransport
{
    private static final long DAY_NS = TimeUnit.DAYS.toNanos(1);
    private final DomainParticipant writers = participant();
    private final DomainParticipant readers = participant();
    private final Topic<Shape> writerTopic = writers.createTopic("Lifespan", Shape.class);
    private final Topic<Shape> readerTopic = readers.createTopic("Lifespan", Shape.class);
    private final Publisher publisher = writers.createPublisher();
    private final Subscriber subscriber = readers.createSubscriber();

    LifespanConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    @Test
    void aSampleExpiredOnArrivalIsNotDeliveredUnlessTheLifespanIsInfinite() throws Exception
    {
        final DataWriter<Shape> mortal = writer(pf.Lifespan().withDuration(10, TimeUnit.MINUTES), false);
        final DataWriter<Shape> immortal = writer(pf.Lifespan(), false);
        final DataReader<Shape> reader = reader(false);
        Dds.await("matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 2);
        final long now = wallNs();
        mortal.write(new Shape("RED", 1, 0, 0), now - DAY_NS, TimeUnit.NANOSECONDS);
        mortal.write(new Shape("BLUE", 1, 0, 0), now, TimeUnit.NANOSECONDS);
        immortal.write(new Shape("GREEN", 1, 0, 0), now - DAY_NS, TimeUnit.NANOSECONDS);
        immortal.write(new Shape("YELLOW", 1, 0, 0));
        Dds.await("the markers", () -> xs(reader, "BLUE").contains(1) && xs(reader, "YELLOW").contains(1));
        assertThat(xs(reader, "RED")).as("expired a day ago under a 10-minute lifespan").isEmpty();
        assertThat(xs(reader, "GREEN")).as("an infinite lifespan never expires").containsExactly(1);
    }

    /** LIFESPAN is changeable: the new duration reaches the matched readers (PublicationBuiltinTopicData) and applies. */
    @Test
    void setQosChangesTheLifespanItsReadersApply() throws Exception
    {
        final DataWriter<Shape> writer = writer(pf.Lifespan(), false);
        final DataReader<Shape> reader = reader(false);
        Dds.await("matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        final long now = wallNs();
        writer.write(new Shape("GREEN", 1, 0, 0), now - DAY_NS, TimeUnit.NANOSECONDS);
        Dds.await("GREEN under an infinite lifespan", () -> xs(reader, "GREEN").contains(1));
        final Lifespan tenMinutes = pf.Lifespan().withDuration(10, TimeUnit.MINUTES);
        writer.setQos(writer.getQos().withPolicy(tenMinutes));
        Dds.await("the new lifespan announced", () -> reader.getMatchedPublicationData(writer.getInstanceHandle())
            .getLifespan().getDuration().getDuration(TimeUnit.MINUTES) == 10);
        writer.write(new Shape("RED", 1, 0, 0), now - DAY_NS, TimeUnit.NANOSECONDS);
        writer.write(new Shape("BLUE", 1, 0, 0), wallNs(), TimeUnit.NANOSECONDS);
        Dds.await("the marker", () -> xs(reader, "BLUE").contains(1));
        assertThat(xs(reader, "RED")).as("expired under the new 10-minute lifespan").isEmpty();
    }

    @Test
    void aLateJoinerDoesNotGetExpiredHistory() throws Exception
    {
        final DataWriter<Shape> writer = writer(pf.Lifespan().withDuration(10, TimeUnit.MINUTES), true);
        final long now = wallNs();
        writer.write(new Shape("RED", 1, 0, 0), now - DAY_NS, TimeUnit.NANOSECONDS);
        writer.write(new Shape("RED", 2, 0, 0), now, TimeUnit.NANOSECONDS);
        writer.write(new Shape("BLUE", 1, 0, 0), now - DAY_NS, TimeUnit.NANOSECONDS);
        writer.write(new Shape("GREEN", 1, 0, 0), now, TimeUnit.NANOSECONDS);
        final DataReader<Shape> lateJoiner = reader(true);
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        // The writer replays its history before it counts the match: this live sample follows the replay.
        writer.write(new Shape("YELLOW", 1, 0, 0));
        Dds.await("history and marker", () -> xs(lateJoiner, "RED").contains(2) &&
            xs(lateJoiner, "GREEN").contains(1) && xs(lateJoiner, "YELLOW").contains(1));
        assertThat(xs(lateJoiner, "RED")).as("RED 1 expired a day ago").containsExactly(2);
        assertThat(xs(lateJoiner, "BLUE")).as("BLUE 1 expired a day ago").isEmpty();
    }

    /**
     * A sample read (not taken) before it expires is gone from the cache once it has: read, take and a read
     * condition no longer see it. Seeing it before it expires needs delivery within the lifespan, so the check is
     * tried with longer lifespans when the machine was too slow for a shorter one; one success is the proof.
     */
    @Test
    void aSampleThatExpiresInTheCacheIsNoLongerReadOrTaken() throws Exception
    {
        final DataReader<Shape> reader = reader(false);
        boolean proven = false;
        for (int attempt = 0; attempt < 3 && !proven; attempt++)
        {
            proven = expiresInCache(reader, "A" + attempt, TimeUnit.SECONDS.toNanos(2L << (2 * attempt)));
        }
        assertThat(proven).as("a sample seen before its lifespan ended is gone after it, for some lifespan").isTrue();
    }

    @Test
    void aNegativeLifespanIsRefused()
    {
        assertThatThrownBy(() -> writer(pf.Lifespan().withDuration(-1, TimeUnit.SECONDS), false))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }

    /**
     * Whether {@code color}, written now under {@code lifespanNs}, was read before it expired (false when the machine
     * was too slow to tell); then asserts that after it expired, read, take and a read condition of ALIVE instances
     * (earlier attempts' instances lost their writer) no longer see it.
     */
    private boolean expiresInCache(final DataReader<Shape> reader, final String color, final long lifespanNs)
        throws Exception
    {
        final DataWriter<Shape> writer = writer(pf.Lifespan().withDuration(lifespanNs, TimeUnit.NANOSECONDS), false);
        final ReadCondition<Shape> alive = reader.createReadCondition(subscriber.createDataState()
            .withAnySampleState().withAnyViewState().with(InstanceState.ALIVE));
        try
        {
            Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
            final long written = wallNs();
            final long expires = written + lifespanNs;
            writer.write(new Shape(color, 1, 0, 0), written, TimeUnit.NANOSECONDS);
            boolean seen = false;
            while (!seen && wallNs() < expires)
            {
                seen = xs(reader, color).contains(1);
                LockSupport.parkNanos(1_000_000L);
            }
            final boolean triggeredBefore = alive.getTriggerValue();
            if (!seen || wallNs() >= expires)
            {
                return false;
            }
            assertThat(triggeredBefore).as("before expiry the condition sees the sample").isTrue();
            while (wallNs() < expires)
            {
                LockSupport.parkNanos(1_000_000L);
            }
            assertThat(alive.getTriggerValue()).as("after expiry the condition does not").isFalse();
            assertThat(xs(reader, color)).as("read after expiry").isEmpty();
            assertThat(reader.take(new ArrayList<>())).as("take after expiry: only invalid samples")
                .allMatch(sample -> sample.getData() == null);
            return true;
        }
        finally
        {
            alive.close();
            writer.close();
        }
    }

    private DataWriter<Shape> writer(final Lifespan lifespan, final boolean transientLocal)
    {
        return publisher.createDataWriter(writerTopic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepLast(5), lifespan,
            transientLocal ? pf.Durability().withTransientLocal() : pf.Durability().withVolatile()));
    }

    private DataReader<Shape> reader(final boolean transientLocal)
    {
        return subscriber.createDataReader(readerTopic, subscriber.getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepAll(),
            transientLocal ? pf.Durability().withTransientLocal() : pf.Durability().withVolatile()));
    }

    /** The x of every cached sample of {@code color}, read without taking. */
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

    private static long wallNs()
    {
        return System.currentTimeMillis() * 1_000_000L;
    }
}
