package io.sirocco.pubsub.bus.group;

import java.util.List;
import java.util.Map;

import io.sirocco.pubsub.bus.EndpointRecord;

/**
 * At a view install, tells the RELIABLE topic channels which members left while they had a RELIABLE reader of the
 * topic (their readers were retracted as failed, not closed: such a member may be back soon, see
 * {@link RetainedMessages}) and which members joined, before this member's writers send anything in the new view.
 *
 * <p>Stateless; predicate thread only (the membership upcall).
 */
final class AwayReaders
{
    private AwayReaders()
    {
    }

    /** Adds {@code record} to {@code failedReaders} if it is a RELIABLE reader's (it was retracted as failed). */
    static void collect(final EndpointRecord record, final List<EndpointRecord> failedReaders)
    {
        if (record != null && record.isReader() && record.reliabilityKind() == 1)
        {
            failedReaders.add(record);
        }
    }

    /**
     * @param failedReaders the records of the readers of members that left, retracted as failed (not closed).
     */
    static void viewInstalled(final Map<String, TopicChannel> channels, final List<EndpointRecord> failedReaders,
        final List<Long> joined)
    {
        final long nowNs = System.nanoTime();
        for (final EndpointRecord reader : failedReaders)
        {
            final TopicChannel channel = channels.get(SubgroupNames.subgroupName(reader.topicName(), true));
            if (channel != null && channel.ordered)
            {
                channel.unconfirmed.memberLeft(SubgroupNames.memberOf(reader.participantGuid()), nowNs);
            }
        }
        for (final TopicChannel channel : channels.values())
        {
            channel.viewInstalled(joined, nowNs);
        }
    }
}
