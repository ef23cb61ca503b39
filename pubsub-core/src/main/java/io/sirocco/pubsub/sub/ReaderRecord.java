package io.sirocco.pubsub.sub;

import java.util.List;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.SubscriberQos;

/** A DataReader's announcement: its topic and type and the QoS that discovery matches writers against. Stateless. */
final class ReaderRecord
{
    private ReaderRecord()
    {
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
            "", 0);
    }
}
