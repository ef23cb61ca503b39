package io.sirocco.pubsub.bus;

/**
 * The subgroup bus: the only thing the entity, QoS and cache layers know about the transport. One instance per
 * DomainParticipant, which is one member of the domain's group. Topics map to subgroups; opening a writer or a
 * reader is a membership change of that subgroup.
 *
 * <p>Implementations: {@code LocalBus} (in-process, every participant of the domain in this JVM). The
 * atomic-multicast implementation (shm and tcp row transports) plugs in behind the same interface.
 */
public interface DomainBus extends AutoCloseable
{
    /** This member's GUID: the high 44 bits are unique in the domain; the low 20 bits are 0. */
    long participantGuid();

    /** The transport in use, for logs and for the CLI's JSON ("local", "shm", "tcp"). */
    String transportName();

    /** Publishes (or replaces) this member's record of one of its entities to every member, itself included. */
    void announce(EndpointRecord record);

    /** Withdraws a record announced by this member. */
    void retract(long guid);

    /**
     * Forgets a record this member announced, and its writer, without telling anyone: another member announced the
     * same GUID since (a replacement writer taking over a served history), and a retraction would reach its readers.
     */
    default void withdraw(final long guid)
    {
        throw new UnsupportedOperationException(transportName() + " bus: withdrawing a record (a durable writer's " +
            "hand-over) needs the shm, tcp or mixed transport");
    }

    BusWriter openWriter(long writerGuid, String topicName, boolean reliable);

    BusReader openReader(long readerGuid, String topicName, boolean reliable, DeliveryHandler handler);

    /** Leaves the group: retracts every record this member announced and stops its threads. */
    @Override
    void close();
}
