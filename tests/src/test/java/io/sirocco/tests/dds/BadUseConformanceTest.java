package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.dds.config.ServiceBootstrap;
import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.AlreadyClosedException;
import org.omg.dds.core.Duration;
import org.omg.dds.core.ImmutablePolicyException;
import org.omg.dds.core.InconsistentPolicyException;
import org.omg.dds.core.PreconditionNotMetException;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;
import org.omg.dds.type.TypeSupport;

/** Bad use gets the spec's exceptions, with messages naming the entity and the policy. */
@Timeout(60)
class BadUseConformanceTest extends OverEveryTransport
{
    private final DomainParticipant participant = participant();
    private final Topic<Shape> topic = participant.createTopic("Shapes", Shape.class);

    BadUseConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    @AfterEach
    void close()
    {
        participant.close();
    }

    @Test
    void writingNullOrAnOutOfBoundSampleIsABadParameter()
    {
        final DataWriter<Shape> writer = participant.createPublisher().createDataWriter(topic);
        assertThatThrownBy(() -> writer.write(null)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("DataWriter on topic 'Shapes'").hasMessageContaining("null");
        assertThatThrownBy(() -> writer.write(new Shape("X".repeat(200), 0, 0, 0)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DataWriter on topic 'Shapes'")
            .hasMessageContaining("color").hasMessageContaining("bound");
    }

    @Test
    void usingAClosedEntityThrowsAlreadyClosed()
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic);
        writer.close();
        assertThatThrownBy(() -> writer.write(new Shape("RED", 0, 0, 0))).isInstanceOf(AlreadyClosedException.class)
            .hasMessageContaining("DataWriter on topic 'Shapes'");
        publisher.close();
        assertThatThrownBy(publisher::getQos).isInstanceOf(AlreadyClosedException.class)
            .hasMessageContaining("Publisher");
    }

    @Test
    void inconsistentResourceLimitsAreRejected()
    {
        final Subscriber subscriber = participant.createSubscriber();
        assertThatThrownBy(() -> subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos().withPolicy(
            pf.ResourceLimits().withMaxSamples(10).withMaxSamplesPerInstance(20))))
            .isInstanceOf(InconsistentPolicyException.class).hasMessageContaining("DataReader on topic 'Shapes'")
            .hasMessageContaining("max_samples_per_instance");
        final Publisher publisher = participant.createPublisher();
        assertThatThrownBy(() -> publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos().withPolicies(
            pf.History().withKeepLast(5), pf.ResourceLimits().withMaxSamplesPerInstance(2))))
            .isInstanceOf(InconsistentPolicyException.class).hasMessageContaining("History");
    }

    @Test
    void aTopicCannotChangeItsTypeAndFindTopicReturnsTheType() throws Exception
    {
        final TypeSupport<Shape> otherName = TypeSupport.newTypeSupport(Shape.class, "OtherType", env);
        assertThatThrownBy(() -> participant.createTopic("Shapes", otherName))
            .isInstanceOf(PreconditionNotMetException.class).hasMessageContaining("'Shapes'")
            .hasMessageContaining("OtherType").hasMessageContaining("ShapeType");
        final DomainParticipant other = participant();
        try
        {
            final Topic<Shape> found = other.findTopic("Shapes", 30, TimeUnit.SECONDS);
            assertThat(found.getTypeName()).isEqualTo("ShapeType");
            assertThatThrownBy(() -> other.createTopic("Shapes", otherName))
                .isInstanceOf(PreconditionNotMetException.class).hasMessageContaining("OtherType");
            assertThatThrownBy(() -> other.findTopic("NoSuchTopic", 50, TimeUnit.MILLISECONDS))
                .isInstanceOf(TimeoutException.class).hasMessageContaining("NoSuchTopic");
        }
        finally
        {
            other.close();
        }
    }

    @Test
    void aTopicInUseCannotBeClosed()
    {
        participant.createPublisher().createDataWriter(topic);
        assertThatThrownBy(topic::close).isInstanceOf(PreconditionNotMetException.class)
            .hasMessageContaining("Topic 'Shapes'");
    }

    @Test
    void featuresNotBuiltYetSayWhatTheyAre()
    {
        assertThatThrownBy(() -> participant.createMultiTopic("m", Shape.class, "SELECT * FROM Shapes", List.of()))
            .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("MultiTopic");
        assertThatThrownBy(() -> env.getSPI().getTypeFactory()).isInstanceOf(
            UnsupportedOperationException.class).hasMessageContaining("DynamicTypeFactory");
    }

    @Test
    void changingAnImmutablePolicyOfAnEnabledReaderIsRefused()
    {
        final DataReader<Shape> reader = participant.createSubscriber().createDataReader(topic);
        final DataReaderQos qos = reader.getQos();
        for (final QosPolicy.ForDataReader changed : List.<QosPolicy.ForDataReader>of(pf.Reliability().withReliable(),
            pf.History().withKeepLast(7), pf.Ownership().withExclusive(), pf.Liveliness().withManualByTopic(),
            pf.DestinationOrder().withSourceTimestamp()))
        {
            assertThatThrownBy(() -> reader.setQos(qos.withPolicy(changed)))
                .isInstanceOf(ImmutablePolicyException.class).hasMessageContaining("DataReader on topic 'Shapes'")
                .hasMessageContaining(changed.getClass().getInterfaces()[0].getSimpleName())
                .hasMessageContaining("cannot change after the DataReader is enabled");
        }
        final DataReaderQos changeable = qos.withPolicy(pf.UserData().withValue(new byte[] {1, 2}, 0, 2));
        reader.setQos(changeable);
        assertThat(reader.getQos()).isEqualTo(changeable);
    }

    @Test
    void changingAnImmutablePolicyOfAnEnabledWriterIsRefused()
    {
        final DataWriter<Shape> writer = participant.createPublisher().createDataWriter(topic);
        final DataWriterQos qos = writer.getQos();
        for (final QosPolicy.ForDataWriter changed : List.<QosPolicy.ForDataWriter>of(
            pf.Durability().withTransientLocal(), pf.ResourceLimits().withMaxInstances(3),
            pf.Ownership().withExclusive(), pf.Liveliness().withManualByTopic(),
            pf.DestinationOrder().withSourceTimestamp(), pf.DurabilityService().withHistoryDepth(5)))
        {
            assertThatThrownBy(() -> writer.setQos(qos.withPolicy(changed)))
                .isInstanceOf(ImmutablePolicyException.class).hasMessageContaining("DataWriter on topic 'Shapes'")
                .hasMessageContaining(changed.getClass().getInterfaces()[0].getSimpleName())
                .hasMessageContaining("cannot change after the DataWriter is enabled");
        }
        final DataWriterQos changeable = qos.withPolicy(pf.UserData().withValue(new byte[] {3}, 0, 1));
        writer.setQos(changeable);
        assertThat(writer.getQos()).isEqualTo(changeable);
    }

    @Test
    void spiBasicsBehave()
    {
        final ServiceEnvironment.ServiceProviderInterface spi = env.getSPI();
        final Duration second = spi.newDuration(1, TimeUnit.SECONDS);
        assertThat(second.add(500, TimeUnit.MILLISECONDS).getDuration(TimeUnit.MILLISECONDS)).isEqualTo(1500);
        assertThat(spi.infiniteDuration().add(second).isInfinite()).isTrue();
        assertThat(spi.zeroDuration().isZero()).isTrue();
        assertThat(spi.invalidTime().isValid()).isFalse();
        assertThat(spi.nilHandle().isNil()).isTrue();
        assertThat(spi.allStatusKinds()).hasSize(13);
        assertThat(spi.newKeyedString().setKey("k").setValue("v").getValue()).isEqualTo("v");
        assertThat(ServiceBootstrap.createEnvironment(getClass().getClassLoader()).getSPI()).isNotNull();
    }
}
