package io.sirocco.tests.dds;

import avionics.AirData;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.omg.dds.core.QosProvider;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.History;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example QoS document (examples/qos/sirocco-qos.xml) through {@code QosProvider.newQosProvider} and the factory
 * methods that take a QoS, over each transport: the entities carry the profile's inherited and own policies, and a
 * reader created after the writes gets all of the writer's TRANSIENT_LOCAL history (which the profile's base asks
 * for) on the profile's partition; take returns it instance by instance, hence the comparison without order.
 */
@Timeout(180)
class QosProfileTest
{
    private static Path exampleProfiles()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("examples/qos/sirocco-qos.xml")))
        {
            dir = dir.getParent();
        }
        assertThat(dir).as("a parent directory holding examples/qos/sirocco-qos.xml").isNotNull();
        return dir.resolve("examples/qos/sirocco-qos.xml");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "shm", "tcp"})
    void entitiesMadeWithTheExampleProfileCarryItAndALateReaderGetsTheHistory(final String transport)
        throws Exception
    {
        final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.transport", transport,
            "sirocco.dds.interface", "lo"));
        final QosProvider qos = QosProvider.newQosProvider(exampleProfiles().toUri().toString(),
            "Avionics::Telemetry", env);
        try (DomainParticipants participants = new DomainParticipants(env))
        {
            final DomainParticipant pubSide = participants.create();
            final DomainParticipant subSide = participants.create();
            final Topic<AirData> pubTopic = pubSide.createTopic("QosProfileAir", AirData.class);
            final Publisher publisher = pubSide.createPublisher(qos.getPublisherQos(), null, List.of());
            final DataWriter<AirData> writer = publisher.createDataWriter(pubTopic, qos.getDataWriterQos(), null,
                List.of());
            assertThat(writer.getQos().getHistory().getKind()).isEqualTo(History.Kind.KEEP_ALL);
            assertThat(writer.getQos().getDurability().getKind()).isEqualTo(Durability.Kind.TRANSIENT_LOCAL);
            assertThat(writer.getQos().getDeadline().getPeriod().getDuration(TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(publisher.getQos().getPartition().getName()).containsExactly("flight");
            for (int i = 0; i < 20; i++)
            {
                writer.write(new AirData((short)(i % 3), i, 0, 0, 0, 0, 0, i));
            }

            final Topic<AirData> subTopic = subSide.createTopic("QosProfileAir", AirData.class);
            final Subscriber subscriber = subSide.createSubscriber(qos.getSubscriberQos(), null, List.of());
            final DataReader<AirData> reader = subscriber.createDataReader(subTopic, qos.getDataReaderQos(), null,
                List.of());
            assertThat(reader.getQos().getDurability().getKind()).isEqualTo(Durability.Kind.TRANSIENT_LOCAL);
            final List<Double> got = new ArrayList<>();
            Dds.await("the writer's 20 samples", () ->
            {
                for (final Sample<AirData> s : reader.take(new ArrayList<>()))
                {
                    if (s.getData() != null)
                    {
                        got.add(s.getData().altitudeFt);
                    }
                }
                return got.size() >= 20;
            });
            final List<Double> expected = new ArrayList<>();
            for (int i = 0; i < 20; i++)
            {
                expected.add((double)i);
            }
            assertThat(got).containsExactlyInAnyOrderElementsOf(expected);
        }
    }
}
