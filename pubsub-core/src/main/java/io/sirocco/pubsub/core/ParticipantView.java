package io.sirocco.pubsub.core;

import io.sirocco.pubsub.bus.DomainBus;
import io.sirocco.pubsub.timer.ParticipantTimers;
import io.sirocco.pubsub.bus.EndpointRecord;
import org.omg.dds.core.Entity;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantListener;

/**
 * A participant as the entities it contains see it: topics, publishers, subscribers, writers and readers hold this,
 * never {@code ParticipantImpl}, so the participant depends on what it contains and nothing it contains depends on
 * it. It is a DomainParticipant (a child's {@code getParent()} returns it) plus the services a child needs: GUIDs,
 * the bus, the discovered records, the discovery thread, the listener chain's last link, and the registration of
 * endpoints with discovery.
 *
 * <p>Threads: every method may be called from any thread; the implementation keeps its registries in concurrent
 * collections and runs discovery work on its own thread ({@link #onDiscoveryThread}).
 */
public interface ParticipantView extends DomainParticipant
{
    /** This participant's GUID (its high bits prefix every contained entity's GUID). */
    long guid();

    /** Whether the participant is enabled; a child may not be enabled before it. */
    boolean isEnabled();

    /** The participant's listener if its mask has the status, else null (the last link of a listener chain). */
    DomainParticipantListener listenerFor(int statusBit);

    /** A new entity GUID under this participant's prefix. */
    long nextGuid();

    /** The domain's bus this participant is a member of. */
    DomainBus bus();

    /** The participant's one timer wheel (deadlines and leases of its endpoints). */
    ParticipantTimers timers();

    /**
     * This participant's durability node (started on first use, or at creation when it holds backups), for TRANSIENT
     * writers; UnsupportedOperationException on the in-process bus, which has no log replication.
     */
    io.sirocco.pubsub.durability.DurabilityNode durability();

    /** The record of a discovered entity (local ones included) that is not ignored, or null. */
    EndpointRecord discovered(long guid);

    /** Runs a task on the discovery thread (listeners of matching statuses run there). */
    void onDiscoveryThread(Runnable task);

    /** An enabled DataWriter joins discovery: it is told of readers from now on. */
    void registerWriter(EntityBase<?, ?> writer);

    /** A DataWriter leaves discovery. */
    void unregisterWriter(EntityBase<?, ?> writer);

    /** An enabled DataReader joins discovery: it is told of writers from now on. */
    void registerReader(EntityBase<?, ?> reader);

    /** A DataReader leaves discovery. */
    void unregisterReader(EntityBase<?, ?> reader);

    /** A contained topic, publisher or subscriber was closed (a topic's record is retracted). */
    void removed(Entity<?, ?> child);
}
