package io.sirocco.pubsub.bus;

import java.util.List;

/**
 * What discovery says about one entity: enough for request/offered matching, partitions, findTopic and the built-in
 * topics. Immutable; kinds are {@link #PARTICIPANT}, {@link #TOPIC}, {@link #WRITER} and {@link #READER}. QoS
 * kinds are stored as the ordinal of the PSM enum and durations in nanoseconds (Long.MAX_VALUE is infinite).
 */
public record EndpointRecord(
    int kind,
    long guid,
    long participantGuid,
    String topicName,
    String typeName,
    String typeClassName,
    int reliabilityKind,
    long maxBlockingNs,
    int durabilityKind,
    long deadlineNs,
    long latencyBudgetNs,
    int livelinessKind,
    long leaseNs,
    int ownershipKind,
    int destinationOrderKind,
    int presentationScope,
    boolean coherentAccess,
    boolean orderedAccess,
    int historyKind,
    int historyDepth,
    List<String> partitions,
    byte[] userData,
    String hostName,
    long pid)
{
    public static final int PARTICIPANT = 1;
    public static final int TOPIC = 2;
    public static final int WRITER = 3;
    public static final int READER = 4;

    public static EndpointRecord participant(final long guid, final byte[] userData, final String hostName,
        final long pid)
    {
        return new EndpointRecord(PARTICIPANT, guid, guid, "", "", "", 0, 0, 0, Long.MAX_VALUE, 0, 0, Long.MAX_VALUE,
            0, 0, 0, false, false, 0, 1, List.of(), userData, hostName, pid);
    }

    public boolean isWriter()
    {
        return kind == WRITER;
    }

    public boolean isReader()
    {
        return kind == READER;
    }
}
