package io.sirocco.pubsub.bus;

/**
 * What a participant gives the bus to learn about the domain. Calls for one announcer arrive in the order that
 * announcer made them. Implementations only enqueue: they must not block or call back into the bus.
 */
public interface DiscoveryHandler
{
    /** A participant, topic, writer or reader appeared, or its record changed. Local records are included. */
    void onAnnounce(EndpointRecord record);

    /** The entity with this GUID went away (closed, or its participant failed). */
    void onRetract(long guid, boolean participantFailed);
}
