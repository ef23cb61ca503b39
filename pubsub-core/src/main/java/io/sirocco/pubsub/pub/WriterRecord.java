package io.sirocco.pubsub.pub;

import java.util.List;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DurationImpl;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.pub.PublisherQos;

/**
 * A DataWriter's announcement: its topic and type, the QoS that discovery matches readers against, the LIFESPAN
 * its readers apply to its samples, and the USER_DATA, TOPIC_DATA and GROUP_DATA of the built-in topics. Built at
 * creation and again by each {@code setQos} of the writer or its publisher. Stateless.
 */
final class WriterRecord
{
    private WriterRecord()
    {
    }

    /**
     * @param typeClass     the Java class name of the topic's type.
     * @param maxBlockingNs RELIABILITY's max_blocking_time, ns.
     * @param topicData     the topic's TOPIC_DATA value.
     */
    static EndpointRecord of(final long guid, final long participantGuid, final String topicName,
        final String typeName, final String typeClass, final DataWriterQos qos, final PublisherQos groupQos,
        final long maxBlockingNs, final byte[] topicData)
    {
        return new EndpointRecord(EndpointRecord.WRITER, guid, participantGuid, topicName,
            typeName, typeClass, qos.getReliability().getKind().ordinal(), maxBlockingNs,
            qos.getDurability().getKind().ordinal(), DurationImpl.toNanos(qos.getDeadline().getPeriod()),
            DurationImpl.toNanos(qos.getLatencyBudget().getDuration()), qos.getLiveliness().getKind().ordinal(),
            DurationImpl.toNanos(qos.getLiveliness().getLeaseDuration()), qos.getOwnership().getKind().ordinal(),
            qos.getDestinationOrder().getKind().ordinal(),
            groupQos.getPresentation().getAccessScope().ordinal(),
            groupQos.getPresentation().isCoherentAccess(),
            groupQos.getPresentation().isOrderedAccess(), qos.getHistory().getKind().ordinal(),
            qos.getHistory().getDepth(), List.copyOf(groupQos.getPartition().getName()), qos.getUserData().getValue(),
            "", 0, qos.getOwnershipStrength().getValue(), "", List.of(),
            DurationImpl.toNanos(qos.getLifespan().getDuration()), topicData, groupQos.getGroupData().getValue());
    }
}
