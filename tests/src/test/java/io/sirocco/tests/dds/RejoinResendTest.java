package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.sirocco.multicast.Group;
import io.sirocco.multicast.Subgroup;
import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.pubsub.bus.group.GroupBus;
import io.sirocco.pubsub.domain.ParticipantImpl;
import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * A publisher that the group excludes (its predicate thread stalls past the suspicion timeout, as a starved process's
 * does) and that rejoins by itself must lose nothing for a reader that stayed in the group: the samples the old view
 * did not deliver everywhere, and the ones written while it was out, arrive once and in order after the rejoin.
 *
 * <p>The exclusion is the group layer's own (three participants over a real transport, a suspicion timeout of 1 s):
 * the publisher's predicate thread is held in a delivery upcall of a subgroup only it has, released once the reader's
 * participant saw the writer gone (an event, not a time). A writer thread writes all along, into a small window, so
 * that writes are blocked in a claim across the view change, are written while the member is out, and follow the
 * rejoin.
 */
@Timeout(180)
class RejoinResendTest
{
    private static final String STALL = "test.stall";
    private static final List<String> COLORS = List.of("RED", "BLUE");

    private final PolicyFactory pf = PolicyFactory.getPolicyFactory(Dds.environment(Map.of()));

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void aReaderThatStayedGetsEverySampleOfAWriterExcludedAndBack(final String transport) throws Exception
    {
        final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.transport", transport,
            "sirocco.dds.interface", "lo", "sirocco.dds.suspicion.ms", "1000", "sirocco.dds.window.slots", "32"));
        try (DomainParticipants participants = new DomainParticipants(env))
        {
            final DomainParticipant pub = participants.create();
            final DomainParticipant sub = participants.create();
            participants.create(); // the third member: the reader's side stays a majority without the publisher
            final DataWriter<Shape> writer = writer(pub, "Rejoined");
            final DataReader<Shape> reader = reader(sub, "Rejoined");
            Dds.await("the reader matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
            Dds.await("the writer matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);

            final Group pubGroup = ((GroupBus)((ParticipantImpl)pub).bus()).group();
            final CountDownLatch release = new CountDownLatch(1);
            final Subgroup stall = registerStall(pubGroup, release);
            final ExecutorService pool = Executors.newSingleThreadExecutor();
            final AtomicBoolean stop = new AtomicBoolean();
            final AtomicInteger written = new AtomicInteger();
            try
            {
                final Future<?> writing = pool.submit(() ->
                {
                    writeUntil(writer, stop, written);
                    return null;
                });
                Dds.await("samples flowing", () -> written.get() >= 100);
                final int matches = reader.getSubscriptionMatchedStatus().getTotalCount();
                stallOnce(stall);
                awaitLong("the reader's participant saw the writer gone",
                    () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 0);
                release.countDown();
                awaitLong("the writer back at the reader", () ->
                    reader.getSubscriptionMatchedStatus().getCurrentCount() == 1
                        && reader.getSubscriptionMatchedStatus().getTotalCount() > matches);
                assertThat(pubGroup.view().rankOf(pubGroup.memberId())).as("the publisher is in a view again")
                    .isGreaterThanOrEqualTo(0);
                final int after = written.get();
                awaitLong("samples written after the rejoin", () -> written.get() >= after + 100);
                stop.set(true);
                writing.get(60, TimeUnit.SECONDS);
            }
            finally
            {
                release.countDown();
                stop.set(true);
                pool.shutdown();
            }
            final List<Integer> received = take(reader, written.get());
            assertThat(received).as("every sample once, in order, of %d written", written.get())
                .containsExactlyElementsOf(range(1, written.get()));
        }
    }

    /**
     * Two RELIABLE writers of one topic in the excluded participant share the topic channel's unconfirmed messages: the
     * re-send after the rejoin is the channel's, once, before either writer sends anything new there. When each writer
     * re-sent on its own, one took both writers' trimmed samples while the other, finding none left, wrote a new
     * sample into the new view first, and the reader dropped the re-sent ones of that writer as old.
     */
    @Test
    void twoWritersOfOneTopicLoseNothingThroughAnExclusion() throws Exception
    {
        final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.transport", "shm",
            "sirocco.dds.interface", "lo", "sirocco.dds.suspicion.ms", "1000", "sirocco.dds.window.slots", "32"));
        try (DomainParticipants participants = new DomainParticipants(env))
        {
            final DomainParticipant pub = participants.create();
            final DomainParticipant sub = participants.create();
            participants.create(); // the third member: the reader's side stays a majority without the publisher
            final Topic<Shape> topic = pub.createTopic("TwoWriters", Shape.class);
            final List<DataWriter<Shape>> writers = List.of(writer(pub, topic), writer(pub, topic));
            final DataReader<Shape> reader = reader(sub, "TwoWriters");
            Dds.await("the reader matched both writers",
                () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 2);
            final Group pubGroup = ((GroupBus)((ParticipantImpl)pub).bus()).group();
            final CountDownLatch release = new CountDownLatch(1);
            final Subgroup stall = registerStall(pubGroup, release);
            final ExecutorService pool = Executors.newFixedThreadPool(2);
            final AtomicBoolean stop = new AtomicBoolean();
            final List<AtomicInteger> written = List.of(new AtomicInteger(), new AtomicInteger());
            try
            {
                final List<Future<?>> writing = new ArrayList<>();
                for (int w = 0; w < 2; w++)
                {
                    final int index = w;
                    writing.add(pool.submit(() ->
                    {
                        writeUntil(writers.get(index), COLORS.get(index), stop, written.get(index));
                        return null;
                    }));
                }
                Dds.await("samples flowing", () -> written.stream().allMatch(n -> n.get() >= 100));
                final int matches = reader.getSubscriptionMatchedStatus().getTotalCount();
                stallOnce(stall);
                awaitLong("the reader's participant saw the writers gone",
                    () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 0);
                release.countDown();
                awaitLong("the writers back at the reader", () ->
                    reader.getSubscriptionMatchedStatus().getCurrentCount() == 2
                        && reader.getSubscriptionMatchedStatus().getTotalCount() >= matches + 2);
                final List<Integer> after = written.stream().map(AtomicInteger::get).toList();
                awaitLong("samples written by both after the rejoin",
                    () -> written.get(0).get() >= after.get(0) + 100 && written.get(1).get() >= after.get(1) + 100);
                stop.set(true);
                for (final Future<?> f : writing)
                {
                    f.get(60, TimeUnit.SECONDS);
                }
            }
            finally
            {
                release.countDown();
                stop.set(true);
                pool.shutdown();
            }
            final Map<String, List<Integer>> received = takeByColor(reader,
                written.get(0).get() + written.get(1).get());
            for (int w = 0; w < 2; w++)
            {
                assertThat(received.getOrDefault(COLORS.get(w), List.of()))
                    .as("every sample of writer %s once, in order, of %d written", COLORS.get(w), written.get(w).get())
                    .containsExactlyElementsOf(range(1, written.get(w).get()));
            }
        }
    }

    /**
     * The samples the old view did not deliver go out after the rejoin even if the writer writes nothing more: the
     * view install starts the re-send (else it waited for the next write, or for wait_for_acknowledgments). Over tcp,
     * where the stalled member's frames leave only with its predicate thread, so nothing written during the stall
     * reaches the others in the old view.
     */
    @Test
    void samplesNotDeliveredBeforeTheExclusionGoOutWithoutAnotherWrite() throws Exception
    {
        final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.transport", "tcp",
            "sirocco.dds.interface", "lo", "sirocco.dds.suspicion.ms", "1000"));
        try (DomainParticipants participants = new DomainParticipants(env))
        {
            final DomainParticipant pub = participants.create();
            final DomainParticipant sub = participants.create();
            participants.create();
            final DataWriter<Shape> writer = writer(pub, "Quiet");
            final DataReader<Shape> reader = reader(sub, "Quiet");
            Dds.await("the reader matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
            final Group pubGroup = ((GroupBus)((ParticipantImpl)pub).bus()).group();
            final CountDownLatch release = new CountDownLatch(1);
            final Subgroup stall = registerStall(pubGroup, release);
            try
            {
                write(writer, 1, 20);
                final List<Integer> received = take(reader, 20);
                assertThat(received).as("before the stall").containsExactlyElementsOf(range(1, 20));
                final int matches = reader.getSubscriptionMatchedStatus().getTotalCount();
                stallOnce(stall);
                write(writer, 21, 40);
                awaitLong("the reader's participant saw the writer gone",
                    () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 0);
                release.countDown();
                awaitLong("the writer back at the reader", () ->
                    reader.getSubscriptionMatchedStatus().getCurrentCount() == 1
                        && reader.getSubscriptionMatchedStatus().getTotalCount() > matches);
                received.addAll(take(reader, 20));
                assertThat(received).as("every sample once, in order").containsExactlyElementsOf(range(1, 40));
            }
            finally
            {
                release.countDown();
            }
        }
    }

    private static void write(final DataWriter<Shape> writer, final int from, final int to) throws Exception
    {
        final Shape shape = new Shape("RED", 0, 0, 10);
        for (int x = from; x <= to; x++)
        {
            shape.x = x;
            writer.write(shape);
        }
    }

    /** Writes samples 1, 2, ... until told to stop; {@code written} counts the writes that returned. */
    private static void writeUntil(final DataWriter<Shape> writer, final AtomicBoolean stop,
        final AtomicInteger written) throws Exception
    {
        writeUntil(writer, "RED", stop, written);
    }

    /** As above, for an instance of {@code color}. */
    private static void writeUntil(final DataWriter<Shape> writer, final String color, final AtomicBoolean stop,
        final AtomicInteger written) throws Exception
    {
        final Shape shape = new Shape(color, 0, 0, 10);
        while (!stop.get())
        {
            shape.x = written.get() + 1;
            writer.write(shape);
            written.incrementAndGet();
        }
    }

    /**
     * A subgroup only the publisher's member has: its delivery upcall runs on the member's predicate thread and holds
     * it until {@code release} (bounded), as a process the scheduler does not run: no heartbeat, no delivery.
     */
    private static Subgroup registerStall(final Group group, final CountDownLatch release)
    {
        final DeliveryHandler holding = new DeliveryHandler()
        {
            @Override
            public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
                final MemorySegment payload, final int length)
            {
                try
                {
                    release.await(120, TimeUnit.SECONDS);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
        };
        final Subgroup stall = group.register(new Group.SubgroupRegistration(
            SubgroupSpec.of(STALL, DeliveryMode.ORDERED).withWindow(4), Role.WRITER_READER, holding));
        awaitLong("the stall subgroup in a view", () -> stall.sendingEngine() != null);
        return stall;
    }

    /** Sends the one message whose delivery holds the publisher's predicate thread. */
    private static void stallOnce(final Subgroup stall)
    {
        final SlotClaim claim = new SlotClaim();
        final int rc = stall.claim(8, claim, TimeUnit.SECONDS.toNanos(60));
        assertThat(rc).as("claim in the stall subgroup: %s", ClaimResult.describe(rc)).isEqualTo(ClaimResult.OK);
        claim.commit();
    }

    private DataWriter<Shape> writer(final DomainParticipant pub, final String topic)
    {
        return writer(pub, pub.createTopic(topic, Shape.class));
    }

    private DataWriter<Shape> writer(final DomainParticipant pub, final Topic<Shape> topic)
    {
        final Publisher publisher = pub.createPublisher();
        return publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(60, TimeUnit.SECONDS),
                pf.History().withKeepAll(), pf.Durability().withVolatile()));
    }

    private DataReader<Shape> reader(final DomainParticipant sub, final String topic)
    {
        final Subscriber subscriber = sub.createSubscriber();
        return subscriber.createDataReader(sub.createTopic(topic, Shape.class), subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll(), pf.Durability().withVolatile()));
    }

    /** Takes samples until {@code count} came or nothing came for 60 s (the assertion then says what is missing). */
    private static List<Integer> take(final DataReader<Shape> reader, final int count)
    {
        final List<Integer> received = new ArrayList<>();
        final List<Sample<Shape>> samples = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (received.size() < count && System.nanoTime() - deadline < 0)
        {
            reader.take(samples);
            for (final Sample<Shape> sample : samples)
            {
                if (sample.getData() != null)
                {
                    received.add(sample.getData().x);
                    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                }
            }
            if (samples.isEmpty())
            {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L); // polling for the samples, bounded
            }
        }
        return received;
    }

    /** Takes samples until {@code count} came or nothing came for 60 s, by instance colour in arrival order. */
    private static Map<String, List<Integer>> takeByColor(final DataReader<Shape> reader, final int count)
    {
        final Map<String, List<Integer>> received = new java.util.HashMap<>();
        final List<Sample<Shape>> samples = new ArrayList<>();
        int total = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (total < count && System.nanoTime() - deadline < 0)
        {
            reader.take(samples);
            for (final Sample<Shape> sample : samples)
            {
                if (sample.getData() != null)
                {
                    received.computeIfAbsent(sample.getData().color, c -> new ArrayList<>()).add(sample.getData().x);
                    total++;
                    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                }
            }
            if (samples.isEmpty())
            {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L); // polling for the samples, bounded
            }
        }
        return received;
    }

    private static void awaitLong(final String what, final java.util.function.BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
    }

    private static List<Integer> range(final int from, final int to)
    {
        final List<Integer> values = new ArrayList<>();
        for (int x = from; x <= to; x++)
        {
            values.add(x);
        }
        return values;
    }
}
