package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.ReadCondition;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.SampleState;
import org.omg.dds.sub.ViewState;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.2.5 (DataReader) and §2.2.2.4.2 (DataWriter): keyed instances, the instance state machine, sample
 * and view states, generation counts, read versus take, and KEEP_LAST replacement.
 */
@Timeout(60)
class InstanceLifecycleConformanceTest extends OverEveryTransport
{
    private final DomainParticipant participant = participant();
    private final Topic<Shape> topic = participant.createTopic("Square", Shape.class);

    InstanceLifecycleConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    @AfterEach
    void close()
    {
        participant.close();
    }

    private DataWriter<Shape> writer(final int depth, final boolean autodispose)
    {
        final DataWriterQos qos = participant.createPublisher().getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepLast(depth),
            pf.WriterDataLifecycle().withAutDisposeUnregisteredInstances(autodispose));
        return participant.createPublisher().createDataWriter(topic, qos);
    }

    private DataReader<Shape> reader(final int depth)
    {
        final DataReaderQos qos = participant.createSubscriber().getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepLast(depth));
        return participant.createSubscriber().createDataReader(topic, qos);
    }

    private static List<Sample<Shape>> readAll(final DataReader<Shape> reader)
    {
        return reader.read(new ArrayList<>());
    }

    private static void matched(final DataWriter<Shape> writer, final DataReader<Shape> reader)
    {
        Dds.await("publication matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        Dds.await("subscription matched", () -> reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
    }

    @Test
    void samplesStartNotReadAndNewThenBecomeReadAndNotNew() throws Exception
    {
        final DataWriter<Shape> writer = writer(10, true);
        final DataReader<Shape> reader = reader(10);
        matched(writer, reader);
        writer.write(new Shape("RED", 1, 2, 30));
        Dds.await("sample", () -> readAll(reader).size() == 1);
        // readAll above already marked it READ: check the states of a fresh write on another instance instead.
        writer.write(new Shape("BLUE", 3, 4, 30));
        Dds.await("second instance", () -> reader.read(new ArrayList<>(), reader.select().dataState(
            participant.createSubscriber().createDataState().with(SampleState.NOT_READ).withAnyViewState()
                .withAnyInstanceState())).size() == 1);
        final List<Sample<Shape>> all = readAll(reader);
        assertThat(all).hasSize(2);
        for (final Sample<Shape> sample : all)
        {
            assertThat(sample.getSampleState()).isEqualTo(SampleState.READ);
            assertThat(sample.getInstanceState()).isEqualTo(InstanceState.ALIVE);
            assertThat(sample.getViewState()).isEqualTo(ViewState.NOT_NEW);
        }
    }

    @Test
    void firstReadSeesNotReadAndNew() throws Exception
    {
        final DataWriter<Shape> writer = writer(10, true);
        final DataReader<Shape> reader = reader(10);
        matched(writer, reader);
        writer.write(new Shape("GREEN", 5, 6, 7));
        final List<Sample<Shape>> got = new ArrayList<>();
        Dds.await("sample", () ->
        {
            try (Sample.Iterator<Shape> it = reader.read())
            {
                while (it.hasNext())
                {
                    got.add(it.next().clone());
                }
            }
            catch (final java.io.IOException ex)
            {
                throw new AssertionError(ex);
            }
            return !got.isEmpty();
        });
        final Sample<Shape> first = got.get(0);
        assertThat(first.getSampleState()).isEqualTo(SampleState.NOT_READ);
        assertThat(first.getViewState()).isEqualTo(ViewState.NEW);
        assertThat(first.getData().color).isEqualTo("GREEN");
        assertThat(first.getData().x).isEqualTo(5);
        assertThat(first.getSourceTimestamp().isValid()).isTrue();
        assertThat(first.getPublicationHandle()).isEqualTo(writer.getInstanceHandle());
    }

    @Test
    void readLeavesSamplesTakeRemovesThem() throws Exception
    {
        final DataWriter<Shape> writer = writer(10, true);
        final DataReader<Shape> reader = reader(10);
        matched(writer, reader);
        for (int i = 0; i < 3; i++)
        {
            writer.write(new Shape("RED", i, i, 1));
        }
        Dds.await("three samples", () -> readAll(reader).size() == 3);
        assertThat(readAll(reader)).hasSize(3);
        final List<Sample<Shape>> taken = reader.take(new ArrayList<>());
        assertThat(taken).extracting(s -> s.getData().x).containsExactly(0, 1, 2);
        assertThat(taken).extracting(Sample::getSampleRank).containsExactly(2, 1, 0);
        assertThat(readAll(reader)).isEmpty();
    }

    @Test
    void keepLastReplacesTheOldestSamplePerInstance() throws Exception
    {
        final DataWriter<Shape> writer = writer(10, true);
        final DataReader<Shape> reader = reader(2);
        matched(writer, reader);
        for (int i = 0; i < 5; i++)
        {
            writer.write(new Shape("RED", i, 0, 1));
            writer.write(new Shape("BLUE", 10 + i, 0, 1));
        }
        writer.waitForAcknowledgments(30, java.util.concurrent.TimeUnit.SECONDS);
        Dds.await("the last samples", () -> readAll(reader).stream().map(s -> s.getData().x).toList()
            .containsAll(List.of(4, 14)));
        final List<Sample<Shape>> all = reader.take(new ArrayList<>());
        assertThat(all).extracting(s -> s.getData().color + s.getData().x)
            .containsExactlyInAnyOrder("RED3", "RED4", "BLUE13", "BLUE14");
    }

    @Test
    void disposeThenWriteIncrementsTheDisposedGeneration() throws Exception
    {
        final DataWriter<Shape> writer = writer(10, true);
        final DataReader<Shape> reader = reader(10);
        matched(writer, reader);
        final Shape red = new Shape("RED", 1, 1, 1);
        final InstanceHandle handle = writer.registerInstance(red);
        writer.write(red, handle);
        writer.dispose(handle, red);
        // Acknowledged is not yet in the cache on the subgroup bus (a delivery thread hands samples over): wait for it,
        // without reading. A read that came between the data and the dispose marked the data READ, and a dispose
        // finding no unread sample adds an invalid one (as it must): two samples, depending on the delivery's timing.
        final ReadCondition<Shape> disposed = reader.createReadCondition(participant.createSubscriber()
            .createDataState().withAnySampleState().withAnyViewState().with(InstanceState.NOT_ALIVE_DISPOSED));
        Dds.await("disposed", disposed::getTriggerValue);
        List<Sample<Shape>> samples = reader.read(new ArrayList<>());
        assertThat(samples).hasSize(1);
        assertThat(samples.get(0).getInstanceState()).isEqualTo(InstanceState.NOT_ALIVE_DISPOSED);
        assertThat(samples.get(0).getDisposedGenerationCount()).isZero();

        writer.write(new Shape("RED", 2, 2, 2));
        // A ReadCondition's trigger looks without reading, so the reborn sample keeps its view state NEW.
        final ReadCondition<Shape> reborn = reader.createReadCondition(participant.createSubscriber()
            .createDataState().withAnySampleState().with(ViewState.NEW).with(InstanceState.ALIVE));
        Dds.await("the instance reborn", reborn::getTriggerValue);
        samples = reader.take(new ArrayList<>());
        assertThat(samples).hasSize(2);
        final Sample<Shape> second = samples.get(1);
        assertThat(second.getInstanceState()).isEqualTo(InstanceState.ALIVE);
        assertThat(second.getViewState()).isEqualTo(ViewState.NEW);
        assertThat(second.getDisposedGenerationCount()).isEqualTo(1);
        assertThat(samples.get(0).getAbsoluteGenerationRank()).isEqualTo(1);
        assertThat(samples.get(0).getGenerationRank()).isEqualTo(1);
        assertThat(second.getAbsoluteGenerationRank()).isZero();
    }

    @Test
    void disposeWithoutUnreadDataProducesAnInvalidSample() throws Exception
    {
        final DataWriter<Shape> writer = writer(10, true);
        final DataReader<Shape> reader = reader(10);
        matched(writer, reader);
        final Shape red = new Shape("RED", 1, 1, 1);
        writer.write(red);
        writer.waitForAcknowledgments(30, java.util.concurrent.TimeUnit.SECONDS);
        Dds.await("the sample", () -> !readAll(reader).isEmpty());
        assertThat(reader.take(new ArrayList<>())).hasSize(1);
        writer.dispose(writer.lookupInstance(red));
        writer.waitForAcknowledgments(30, java.util.concurrent.TimeUnit.SECONDS);
        Dds.await("the dispose", () -> !readAll(reader).isEmpty());
        final List<Sample<Shape>> samples = reader.take(new ArrayList<>());
        assertThat(samples).hasSize(1);
        assertThat(samples.get(0).getData()).isNull();
        assertThat(samples.get(0).getInstanceState()).isEqualTo(InstanceState.NOT_ALIVE_DISPOSED);
    }

    @Test
    void unregisterWithoutAutodisposeMakesTheInstanceNoWriters() throws Exception
    {
        final DataWriter<Shape> writer = writer(10, false);
        final DataReader<Shape> reader = reader(10);
        matched(writer, reader);
        final Shape red = new Shape("RED", 1, 1, 1);
        writer.write(red);
        writer.unregisterInstance(writer.lookupInstance(red));
        writer.waitForAcknowledgments(30, java.util.concurrent.TimeUnit.SECONDS);
        Dds.await("no writers", () -> readAll(reader).stream()
            .anyMatch(s -> s.getInstanceState() == InstanceState.NOT_ALIVE_NO_WRITERS));
        final List<Sample<Shape>> samples = reader.read(new ArrayList<>());
        assertThat(samples).isNotEmpty();
        assertThat(samples.get(samples.size() - 1).getInstanceState()).isEqualTo(InstanceState.NOT_ALIVE_NO_WRITERS);
        assertThat(writer.lookupInstance(red).isNil()).isTrue();
    }

    @Test
    void closingTheWriterDisposesItsInstancesWhenAutodisposeIsOn() throws Exception
    {
        final DataWriter<Shape> writer = writer(10, true);
        final DataReader<Shape> reader = reader(10);
        matched(writer, reader);
        writer.write(new Shape("RED", 1, 1, 1));
        writer.close();
        Dds.await("disposed", () ->
        {
            final List<Sample<Shape>> s = reader.read(new ArrayList<>());
            return !s.isEmpty() && s.get(s.size() - 1).getInstanceState() == InstanceState.NOT_ALIVE_DISPOSED;
        });
    }

    @Test
    void instanceHandlesKeysAndLookup() throws Exception
    {
        final DataWriter<Shape> writer = writer(10, true);
        final DataReader<Shape> reader = reader(10);
        matched(writer, reader);
        final InstanceHandle handle = writer.registerInstance(new Shape("YELLOW", 0, 0, 0));
        assertThat(writer.lookupInstance(new Shape("YELLOW", 9, 9, 9))).isEqualTo(handle);
        assertThat(writer.getKeyValue(handle).color).isEqualTo("YELLOW");
        assertThat(writer.lookupInstance(new Shape("PURPLE", 0, 0, 0)).isNil()).isTrue();
        writer.write(new Shape("YELLOW", 4, 4, 4), handle);
        writer.waitForAcknowledgments(30, java.util.concurrent.TimeUnit.SECONDS);
        Dds.await("the instance", () -> !reader.lookupInstance(new Shape("YELLOW", 0, 0, 0)).isNil());
        final InstanceHandle readerHandle = reader.lookupInstance(new Shape("YELLOW", 0, 0, 0));
        assertThat(readerHandle.isNil()).isFalse();
        assertThat(reader.getKeyValue(null, readerHandle).color).isEqualTo("YELLOW");
        final List<Sample<Shape>> samples = reader.read(new ArrayList<>());
        assertThat(samples.get(0).getInstanceHandle()).isEqualTo(readerHandle);
    }
}
