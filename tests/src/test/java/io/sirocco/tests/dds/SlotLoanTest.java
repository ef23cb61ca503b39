package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import avionics.AirData;
import avionics.AirDataFlat;
import io.sirocco.dds.loan.LoaningDataWriter;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
 * A write loan on {@code shm} lends the SMC slot itself: the loaned segment lies in the shared row (native memory,
 * at the ring position of the next message, so its address repeats with the window's period), the bytes a reader
 * gets are the ones written into it, and a loan closed without commit becomes a skip record that is delivered to
 * nobody and holds nobody up (another member's writer on the same topic goes on, and the loaning writer too).
 */
@Timeout(120)
class SlotLoanTest
{
    private static final int WINDOW = 4;

    private final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.window.slots", WINDOW,
        "sirocco.dds.transport", "shm"));
    private final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
    @AutoClose
    private final DomainParticipants participants = new DomainParticipants(env);

    private DataWriter<AirData> writer(final DomainParticipant p, final Topic<AirData> topic)
    {
        final Publisher publisher = p.createPublisher();
        // Not a test of max_blocking_time: the spec's 100 ms default made a write time out on a loaded machine while
        // the reader's delivery thread waited for a core. A slot an abandoned loan really blocked would still fail
        // here, after 30 s.
        return publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS), pf.History().withKeepAll()));
    }

    private DataReader<AirData> reader(final DomainParticipant p, final Topic<AirData> topic)
    {
        final Subscriber subscriber = p.createSubscriber();
        return subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepAll()));
    }

    /** Loans, fills through the flat view, commits; returns the loaned segment's address. */
    private static long loanAndCommit(final LoaningDataWriter<AirData> loaning, final AirDataFlat flat,
        final short aircraft, final double altitude) throws Exception
    {
        try (LoaningDataWriter.WriteLoan loan = loaning.loan(AirDataFlat.SIZE))
        {
            final MemorySegment segment = loan.segment();
            assertThat(segment.isNative()).as("the loan is the shared-memory slot, not a heap buffer").isTrue();
            flat.wrap(segment, 0).writeHeader().aircraftId(aircraft).altitudeFt(altitude).airspeedKt(250)
                .timestampNs((long)altitude);
            loan.commit();
            return segment.address();
        }
    }

    private static List<Double> takeAltitudes(final DataReader<AirData> reader, final int expected)
    {
        final List<Double> got = new ArrayList<>();
        Dds.await(expected + " samples taken", () ->
        {
            for (final Sample<AirData> s : reader.take(new ArrayList<>()))
            {
                if (s.getData() != null)
                {
                    got.add(s.getData().altitudeFt);
                }
            }
            return got.size() >= expected;
        });
        return got;
    }

    @Test
    @SuppressWarnings("unchecked")
    void theLoanIsTheSlotAndTheReaderGetsItsBytes() throws Exception
    {
        final DomainParticipant p = participants.create();
        final Topic<AirData> topic = p.createTopic("SlotLoan", AirData.class);
        final DataWriter<AirData> writer = writer(p, topic);
        final DataReader<AirData> reader = reader(p, topic);
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        final LoaningDataWriter<AirData> loaning = (LoaningDataWriter<AirData>)writer;
        final AirDataFlat flat = new AirDataFlat();
        final int rounds = 3 * WINDOW;
        final long[] address = new long[rounds];
        final List<Double> expected = new ArrayList<>();
        for (int i = 0; i < rounds; i++)
        {
            address[i] = loanAndCommit(loaning, flat, (short)7, 10_000 + i);
            expected.add(10_000.0 + i);
            // One message in flight at a time, so the next loan waits for nothing and its slot is known.
            writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
        }
        final Set<Long> distinct = new HashSet<>();
        for (int i = 0; i < rounds; i++)
        {
            distinct.add(address[i]);
            if (i >= WINDOW)
            {
                assertThat(address[i]).as("loan %d reuses the ring slot of loan %d", i, i - WINDOW)
                    .isEqualTo(address[i - WINDOW]);
            }
        }
        assertThat(distinct).as("one slot per ring position").hasSize(WINDOW);
        assertThat(takeAltitudes(reader, rounds)).containsExactlyElementsOf(expected);
    }

    @Test
    @SuppressWarnings("unchecked")
    void anAbandonedLoanIsDeliveredToNobodyAndBlocksNothing() throws Exception
    {
        final DomainParticipant a = participants.create();
        final DomainParticipant b = participants.create();
        final Topic<AirData> topicA = a.createTopic("SlotLoanAbort", AirData.class);
        final Topic<AirData> topicB = b.createTopic("SlotLoanAbort", AirData.class);
        final DataWriter<AirData> writerA = writer(a, topicA);
        final DataWriter<AirData> writerB = writer(b, topicB);
        final DataReader<AirData> reader = reader(a, topicA);
        Dds.await("matched", () -> writerA.getPublicationMatchedStatus().getCurrentCount() == 1
            && writerB.getPublicationMatchedStatus().getCurrentCount() == 1
            && reader.getSubscriptionMatchedStatus().getCurrentCount() == 2);
        final LoaningDataWriter<AirData> loaning = (LoaningDataWriter<AirData>)writerA;
        final AirDataFlat flat = new AirDataFlat();
        try (LoaningDataWriter.WriteLoan loan = loaning.loan(AirDataFlat.SIZE))
        {
            // A complete, valid sample: were the abandoned slot ever delivered, the reader would take it.
            flat.wrap(loan.segment(), 0).writeHeader().aircraftId((short)1).altitudeFt(-1).airspeedKt(1)
                .timestampNs(1);
        }
        // Writing on the loaning thread while its loan holds a slot is refused, and the refusal leaves nothing held.
        try (LoaningDataWriter.WriteLoan loan = loaning.loan(AirDataFlat.SIZE))
        {
            flat.wrap(loan.segment(), 0).writeHeader().aircraftId((short)1).altitudeFt(-2).airspeedKt(1)
                .timestampNs(1);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> writerA.write(new AirData((short)1, -3, 0, 0, 0,
                0, 0, 0))).isInstanceOf(org.omg.dds.core.PreconditionNotMetException.class);
        }
        // The other member's writer: in the round-robin order its messages come after writer A's slot, so they are
        // delivered only because the abandoned slot was turned into a skip record.
        final int count = 3 * WINDOW;
        final List<Double> expected = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            writerB.write(new AirData((short)2, i, 0, 0, 0, 0, 0, i));
            expected.add((double)i);
        }
        writerB.waitForAcknowledgments(30, TimeUnit.SECONDS);
        // The loaning writer is free again: its lock and the slot's sender lock were released by the abort.
        for (int i = 0; i < count; i++)
        {
            loanAndCommit(loaning, flat, (short)1, 100 + i);
            expected.add(100.0 + i);
        }
        writerA.waitForAcknowledgments(30, TimeUnit.SECONDS);
        final List<Double> got = takeAltitudes(reader, 2 * count);
        assertThat(got).as("every committed sample, none from the abandoned loans").doesNotContain(-1.0, -2.0, -3.0)
            .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(reader.take(new ArrayList<>())).as("nothing more").isEmpty();
    }
}
