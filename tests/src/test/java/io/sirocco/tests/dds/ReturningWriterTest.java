package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusReader;
import io.sirocco.pubsub.bus.BusWriter;
import io.sirocco.pubsub.bus.DeliveryHandler;
import io.sirocco.pubsub.bus.group.GroupBus;
import io.sirocco.pubsub.domain.ParticipantImpl;
import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.core.status.PublicationMatchedStatus;
import org.omg.dds.core.status.SubscriptionMatchedStatus;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;

/**
 * A writer that a member retracted because its member left the view, or because this member itself was excluded (a
 * false suspicion under load), comes back when the members merge again: the rejoin's view makes every member
 * re-announce its records, but a topic subgroup is not ordered with {@code dcps}, so the writer's samples in the new
 * view (the re-sent unacknowledged ones first) can reach the member before the re-announced record. The reader drops
 * samples of a writer it does not know, without counting them anywhere, so the group bus must hold them until the
 * record is handed to the DDS layer again, as it does for a writer never seen before. It used to deliver them at once:
 * such a writer was "retired" like a closed one, and the channel's last-writer cache skipped the look-up anyway.
 *
 * <p>The exclusion is the group layer's upcall {@link GroupBus#onExcluded} on the reader's bus (the member itself stays
 * in the view, so the writer's samples go on arriving while its record is gone), and the re-announcement comes with
 * the view change of a third participant joining, as it comes with the rejoin's view.
 */
@Timeout(120)
class ReturningWriterTest
{
    private final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.transport", "shm"));
    private final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
    @AutoClose
    private final DomainParticipants participants = new DomainParticipants(env);

