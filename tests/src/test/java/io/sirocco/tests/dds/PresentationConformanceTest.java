package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.PreconditionNotMetException;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.policy.Presentation.AccessScopeKind;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.3.6 PRESENTATION, as far as it is built: request/offered matching of access_scope (INSTANCE < TOPIC <
 * GROUP), coherent_access and ordered_access (one case per pair that must not match), INSTANCE scope with coherent and
 * ordered access (instances are independent there, so coherent sets group nothing), coherent access at TOPIC and GROUP
 * scope (what it delivers: CoherentSetsConformanceTest), the begin/end brackets of the Publisher and the Subscriber,
 * and a clear refusal of what is not built (ordered access over TOPIC or GROUP scope). Writer and reader are in two
 * participants.
 */
@Timeout(180)
class PresentationConformanceTest extends OverEveryTransport
{
    private final DomainParticipant writers = participant();
    private final DomainParticipant readers = participant();
    private final Topic<Shape> writerTopic = writers.createTopic("Presentation", Shape.class);
    private final Topic<Shape> readerTopic = readers.createTopic("Presentation", Shape.class);

    PresentationConformanceTest(final DdsTransport transport)
    {
        super(transport);
    }

    private Presentation presentation(final AccessScopeKind scope, final boolean coherent, final boolean ordered)
    {
        return writers.getDefaultPublisherQos().getPresentation().withAccessScope(scope).withCoherentAccess(coherent)
            .withOrderedAccess(ordered);
    }

    private Publisher publisher(final Presentation presentation)
    {
        return writers.createPublisher(writers.getDefaultPublisherQos().withPolicy(presentation));
    }

    private Subscriber subscriber(final Presentation presentation)
    {
        return readers.createSubscriber(readers.getDefaultSubscriberQos().withPolicy(presentation));
    }

    private DataWriter<Shape> writer(final Publisher publisher)
    {
        return publisher.createDataWriter(writerTopic, publisher.getDefaultDataWriterQos().withPolicy(
            pf.Reliability().withReliable()));
    }

    private DataReader<Shape> reader(final Subscriber subscriber)
    {
        return subscriber.createDataReader(readerTopic, subscriber.getDefaultDataReaderQos().withPolicies(
            pf.Reliability().withReliable(), pf.History().withKeepAll()));
    }

    /** A pair that must not match: both sides report Presentation as the incompatible policy, none is matched. */
    private void incompatible(final Presentation offered, final Presentation requested)
    {
        final DataWriter<Shape> writer = writer(publisher(offered));
        final DataReader<Shape> reader = reader(subscriber(requested));
        Dds.await("offered incompatible " + offered + " / " + requested,
            () -> writer.getOfferedIncompatibleQosStatus().getTotalCount() == 1);
        Dds.await("requested incompatible", () -> reader.getRequestedIncompatibleQosStatus().getTotalCount() == 1);
        assertThat(writer.getOfferedIncompatibleQosStatus().getLastPolicyClass()).isEqualTo(Presentation.class);
        assertThat(reader.getRequestedIncompatibleQosStatus().getLastPolicyClass()).isEqualTo(Presentation.class);
        assertThat(writer.getPublicationMatchedStatus().getTotalCount()).isZero();
        assertThat(reader.getSubscriptionMatchedStatus().getTotalCount()).isZero();
    }

    private DataReader<Shape> matchedPair(final Presentation offered, final Presentation requested,
        final List<DataWriter<Shape>> writerOut)
    {
        final DataWriter<Shape> writer = writer(publisher(offered));
        final DataReader<Shape> reader = reader(subscriber(requested));
        Dds.await("matched " + offered + " / " + requested, () ->
            writer.getPublicationMatchedStatus().getCurrentCount() == 1 &&
            reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);
        assertThat(reader.getRequestedIncompatibleQosStatus().getTotalCount()).isZero();
        writerOut.add(writer);
        return reader;
    }

    private static List<String> colors(final DataReader<Shape> reader)
    {
        final List<String> colors = new ArrayList<>();
        for (final Sample<Shape> sample : reader.read(new ArrayList<>()))
        {
            if (sample.getData() != null)
            {
                colors.add(sample.getData().color);
            }
        }
        return colors;
    }

