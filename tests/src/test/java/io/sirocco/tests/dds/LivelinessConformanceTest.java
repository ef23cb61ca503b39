package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.event.LivelinessChangedEvent;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.status.LivelinessChangedStatus;
import org.omg.dds.core.status.LivelinessLostStatus;
import org.omg.dds.core.status.OfferedIncompatibleQosStatus;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderAdapter;
import org.omg.dds.sub.DataReaderListener;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.3.11 LIVELINESS: a MANUAL_BY_TOPIC or MANUAL_BY_PARTICIPANT DataWriter must assert its liveliness (a
 * write, {@code DataWriter.assertLiveliness}, or for MANUAL_BY_PARTICIPANT {@code DomainParticipant.assertLiveliness})
 * within each lease; otherwise it raises LIVELINESS_LOST (total_count, total_count_change) and its readers see it not
 * alive in LIVELINESS_CHANGED (alive_count, not_alive_count and their changes, last_publication_handle), the instances
 * it alone wrote becoming NOT_ALIVE_NO_WRITERS. RxO: offered kind >= requested kind (AUTOMATIC <
 * MANUAL_BY_PARTICIPANT < MANUAL_BY_TOPIC), offered lease <= requested lease. Leases are short; the tests wait for
 * the transitions themselves, never for a time.
 */
@Timeout(120)
class LivelinessConformanceTest extends OverEveryTransport
{
    private static final long LEASE_MS = 300;

    private final DomainParticipant participant = participant();
    private final Topic<Shape> topic = participant.createTopic("Liveliness", Shape.class);

    LivelinessConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    private Liveliness liveliness(final Liveliness.Kind kind, final long leaseMs)
    {
        final Liveliness base = pf.Liveliness().withKind(kind);
        return leaseMs < 0 ? base.withLeaseDuration(env.getSPI().infiniteDuration())
            : base.withLeaseDuration(leaseMs, TimeUnit.MILLISECONDS);
    }

