package io.sirocco.pubsub.core;

import java.util.EventListener;

import org.omg.dds.core.Entity;

/**
 * A Publisher or a Subscriber as its writers or readers see it: its participant, whether it is enabled, its link of
 * the listener chain, its status bits (DATA_ON_READERS is the subscriber's) and the notice that a child closed.
 * Writers and readers hold this (through {@code PublisherView} and {@code SubscriberView}), never the group's class.
 *
 * <p>Threads: any; status bits and listeners are the entity's ({@link EntityBase}), the children list is
 * copy-on-write.
 *
 * @param <L> the group's listener type (PublisherListener or SubscriberListener).
 */
public interface GroupView<L extends EventListener>
{
    /** The participant that contains this group. */
    ParticipantView participant();

    /** Whether the group is enabled; a child may not be enabled before it. */
    boolean isEnabled();

    /** The group's listener if its mask has the status, else null. */
    L listenerFor(int statusBit);

    /** Sets a status bit of the group (waking its WaitSets). */
    void statusChanged(int bit);

    /** Clears a status bit of the group. */
    void statusRead(int bit);

    /** A contained writer or reader was closed. */
    void removed(Entity<?, ?> child);
}