    @Test
    void anInstanceScopeWriterDoesNotMatchATopicScopeReader()
    {
        incompatible(presentation(AccessScopeKind.INSTANCE, false, false),
            presentation(AccessScopeKind.TOPIC, false, false));
    }

    @Test
    void anInstanceScopeWriterDoesNotMatchAGroupScopeReader()
    {
        incompatible(presentation(AccessScopeKind.INSTANCE, false, false),
            presentation(AccessScopeKind.GROUP, false, false));
    }

    @Test
    void aTopicScopeWriterDoesNotMatchAGroupScopeReader()
    {
        incompatible(presentation(AccessScopeKind.TOPIC, false, false),
            presentation(AccessScopeKind.GROUP, false, false));
    }

    @Test
    void aWriterWithoutCoherentAccessDoesNotMatchAReaderThatRequestsIt()
    {
        incompatible(presentation(AccessScopeKind.INSTANCE, false, false),
            presentation(AccessScopeKind.INSTANCE, true, false));
    }

    @Test
    void aWriterWithoutOrderedAccessDoesNotMatchAReaderThatRequestsIt()
    {
        incompatible(presentation(AccessScopeKind.INSTANCE, false, false),
            presentation(AccessScopeKind.INSTANCE, false, true));
    }

    @Test
    void aWiderOfferedScopeMatchesANarrowerRequest() throws Exception
    {
        final List<DataWriter<Shape>> writer = new ArrayList<>();
        final DataReader<Shape> reader = matchedPair(presentation(AccessScopeKind.GROUP, false, false),
            presentation(AccessScopeKind.TOPIC, false, false), writer);
        writer.get(0).write(new Shape("RED", 1, 1, 1));
        Dds.await("RED", () -> colors(reader).contains("RED"));
    }

    @Test
    void coherentSetsAtInstanceScopeDeliverEveryInstanceInWriteOrder() throws Exception
    {
        final List<DataWriter<Shape>> writers = new ArrayList<>();
        final Presentation coherentOrdered = presentation(AccessScopeKind.INSTANCE, true, true);
        final DataReader<Shape> reader = matchedPair(coherentOrdered, coherentOrdered, writers);
        final DataWriter<Shape> writer = writers.get(0);
        final Publisher publisher = writer.getParent();
        publisher.beginCoherentChanges();
        publisher.beginCoherentChanges();
        writer.write(new Shape("RED", 1, 0, 0));
        writer.write(new Shape("BLUE", 1, 0, 0));
        publisher.endCoherentChanges();
        writer.write(new Shape("RED", 2, 0, 0));
        publisher.endCoherentChanges();
        assertThatThrownBy(publisher::endCoherentChanges).isInstanceOf(PreconditionNotMetException.class)
            .hasMessageContaining("endCoherentChanges without beginCoherentChanges");
        final Subscriber subscriber = reader.getParent();
        subscriber.beginAccess();
        Dds.await("the three samples", () -> colors(reader).size() == 3);
        final List<Integer> reds = new ArrayList<>();
        for (final Sample<Shape> sample : reader.read(new ArrayList<>()))
        {
            if (sample.getData() != null && "RED".equals(sample.getData().color))
            {
                reds.add(sample.getData().x);
            }
        }
        assertThat(reds).as("one instance's changes in the order written").containsExactly(1, 2);
        subscriber.endAccess();
        assertThatThrownBy(subscriber::endAccess).isInstanceOf(PreconditionNotMetException.class)
            .hasMessageContaining("endAccess without beginAccess");
    }

    @Test
    void orderedAccessOverTopicOrGroupScopeIsRefusedNamingWhatIsMissing()
    {
        assertThatThrownBy(() -> publisher(presentation(AccessScopeKind.TOPIC, false, true)))
            .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("TOPIC scope with ordered_access")
            .hasMessageContaining("access in write order across instances or topics");
        assertThatThrownBy(() -> subscriber(presentation(AccessScopeKind.GROUP, true, true)))
            .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("GROUP scope with ordered_access");
    }

    @Test
    void coherentAccessAtGroupScopeMatches()
    {
        final List<DataWriter<Shape>> writer = new ArrayList<>();
        matchedPair(presentation(AccessScopeKind.GROUP, true, false), presentation(AccessScopeKind.GROUP, true, false),
            writer);
        assertThat(writer).hasSize(1);
    }
}