    @Test
    void samplesOfAWriterBackAfterAnExclusionAreHeldUntilItsRecordIsBack() throws Exception
    {
        final Matched m = matched("Returning", false);
        final DomainParticipant sub = m.sub();
        final DataWriter<Shape> writer = m.writer();
        final DataReader<Shape> reader = m.reader();
        final List<Integer> received = writeAndTakeTheFirstTwenty(writer, reader);

        // The group layer tells the reader's member it was excluded: every remote entity is gone for it.
        final int matches = reader.getSubscriptionMatchedStatus().getTotalCount();
        exclude(sub);
        awaitRetracted(reader, matches);
        // The writer goes on; its samples reach the reader's member before its record comes back.
        write(writer, 21, 60);
        // A view change: every member re-announces its records, as after the rejoin.
        participants.create();
        Dds.await("the writer matched again", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        takeUntil(reader, received, 60);
        assertThat(received).as("every sample, in order, none twice").containsExactlyElementsOf(range(1, 60));
    }

    /**
     * The rejoin re-sends, first in the new view, the samples its member had not seen acknowledged by every member,
     * with their original sequence numbers; a reader may have taken some of them before it was excluded. The reader's
     * duplicate filter (the last sequence number it took from that writer) must survive the writer's retraction by
     * the exclusion, or those samples are taken twice. The re-send is played here by a second bus writer with the
     * writer's GUID on the writer's member, sending again the exact messages (captured by a raw bus reader on the
     * reader's member) of samples 11..20, ahead of 21..60, before the record is back (as in the rejoin's view).
     */
    @Test
    void samplesReSentByAReturningWriterAreNotTakenTwice() throws Exception
    {
        final Matched m = matched("ReSent", false);
        final DomainParticipant pub = m.pub();
        final DomainParticipant sub = m.sub();
        final DataWriter<Shape> writer = m.writer();
        final DataReader<Shape> reader = m.reader();
        final ParticipantImpl subImpl = (ParticipantImpl)sub;
        final Queue<BusMessage> captured = new ConcurrentLinkedQueue<>();
        final BusReader capture = subImpl.bus().openReader(subImpl.nextGuid(), "ReSent", true, new DeliveryHandler()
        {
            @Override
            public void onMessage(final BusMessage message)
            {
                if (message.kind() == BusMessage.KIND_DATA && message.seq() > 10 && message.seq() <= 20)
                {
                    final BusMessage copy = new BusMessage(message.payloadLength());
                    copy.copyFrom(message);
                    captured.add(copy);
                }
            }

            @Override
            public void onLost(final int count)
            {
            }

            @Override
            public void onBatchEnd()
            {
            }
        });
        try
        {
            final List<Integer> received = writeAndTakeTheFirstTwenty(writer, reader);
            Dds.await("the raw reader captured samples 11..20", () -> captured.size() == 10);

            final int matches = reader.getSubscriptionMatchedStatus().getTotalCount();
            exclude(subImpl);
            awaitRetracted(reader, matches);
            // The rejoin's re-send of samples the reader already took, first, then the writer goes on. (Closing the
            // second bus writer leaves the writer's member without the real writer's end mark at teardown: harmless.)
            final long writerGuid = captured.peek().writerGuid();
            try (BusWriter resend = ((ParticipantImpl)pub).bus().openWriter(writerGuid, "ReSent", true))
            {
                for (final BusMessage message : captured)
                {
                    assertThat(resend.publish(message, TimeUnit.SECONDS.toNanos(30))).as("re-sent").isTrue();
                }
            }
            write(writer, 21, 60);
            participants.create();
            Dds.await("the writer matched again",
                () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
            takeUntil(reader, received, 60);
            assertThat(received).as("every sample once, in order").containsExactlyElementsOf(range(1, 60));
        }
        finally
        {
            capture.close();
        }
    }

    /**
     * When both sides saw each other gone (each member excluded, or each side's view without the other), the writer
     * re-matches the TRANSIENT_LOCAL reader on its return and replays its history to it, the samples the reader took
     * before included, with their original sequence numbers; the reader, back to waiting for the history, must take
     * only the ones it has not taken (here those written while it was away), once and in order.
     */
    @Test
    void aHistoryReplayedToATransientLocalReaderAfterAReturnIsNotTakenTwice() throws Exception
    {
        final Matched m = matched("Replayed", true);
        final DomainParticipant pub = m.pub();
        final DomainParticipant sub = m.sub();
        final DataWriter<Shape> writer = m.writer();
        final DataReader<Shape> reader = m.reader();
        final List<Integer> received = writeAndTakeTheFirstTwenty(writer, reader);

        final int readerMatches = reader.getSubscriptionMatchedStatus().getTotalCount();
        final int writerMatches = writer.getPublicationMatchedStatus().getTotalCount();
        exclude(sub);
        exclude(pub);
        awaitRetracted(reader, readerMatches);
        Dds.await("the reader retracted at the writer", () ->
        {
            final PublicationMatchedStatus status = writer.getPublicationMatchedStatus();
            return status.getCurrentCount() == 0 || status.getTotalCount() > writerMatches;
        });
        write(writer, 21, 40);
        participants.create();
        Dds.await("the writer matched again", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        Dds.await("the reader matched again", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        takeUntil(reader, received, 40);
        assertThat(received).as("every sample once, in order").containsExactlyElementsOf(range(1, 40));
    }

    /** Two participants, each with one end of {@code topic}: a RELIABLE KEEP_ALL writer and reader, matched. */
    private record Matched(DomainParticipant pub, DomainParticipant sub, DataWriter<Shape> writer,
        DataReader<Shape> reader)
    {
    }

    private Matched matched(final String topic, final boolean transientLocal) throws Exception
    {
        final DomainParticipant pub = participants.create();
        final DomainParticipant sub = participants.create();
        final Durability durability = transientLocal ? pf.Durability().withTransientLocal()
            : pf.Durability().withVolatile();
        final Publisher publisher = pub.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(pub.createTopic(topic, Shape.class),
            publisher.getDefaultDataWriterQos().withPolicies(
                pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS), pf.History().withKeepAll(),
                durability));
        final Subscriber subscriber = sub.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(sub.createTopic(topic, Shape.class),
            subscriber.getDefaultDataReaderQos().withPolicies(pf.Reliability().withReliable(),
                pf.History().withKeepAll(), durability));
        Dds.await("the reader matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        Dds.await("the writer matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        return new Matched(pub, sub, writer, reader);
    }

    /** The group layer's upcall: the participant's member was excluded, so every remote entity is gone for it. */
    private static void exclude(final DomainParticipant participant)
    {
        ((GroupBus)((ParticipantImpl)participant).bus()).onExcluded("ReturningWriterTest: taken for excluded");
    }

    /**
     * Waits until the reader saw the writer retracted. The exclusion is played from the test thread while the members
     * stay in one view, so a re-announcement of the writer's record from the last view change can still be on its way
     * and match the writer again right after the retraction, between two polls: a match counted after
     * {@code matchesBefore} shows the retraction happened too. (A real exclusion delivers nothing of the old view.)
     */
    private static void awaitRetracted(final DataReader<Shape> reader, final int matchesBefore)
    {
        Dds.await("the writer retracted at the reader", () ->
        {
            final SubscriptionMatchedStatus status = reader.getSubscriptionMatchedStatus();
            return status.getCurrentCount() == 0 || status.getTotalCount() > matchesBefore;
        });
    }

    /** Writes samples 1..20 and takes them all, in order, before anything is excluded. */
    private static List<Integer> writeAndTakeTheFirstTwenty(final DataWriter<Shape> writer,
        final DataReader<Shape> reader) throws Exception
    {
        final List<Integer> received = new ArrayList<>();
        write(writer, 1, 20);
        takeUntil(reader, received, 20);
        assertThat(received).as("before the exclusion").containsExactlyElementsOf(range(1, 20));
        return received;
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

    /** Takes samples until {@code received} holds {@code count} of them, or 30 s passed (the assertion then says). */
    private static void takeUntil(final DataReader<Shape> reader, final List<Integer> received, final int count)
    {
        final List<Sample<Shape>> samples = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (received.size() < count && System.nanoTime() - deadline < 0)
        {
            reader.take(samples);
            for (final Sample<Shape> sample : samples)
            {
                if (sample.getData() != null)
                {
                    received.add(sample.getData().x);
                }
            }
            if (samples.isEmpty())
            {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L); // polling for the samples, bounded
            }
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