    private DataWriter<Shape> writer(final Liveliness.Kind kind, final long leaseMs)
    {
        final Publisher publisher = participant.createPublisher();
        return publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable(), liveliness(kind, leaseMs)));
    }

    private DataReader<Shape> reader(final Liveliness.Kind kind, final long leaseMs,
        final DataReaderListener<Shape> listener)
    {
        final Subscriber subscriber = participant.createSubscriber();
        return subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), liveliness(kind, leaseMs)), listener, null);
    }

    private static void matched(final DataWriter<Shape> writer, final DataReader<Shape> reader)
    {
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1 &&
            reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
    }

    @Test
    void aManualWriterThatStopsAssertingLosesItsLivelinessOncePerLoss() throws Exception
    {
        final DataWriter<Shape> writer = writer(Liveliness.Kind.MANUAL_BY_TOPIC, LEASE_MS);
        writer.write(new Shape("RED", 1, 1, 1));
        Dds.await("liveliness lost", () -> writer.getStatusChanges().contains(LivelinessLostStatus.class));
        final LivelinessLostStatus first = writer.getLivelinessLostStatus();
        assertThat(first.getTotalCount()).isEqualTo(1);
        assertThat(first.getTotalCountChange()).isEqualTo(1);
        assertThat(writer.getStatusChanges()).doesNotContain(LivelinessLostStatus.class);
        // Lost until it asserts again: then alive for a lease, and lost a second time.
        writer.assertLiveliness();
        Dds.await("lost again", () -> writer.getStatusChanges().contains(LivelinessLostStatus.class));
        final LivelinessLostStatus second = writer.getLivelinessLostStatus();
        assertThat(second.getTotalCount()).isEqualTo(2);
        assertThat(second.getTotalCountChange()).as("the change since the last read").isEqualTo(1);
    }

    @Test
    void participantAssertLivelinessRenewsAManualByParticipantWriter() throws Exception
    {
        final DataWriter<Shape> writer = writer(Liveliness.Kind.MANUAL_BY_PARTICIPANT, LEASE_MS);
        Dds.await("liveliness lost", () -> writer.getLivelinessLostStatus().getTotalCount() == 1);
        participant.assertLiveliness();
        Dds.await("alive again, then lost again", () -> writer.getLivelinessLostStatus().getTotalCount() == 2);
    }

    @Test
    void aReaderSeesAManualWriterGoNotAliveAndComeBack() throws Exception
    {
        final List<LivelinessChangedStatus> heard = new CopyOnWriteArrayList<>();
        final DataWriter<Shape> writer = writer(Liveliness.Kind.MANUAL_BY_TOPIC, LEASE_MS);
        final DataReader<Shape> reader = reader(Liveliness.Kind.MANUAL_BY_TOPIC, 10 * LEASE_MS,
            new DataReaderAdapter<>()
            {
                @Override
                public void onLivelinessChanged(final LivelinessChangedEvent<Shape> event)
                {
                    heard.add(event.getStatus());
                }
            });
        matched(writer, reader);
        final InstanceHandle publication = reader.getMatchedPublications().iterator().next();
        writer.write(new Shape("RED", 1, 1, 1));
        Dds.await("not alive", () -> last(heard) != null && last(heard).getNotAliveCount() == 1);
        assertThat(last(heard).getAliveCount()).isZero();
        assertThat(last(heard).getLastPublicationHandle()).isEqualTo(publication);
        Dds.await("the instance without writers", () -> lastState(reader) == InstanceState.NOT_ALIVE_NO_WRITERS);
        // A sample asserts the writer again and makes the instance alive; then the lease runs out once more.
        writer.write(new Shape("RED", 2, 2, 2));
        Dds.await("alive again", () -> heard.stream().anyMatch(s -> s.getAliveCount() == 1 &&
            s.getAliveCountChange() == 1 && s.getNotAliveCountChange() == -1));
        Dds.await("the instance alive", () -> reader.read(new ArrayList<>()).stream()
            .anyMatch(s -> s.getInstanceState() == InstanceState.ALIVE && s.getData() != null &&
                s.getData().x == 2));
        Dds.await("not alive a second time", () -> last(heard).getNotAliveCount() == 1 &&
            heard.stream().filter(s -> s.getNotAliveCount() == 1).count() >= 2);
        // Each event carried the changes since the one before: their sums are the counts.
        assertThat(heard.stream().mapToInt(LivelinessChangedStatus::getAliveCountChange).sum())
            .isEqualTo(last(heard).getAliveCount());
        assertThat(heard.stream().mapToInt(LivelinessChangedStatus::getNotAliveCountChange).sum())
            .isEqualTo(last(heard).getNotAliveCount());
    }

    @Test
    void anAutomaticWriterIsAliveWhileMatched() throws Exception
    {
        final DataWriter<Shape> writer = writer(Liveliness.Kind.AUTOMATIC, LEASE_MS);
        final DataReader<Shape> reader = reader(Liveliness.Kind.AUTOMATIC, -1, null);
        matched(writer, reader);
        final LivelinessChangedStatus alive = reader.getLivelinessChangedStatus();
        assertThat(alive.getAliveCount()).isEqualTo(1);
        assertThat(alive.getAliveCountChange()).isEqualTo(1);
        assertThat(alive.getNotAliveCount()).isZero();
        assertThat(writer.getLivelinessLostStatus().getTotalCount()).isZero();
        writer.write(new Shape("RED", 1, 1, 1));
        Dds.await("the sample", () -> !reader.read(new ArrayList<>()).isEmpty());
        // Over shm and tcp the retraction of a closed RELIABLE writer waits for the writer's end mark in its topic
        // subgroup (WriterRetirement); the writer's own participant once ignored its own marks, so each close waited
        // out the 30 s bound and said so at WARN. The log is the witness that the mark, not the bound, released it.
        final PrintStream original = System.err;
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try
        {
            writer.close();
            final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!reader.getStatusChanges().contains(LivelinessChangedStatus.class))
            {
                assertThat(System.nanoTime() - until).as("the writer gone within 90 s").isNegative();
                LockSupport.parkNanos(1_000_000L);
            }
        }
        finally
        {
            System.setErr(original);
        }
        assertThat(log.toString(StandardCharsets.UTF_8).lines())
            .as("the closed writer released by its end mark, not by the missing-mark bound")
            .noneMatch(l -> l.contains("end mark did not arrive"));
        final LivelinessChangedStatus gone = reader.getLivelinessChangedStatus();
        assertThat(gone.getAliveCount()).isZero();
        assertThat(gone.getAliveCountChange()).isEqualTo(-1);
        assertThat(gone.getNotAliveCount()).isZero();
    }

    static Stream<Arguments> incompatiblePairs()
    {
        return Stream.of(
            Arguments.of(Liveliness.Kind.AUTOMATIC, -1L, Liveliness.Kind.MANUAL_BY_PARTICIPANT, -1L),
            Arguments.of(Liveliness.Kind.AUTOMATIC, -1L, Liveliness.Kind.MANUAL_BY_TOPIC, -1L),
            Arguments.of(Liveliness.Kind.MANUAL_BY_PARTICIPANT, -1L, Liveliness.Kind.MANUAL_BY_TOPIC, -1L),
            Arguments.of(Liveliness.Kind.MANUAL_BY_TOPIC, 2000L, Liveliness.Kind.MANUAL_BY_TOPIC, 1000L),
            Arguments.of(Liveliness.Kind.AUTOMATIC, -1L, Liveliness.Kind.AUTOMATIC, 1000L));
    }

    @ParameterizedTest(name = "offered {0} {1} ms, requested {2} {3} ms")
    @MethodSource("incompatiblePairs")
    void aWeakerOfferIsIncompatible(final Liveliness.Kind offered, final long offeredMs,
        final Liveliness.Kind requested, final long requestedMs) throws Exception
    {
        final DataWriter<Shape> writer = writer(offered, offeredMs);
        final DataReader<Shape> reader = reader(requested, requestedMs, null);
        Dds.await("offered incompatible", () -> writer.getStatusChanges()
            .contains(OfferedIncompatibleQosStatus.class));
        assertThat(writer.getOfferedIncompatibleQosStatus().getLastPolicyClass()).isEqualTo(Liveliness.class);
        Dds.await("requested incompatible", () -> reader.getRequestedIncompatibleQosStatus().getTotalCount() == 1);
        assertThat(reader.getRequestedIncompatibleQosStatus().getLastPolicyClass()).isEqualTo(Liveliness.class);
        assertThat(reader.getSubscriptionMatchedStatus().getCurrentCount()).isZero();
        assertThat(reader.getLivelinessChangedStatus().getAliveCount()).isZero();
    }

    private static LivelinessChangedStatus last(final List<LivelinessChangedStatus> heard)
    {
        return heard.isEmpty() ? null : heard.get(heard.size() - 1);
    }

    private static InstanceState lastState(final DataReader<Shape> reader)
    {
        final List<Sample<Shape>> samples = reader.read(new ArrayList<>());
        return samples.isEmpty() ? null : samples.get(samples.size() - 1).getInstanceState();
    }
}
