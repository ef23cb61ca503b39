package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.Sample;
import org.omg.dds.topic.ParticipantBuiltinTopicData;
import org.omg.dds.topic.PublicationBuiltinTopicData;
import org.omg.dds.topic.SubscriptionBuiltinTopicData;

/** DCPSParticipant, DCPSPublication and DCPSSubscription through getBuiltinSubscriber(). */
@Timeout(60)
class BuiltinTopicsConformanceTest extends OverEveryTransport
{
    private final DomainParticipant observer = participant();
    private final DomainParticipant other = participant();

    BuiltinTopicsConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    @AfterEach
    void close()
    {
        other.close();
        observer.close();
    }

    @Test
    void builtinReadersListParticipantsPublicationsAndSubscriptions() throws Exception
    {
        final DataReader<ParticipantBuiltinTopicData> participants =
            observer.getBuiltinSubscriber().lookupDataReader("DCPSParticipant");
        final DataReader<PublicationBuiltinTopicData> publications =
            observer.getBuiltinSubscriber().lookupDataReader("DCPSPublication");
        final DataReader<SubscriptionBuiltinTopicData> subscriptions =
            observer.getBuiltinSubscriber().lookupDataReader("DCPSSubscription");
        Dds.await("two participants", () -> participants.read(new ArrayList<>()).size() == 2);
        assertThat(observer.getDiscoveredParticipants()).hasSize(2);

        final var topic = other.createTopic("Seen", Shape.class);
        final DataWriter<Shape> writer = other.createPublisher().createDataWriter(topic);
        other.createSubscriber().createDataReader(topic);
        Dds.await("a publication", () -> publications.read(new ArrayList<>()).size() == 1);
        final PublicationBuiltinTopicData publication = publications.read(new ArrayList<>()).get(0).getData();
        assertThat(publication.getTopicName()).isEqualTo("Seen");
        assertThat(publication.getTypeName()).isEqualTo("ShapeType");
        assertThat(publication.getKey().getValue()).isNotEmpty();
        Dds.await("a subscription", () -> subscriptions.read(new ArrayList<>()).size() == 1);

        writer.close();
        Dds.await("publication disposed", () ->
        {
            final List<Sample<PublicationBuiltinTopicData>> s = publications.read(new ArrayList<>());
            return !s.isEmpty() && s.get(s.size() - 1).getInstanceState() == InstanceState.NOT_ALIVE_DISPOSED;
        });
    }
}
