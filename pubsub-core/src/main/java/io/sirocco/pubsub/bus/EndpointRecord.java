package io.sirocco.pubsub.bus;

import java.util.List;

/**
 * What discovery says about one entity: enough for request/offered matching, partitions, findTopic and the built-in
 * topics. Immutable; kinds are {@link #PARTICIPANT}, {@link #TOPIC}, {@link #WRITER} and {@link #READER}. QoS
 * kinds are stored as the ordinal of the PSM enum and durations in nanoseconds (Long.MAX_VALUE is infinite).
 * A reader of a ContentFilteredTopic carries its DDS-SQL filter ({@code filterExpression}, empty for none, and
 * {@code filterParameters}), so that a writer can leave out what no matched reader wants (writer-side filtering).
 * {@code ownershipStrength} is a writer's OWNERSHIP_STRENGTH (changeable: the writer announces itself again).
 * {@code lifespanNs} is a writer's LIFESPAN duration (DDS 1.4 §2.2.3.16): its readers drop a sample once its source
 * timestamp plus this duration has passed (changeable: the writer announces itself again).
 * {@code topicData} is the TOPIC_DATA of a topic (and of an endpoint's topic), {@code groupData} the GROUP_DATA of an
 * endpoint's publisher or subscriber (both empty when unset); with {@code userData} and the matched policies they
 * change with {@code setQos}, which announces the entity again (the receivers re-match and update the built-in
 * topics).
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
    long pid,
    int ownershipStrength,
    String filterExpression,
    List<String> filterParameters,
    long lifespanNs,
    byte[] topicData,
    byte[] groupData)
{
    private static final byte[] NONE = new byte[0];

    public static final int PARTICIPANT = 1;
    public static final int TOPIC = 2;
    public static final int WRITER = 3;
    public static final int READER = 4;

    /** A record without a content filter and of OWNERSHIP_STRENGTH 0 (a topic, a participant, a plain reader). */
    public EndpointRecord(final int kind, final long guid, final long participantGuid, final String topicName,
        final String typeName, final String typeClassName, final int reliabilityKind, final long maxBlockingNs,
        final int durabilityKind, final long deadlineNs, final long latencyBudgetNs, final int livelinessKind,
        final long leaseNs, final int ownershipKind, final int destinationOrderKind, final int presentationScope,
        final boolean coherentAccess, final boolean orderedAccess, final int historyKind, final int historyDepth,
        final List<String> partitions, final byte[] userData, final String hostName, final long pid)
    {
        this(kind, guid, participantGuid, topicName, typeName, typeClassName, reliabilityKind, maxBlockingNs,
            durabilityKind, deadlineNs, latencyBudgetNs, livelinessKind, leaseNs, ownershipKind, destinationOrderKind,
            presentationScope, coherentAccess, orderedAccess, historyKind, historyDepth, partitions, userData,
            hostName, pid, 0, "", List.of());
    }

    /** A record of infinite LIFESPAN (a reader, a topic, a participant, a writer of infinite lifespan). */
    public EndpointRecord(final int kind, final long guid, final long participantGuid, final String topicName,
        final String typeName, final String typeClassName, final int reliabilityKind, final long maxBlockingNs,
        final int durabilityKind, final long deadlineNs, final long latencyBudgetNs, final int livelinessKind,
        final long leaseNs, final int ownershipKind, final int destinationOrderKind, final int presentationScope,
        final boolean coherentAccess, final boolean orderedAccess, final int historyKind, final int historyDepth,
        final List<String> partitions, final byte[] userData, final String hostName, final long pid,
        final int ownershipStrength, final String filterExpression, final List<String> filterParameters)
    {
        this(kind, guid, participantGuid, topicName, typeName, typeClassName, reliabilityKind, maxBlockingNs,
            durabilityKind, deadlineNs, latencyBudgetNs, livelinessKind, leaseNs, ownershipKind, destinationOrderKind,
            presentationScope, coherentAccess, orderedAccess, historyKind, historyDepth, partitions, userData,
            hostName, pid, ownershipStrength, filterExpression, filterParameters, Long.MAX_VALUE);
    }

    /** A record without TOPIC_DATA and GROUP_DATA. */
    public EndpointRecord(final int kind, final long guid, final long participantGuid, final String topicName,
        final String typeName, final String typeClassName, final int reliabilityKind, final long maxBlockingNs,
        final int durabilityKind, final long deadlineNs, final long latencyBudgetNs, final int livelinessKind,
        final long leaseNs, final int ownershipKind, final int destinationOrderKind, final int presentationScope,
        final boolean coherentAccess, final boolean orderedAccess, final int historyKind, final int historyDepth,
        final List<String> partitions, final byte[] userData, final String hostName, final long pid,
        final int ownershipStrength, final String filterExpression, final List<String> filterParameters,
        final long lifespanNs)
    {
        this(kind, guid, participantGuid, topicName, typeName, typeClassName, reliabilityKind, maxBlockingNs,
            durabilityKind, deadlineNs, latencyBudgetNs, livelinessKind, leaseNs, ownershipKind, destinationOrderKind,
            presentationScope, coherentAccess, orderedAccess, historyKind, historyDepth, partitions, userData,
            hostName, pid, ownershipStrength, filterExpression, filterParameters, lifespanNs, NONE, NONE);
    }

    /** This writer's record with another OWNERSHIP_STRENGTH. */
    public EndpointRecord withStrength(final int strength)
    {
        return new EndpointRecord(kind, guid, participantGuid, topicName, typeName, typeClassName, reliabilityKind,
            maxBlockingNs, durabilityKind, deadlineNs, latencyBudgetNs, livelinessKind, leaseNs, ownershipKind,
            destinationOrderKind, presentationScope, coherentAccess, orderedAccess, historyKind, historyDepth,
            partitions, userData, hostName, pid, strength, filterExpression, filterParameters, lifespanNs, topicData,
            groupData);
    }

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

    /** This writer's record with another LIFESPAN duration (ns; Long.MAX_VALUE is infinite). */
    public EndpointRecord withLifespan(final long lifespan)
    {
        return new EndpointRecord(kind, guid, participantGuid, topicName, typeName, typeClassName, reliabilityKind,
            maxBlockingNs, durabilityKind, deadlineNs, latencyBudgetNs, livelinessKind, leaseNs, ownershipKind,
            destinationOrderKind, presentationScope, coherentAccess, orderedAccess, historyKind, historyDepth,
            partitions, userData, hostName, pid, ownershipStrength, filterExpression, filterParameters, lifespan,
            topicData, groupData);
    }

    /** Whether this is a reader that announced a content filter. */
    public boolean hasFilter()
    {
        return filterExpression != null && !filterExpression.isEmpty();
    }

    /** The same record with a reader's content filter (an expression and its parameters). */
    public EndpointRecord withFilter(final String expression, final List<String> parameters)
    {
        return new EndpointRecord(kind, guid, participantGuid, topicName, typeName, typeClassName, reliabilityKind,
            maxBlockingNs, durabilityKind, deadlineNs, latencyBudgetNs, livelinessKind, leaseNs, ownershipKind,
            destinationOrderKind, presentationScope, coherentAccess, orderedAccess, historyKind, historyDepth,
            partitions, userData, hostName, pid, ownershipStrength, expression, List.copyOf(parameters), lifespanNs,
            topicData, groupData);
    }
}
