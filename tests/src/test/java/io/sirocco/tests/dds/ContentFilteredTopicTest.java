package io.sirocco.tests.dds;

import avionics.AirData;
import avionics.EngineState;
import avionics.EngineStatus;
import io.sirocco.pubsub.content.ContentFilter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import shapes.ShapeType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.ContentFilteredTopic;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicDescription;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ContentFilteredTopic over each transport: a reader on the filtered topic gets exactly the samples that pass, in
 * any order across instances, while a plain reader of the related topic gets them all; new expression parameters
 * apply to
 * the samples written after them. A final sample that passes marks the end, so "nothing else arrived" is checked
 * without waiting for time to pass. AirData and EngineStatus are filtered on their serialized bytes (flat view),
 * ShapeType (strings) after deserialization.
 */
@Timeout(180)
class ContentFilteredTopicTest
{
    private static ServiceEnvironment environment(final String transport)
    {
        return Dds.environment(Map.of("sirocco.dds.transport", transport, "sirocco.dds.interface", "lo"));
    }

    private static <T> DataWriter<T> writer(final PolicyFactory pf, final DomainParticipant p, final Topic<T> topic)
    {
        final Publisher publisher = p.createPublisher();
        return publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.Reliability().withReliable().withMaxBlockingTime(60, TimeUnit.SECONDS), pf.History().withKeepAll()));
    }

    private static <T> DataReader<T> reader(final PolicyFactory pf, final DomainParticipant p,
        final TopicDescription<T> topic)
    {
        final Subscriber subscriber = p.createSubscriber();
        return subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepAll()));
    }

    /**
     * Takes valid samples until {@code last}, the writer's last passing sample, was taken. Delivery is in the
     * writer's order and a take returns every cached sample, so by then every earlier sample that passed was taken
     * too; take returns them instance by instance, hence the callers compare without order.
     */
    private static <T, V> List<V> takeUntil(final DataReader<T> reader, final java.util.function.Function<T, V> value,
        final V last)
    {
        final List<V> got = new ArrayList<>();
        Dds.await("the marker " + last, () ->
        {
            for (final Sample<T> s : reader.take(new ArrayList<>()))
            {
                if (s.getData() != null)
                {
                    got.add(value.apply(s.getData()));
                }
            }
            return got.contains(last);
        });
        return got;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "shm", "tcp"})
    void filteredReaderGetsExactlyThePassingSamplesAndParametersChangeLive(final String transport) throws Exception
    {
        final ServiceEnvironment env = environment(transport);
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        try (DomainParticipants participants = new DomainParticipants(env))
        {
            final DomainParticipant pubSide = participants.create();
            final DomainParticipant subSide = participants.create();
            final Topic<AirData> pubTopic = pubSide.createTopic("CftAir", AirData.class);
            final Topic<AirData> subTopic = subSide.createTopic("CftAir", AirData.class);
            final ContentFilteredTopic<AirData> filtered = subSide.createContentFilteredTopic("CftAirHigh", subTopic,
                "altitudeFt > %0 AND aircraftId <> 3", List.of("50"));
            assertThat(filtered.getFilterExpression()).isEqualTo("altitudeFt > %0 AND aircraftId <> 3");
            assertThat(filtered.getRelatedTopic()).isSameAs(subTopic);
            assertThat(filtered.getTypeName()).isEqualTo(subTopic.getTypeName());
            final DataReader<AirData> high = reader(pf, subSide, filtered);
            assertThat(high.getTopicDescription()).isSameAs(filtered);
            final DataReader<AirData> all = reader(pf, subSide, subTopic);
            final DataWriter<AirData> writer = writer(pf, pubSide, pubTopic);
            Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 2);

            final List<Double> expected = new ArrayList<>();
            final List<Double> written = new ArrayList<>();
            for (int i = 0; i < 100; i++)
            {
                final short aircraft = (short)(i % 4);
                writer.write(new AirData(aircraft, i, 0, 0, 0, 0, 0, i));
                written.add((double)i);
                if (i > 50 && aircraft != 3)
                {
                    expected.add((double)i);
                }
            }
            assertThat(takeUntil(high, a -> a.altitudeFt, 98.0)).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(takeUntil(all, a -> a.altitudeFt, 99.0)).containsExactlyInAnyOrderElementsOf(written);

            filtered.setExpressionParameters(List.of("1000"));
            assertThat(filtered.getExpressionParameters()).containsExactly("1000");
            final List<Double> after = new ArrayList<>();
            for (int i = 0; i < 40; i++)
            {
                final double altitude = 990 + i;
                writer.write(new AirData((short)(i % 4), altitude, 0, 0, 0, 0, 0, i));
                if (altitude > 1000 && i % 4 != 3)
                {
                    after.add(altitude);
                }
            }
            assertThat(takeUntil(high, a -> a.altitudeFt, after.get(after.size() - 1)))
                .containsExactlyInAnyOrderElementsOf(after);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "shm", "tcp"})
    void enumsAndStringsFilterOnBothPaths(final String transport) throws Exception
    {
        final ServiceEnvironment env = environment(transport);
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        try (DomainParticipants participants = new DomainParticipants(env))
        {
            final DomainParticipant pubSide = participants.create();
            final DomainParticipant subSide = participants.create();
            final Topic<EngineStatus> engines = subSide.createTopic("CftEngines", EngineStatus.class);
            final DataReader<EngineStatus> running = reader(pf, subSide, subSide.createContentFilteredTopic(
                "CftRunning", engines, "state = RUNNING AND n1Pct BETWEEN 20 AND 80 AND vibration[1] < 0.5",
                List.of()));
            final Topic<ShapeType> shapes = subSide.createTopic("CftShapes", ShapeType.class);
            final DataReader<ShapeType> blues = reader(pf, subSide, subSide.createContentFilteredTopic(
                "CftBlues", shapes, "color LIKE 'BL%' AND x > %0", List.of("10")));
            final DataWriter<EngineStatus> engineWriter = writer(pf, pubSide,
                pubSide.createTopic("CftEngines", EngineStatus.class));
            final DataWriter<ShapeType> shapeWriter = writer(pf, pubSide, pubSide.createTopic("CftShapes",
                ShapeType.class));
            Dds.await("matched", () -> engineWriter.getPublicationMatchedStatus().getCurrentCount() == 1 &&
                shapeWriter.getPublicationMatchedStatus().getCurrentCount() == 1);

            final List<Long> expectedEngines = new ArrayList<>();
            final List<String> expectedShapes = new ArrayList<>();
            final EngineState[] states = EngineState.values();
            for (int i = 0; i < 60; i++)
            {
                final EngineStatus status = new EngineStatus();
                status.aircraftId = (short)(i % 3);
                status.state = states[i % states.length];
                status.n1Pct = i * 1.5f;
                status.vibration[1] = (i % 2) * 0.75f;
                status.timestampNs = i;
                engineWriter.write(status);
                if (status.state == EngineState.RUNNING && status.n1Pct >= 20 && status.n1Pct <= 80 &&
                    status.vibration[1] < 0.5)
                {
                    expectedEngines.add((long)i);
                }
                final String color = i % 3 == 0 ? "BLUE" : i % 3 == 1 ? "BLACK" : "RED";
                shapeWriter.write(new ShapeType(color + i, i, 0, 5));
                if (!color.equals("RED") && i > 10)
                {
                    expectedShapes.add(color + i);
                }
            }
            assertThat(expectedEngines).isNotEmpty();
            assertThat(takeUntil(running, e -> e.timestampNs, expectedEngines.get(expectedEngines.size() - 1)))
                .containsExactlyInAnyOrderElementsOf(expectedEngines);
            assertThat(takeUntil(blues, s -> s.color, expectedShapes.get(expectedShapes.size() - 1)))
                .containsExactlyInAnyOrderElementsOf(expectedShapes);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local"})
    void badExpressionsNamePositionTokenFieldAndType(final String transport)
    {
        final ServiceEnvironment env = environment(transport);
        try (DomainParticipants participants = new DomainParticipants(env))
        {
            final DomainParticipant p = participants.create();
            final Topic<AirData> topic = p.createTopic("CftBad", AirData.class);
            assertThatThrownBy(() -> p.createContentFilteredTopic("bad", topic, "altitudeFt >> 3", List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("position 12")
                .hasMessageContaining("'>'");
            assertThatThrownBy(() -> p.createContentFilteredTopic("bad", topic, "altitude > 3", List.of()))
                .hasMessageContaining("unknown field 'altitude'").hasMessageContaining("avionics.AirData");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local"})
    void flatAndDeserializedEvaluationAgree(final String transport)
    {
        final java.util.Random random = new java.util.Random(20);
        final ContentFilter<EngineStatus> filter = ContentFilter.compile("state >= %0 AND (n1Pct > 30 OR " +
            "vibration[3] <= 0.5) AND NOT aircraftId BETWEEN 2 AND 4", List.of("STARTING"), EngineStatus.class);
        assertThat(filter.readsSerialized()).as("EngineStatus has a flat view").isTrue();
        final java.lang.foreign.MemorySegment buffer = java.lang.foreign.Arena.ofAuto().allocate(256);
        int passed = 0;
        for (int i = 0; i < 2000; i++)
        {
            final EngineStatus status = new EngineStatus();
            status.aircraftId = (short)random.nextInt(8);
            status.state = EngineState.values()[random.nextInt(EngineState.values().length)];
            status.n1Pct = random.nextFloat() * 60;
            status.vibration[3] = random.nextFloat();
            final long length = avionics.EngineStatusTypeSupport.INSTANCE.serialize(status, buffer, 0,
                avionics.EngineStatusTypeSupport.INSTANCE.defaultRepresentation());
            final boolean onObject = filter.matches(status);
            assertThat(filter.matchSerialized(buffer, 0, length)).as("sample %d", i)
                .isEqualTo(onObject ? ContentFilter.MATCH : ContentFilter.NO_MATCH);
            passed += onObject ? 1 : 0;
        }
        assertThat(passed).as("both outcomes occur").isBetween(1, 1999);
        assertThat(ContentFilter.compile("color = 'x'", List.of(), ShapeType.class).readsSerialized())
            .as("strings have no flat view").isFalse();
    }
}
