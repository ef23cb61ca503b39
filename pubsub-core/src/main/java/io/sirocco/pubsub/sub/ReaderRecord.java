package io.sirocco.pubsub.sub;

import java.util.List;
import java.util.function.Consumer;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.pubsub.topic.filtered.ContentFilteredTopicImpl;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.SubscriberQos;

/**
 * A DataReader's endpoint record as announced: its topic and type and the QoS that discovery matches writers
 * against ({@link #of}). A reader of a ContentFilteredTopic carries the filter's expression and
 * parameters in it, so that writers can filter for it; when the topic's parameters change, the record is replaced
 * and re-announced, and matched writers then filter with the new ones (until they hear of them, a writer filters
 * with the old ones: samples written meanwhile that only the new parameters pass may be left out).
 *
 * <p>Threads: {@link #current} from any thread (a volatile read); {@link #filterBy} once, before the reader is
 * enabled; the parameter changes arrive on the thread that sets them, under the topic's lock, hence in order; after
 * {@link #stop} none arrives. A parameter change and a {@code setQos} ({@link #requalify}) may come from two threads:
 * both replace and announce under this object's monitor (a cold path), so the last record announced is the current.
 */
final class ReaderRecord
{
    private final long guid;
    private final long participantGuid;
    private final TopicImpl<?> topic;
    private final boolean reliable;
    private final Consumer<EndpointRecord> announce;
    private final Consumer<List<String>> onParameters = this::parametersChanged;
    private volatile EndpointRecord current;
    private ContentFilteredTopicImpl<?> filteredTopic;

    /**
     * The record of a new reader ({@link #of}).
     *
     * @param announce announces a changed record (if the reader is enabled and open).
     */
    ReaderRecord(final long guid, final long participantGuid, final TopicImpl<?> topic, final boolean reliable,
        final DataReaderQos qos, final SubscriberQos groupQos, final Consumer<EndpointRecord> announce)
    {
        this.guid = guid;
        this.participantGuid = participantGuid;
        this.topic = topic;
        this.reliable = reliable;
        this.current = of(guid, participantGuid, topic, reliable, qos, groupQos);
        this.announce = announce;
    }

    /** @param reliable whether the reader asks for RELIABLE (a QoS without RELIABILITY is BEST_EFFORT). */
    static EndpointRecord of(final long guid, final long participantGuid, final TopicImpl<?> topic,
        final boolean reliable, final DataReaderQos qos, final SubscriberQos groupQos)
    {
        return new EndpointRecord(EndpointRecord.READER, guid, participantGuid, topic.getName(),
            topic.getTypeName(), topic.getTypeSupport().getType().getName(),
            reliable ? Reliability.Kind.RELIABLE.ordinal() : Reliability.Kind.BEST_EFFORT.ordinal(), 0,
            qos.getDurability().getKind().ordinal(), DurationImpl.toNanos(qos.getDeadline().getPeriod()),
            DurationImpl.toNanos(qos.getLatencyBudget().getDuration()), qos.getLiveliness().getKind().ordinal(),
            DurationImpl.toNanos(qos.getLiveliness().getLeaseDuration()), qos.getOwnership().getKind().ordinal(),
            qos.getDestinationOrder().getKind().ordinal(),
            groupQos.getPresentation().getAccessScope().ordinal(),
            groupQos.getPresentation().isCoherentAccess(),
            groupQos.getPresentation().isOrderedAccess(), qos.getHistory().getKind().ordinal(),
            qos.getHistory().getDepth(), List.copyOf(groupQos.getPartition().getName()), qos.getUserData().getValue(),
            "", 0, 0, "", List.of(), Long.MAX_VALUE, topic.getQos().getTopicData().getValue(),
            groupQos.getGroupData().getValue());
    }

    EndpointRecord current()
    {
        return current;
    }

    /** Before enable: the record carries this topic's filter, and follows its parameters. */
    void filterBy(final ContentFilteredTopicImpl<?> topic)
    {
        filteredTopic = topic;
        current = current.withFilter(topic.getFilterExpression(), topic.getExpressionParameters());
        topic.watchParameters(onParameters);
    }

    /**
     * {@code setQos} of the reader or its subscriber: the record built from the new QoS ({@link #of}), keeping the
     * content filter, is announced.
     */
    synchronized void requalify(final DataReaderQos qos, final SubscriberQos groupQos)
    {
        final EndpointRecord rebuilt = of(guid, participantGuid, topic, reliable, qos, groupQos);
        final EndpointRecord previous = current;
        current = previous.hasFilter()
            ? rebuilt.withFilter(previous.filterExpression(), previous.filterParameters()) : rebuilt;
        announce.accept(current);
    }

    /** The reader is closing: no more re-announcements (one in progress has ended when this returns). */
    void stop()
    {
        if (filteredTopic != null)
        {
            filteredTopic.unwatchParameters(onParameters);
        }
    }

    private synchronized void parametersChanged(final List<String> parameters)
    {
        current = current.withFilter(current.filterExpression(), parameters);
        announce.accept(current);
    }
}
