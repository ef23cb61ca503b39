package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.PreconditionNotMetException;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.SampleState;
import org.omg.dds.sub.Subscriber;

/** The Selector (PSM DataReader.Selector), read(max), read/takeNextSample, loans and read(List) copies. */
@Timeout(60)
class SelectorAndLoanConformanceTest extends OverEveryTransport
{
    private final DomainParticipant participant = participant();
    private DataWriter<Shape> writer;
    private DataReader<Shape> reader;
    private Subscriber subscriber;

    SelectorAndLoanConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    @BeforeEach
    void setUp() throws Exception
    {
        final var topic = participant.createTopic("Circle", Shape.class);
        writer = participant.createPublisher().createDataWriter(topic, participant.createPublisher()
            .getDefaultDataWriterQos().withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        subscriber = participant.createSubscriber();
        reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepAll()));
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1 &&
            reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        for (final String color : List.of("RED", "GREEN", "BLUE"))
        {
            for (int i = 0; i < 3; i++)
            {
                writer.write(new Shape(color, i, 0, 1));
            }
        }
        writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
        // Acknowledged is not yet in the reader's cache on the subgroup bus (its delivery thread hands samples over):
        // a last sample of another instance, taken alone, shows that the nine before it are there, none of them read.
        final Shape sync = new Shape("SYNC", 0, 0, 1);
        writer.write(sync);
        Dds.await("the samples in the reader's cache", () ->
        {
            final InstanceHandle handle = reader.lookupInstance(sync);
            return !handle.isNil() && !reader.select().instance(handle).take(new ArrayList<>()).isEmpty();
        });
    }

    @AfterEach
    void close()
    {
        participant.close();
    }

    @Test
    void selectorByInstanceReturnsOnlyThatInstance()
    {
        final InstanceHandle green = reader.lookupInstance(new Shape("GREEN", 0, 0, 0));
        final List<Sample<Shape>> got = reader.select().instance(green).read(new ArrayList<>());
        assertThat(got).hasSize(3).allMatch(s -> s.getData().color.equals("GREEN"));
    }

    @Test
    void nextInstanceWalksInstancesInHandleOrder()
    {
        final List<String> colors = new ArrayList<>();
        InstanceHandle previous = env.getSPI().nilHandle();
        while (true)
        {
            final List<Sample<Shape>> got = reader.select().instance(previous).nextInstance(true)
                .read(new ArrayList<>());
            if (got.isEmpty())
            {
                break;
            }
            assertThat(got).extracting(s -> s.getData().color).containsOnly(got.get(0).getData().color);
            colors.add(got.get(0).getData().color);
            previous = got.get(0).getInstanceHandle();
        }
        assertThat(colors).containsExactlyInAnyOrder("RED", "GREEN", "BLUE");
    }

    @Test
    void dataStateSelectsOnlyNotReadSamples()
    {
        final Sample.Iterator<Shape> two = reader.read(2);
        closeQuietly(two);
        final Subscriber.DataState notRead = subscriber.createDataState().with(SampleState.NOT_READ)
            .withAnyViewState().withAnyInstanceState();
        final List<Sample<Shape>> unread = reader.select().dataState(notRead).read(new ArrayList<>());
        assertThat(unread).hasSize(7).allMatch(s -> s.getSampleState() == SampleState.NOT_READ);
    }

    @Test
    void maxSamplesBoundsTheResult()
    {
        assertThat(reader.select().maxSamples(4).take(new ArrayList<>())).hasSize(4);
        assertThat(reader.take(new ArrayList<>())).hasSize(5);
    }

    @Test
    void readNextSampleWalksUnreadSamplesOnce()
    {
        final List<Sample<Shape>> holder = reader.read(new ArrayList<>());
        final Sample<Shape> sample = holder.get(0);
        writer.getTopic();
        int count = 0;
        while (reader.takeNextSample(sample))
        {
            count++;
        }
        assertThat(count).isZero();
        final List<Sample<Shape>> again = reader.take(new ArrayList<>());
        assertThat(again).hasSize(9);
    }

    @Test
    void loanedSamplesAreReturnedByClosingTheIterator() throws Exception
    {
        final Sample.Iterator<Shape> loan = reader.take();
        int n = 0;
        while (loan.hasNext())
        {
            assertThat(loan.next().getData()).isNotNull();
            n++;
        }
        assertThat(n).isEqualTo(9);
        assertThatThrownBy(reader::close).isInstanceOf(PreconditionNotMetException.class)
            .hasMessageContaining("loan");
        loan.close();
        reader.close();
    }

    @Test
    void readListCopiesAreIndependentOfTheCache()
    {
        final List<Sample<Shape>> copies = reader.read(new ArrayList<>());
        copies.get(0).getData().x = 999;
        final List<Sample<Shape>> again = reader.read(new ArrayList<>());
        assertThat(again).extracting(s -> s.getData().x).doesNotContain(999);
        final List<Sample<Shape>> reused = new ArrayList<>(copies);
        assertThat(reader.select().maxSamples(2).read(reused)).isSameAs(reused).hasSize(2);
    }

    private static void closeQuietly(final Sample.Iterator<Shape> it)
    {
        try
        {
            it.close();
        }
        catch (final java.io.IOException ex)
        {
            throw new AssertionError(ex);
        }
    }
}
