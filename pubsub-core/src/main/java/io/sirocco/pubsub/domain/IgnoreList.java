package io.sirocco.pubsub.domain;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.sirocco.pubsub.bus.EndpointRecord;

/**
 * What a participant was told to ignore ({@code ignoreParticipant}, {@code ignoreTopic}, {@code ignorePublication},
 * {@code ignoreSubscription}): entity GUIDs, and participant GUIDs that hide every entity of that participant. An
 * ignored record is neither matched nor reported; ignoring is for good (DDS has no un-ignore).
 *
 * <p>Threads: any. The set is concurrent: the application adds, the discovery thread and the data path read.
 */
final class IgnoreList
{
    private final Set<Long> ignored = ConcurrentHashMap.newKeySet();

    /** Ignores the entity, or every entity of the participant, with this GUID. */
    void add(final long guid)
    {
        ignored.add(guid);
    }

    /** True when the record's entity or its participant is ignored. */
    boolean covers(final EndpointRecord record)
    {
        return ignored.contains(record.guid()) || ignored.contains(record.participantGuid());
    }
}
