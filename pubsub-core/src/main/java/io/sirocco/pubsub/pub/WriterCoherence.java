package io.sirocco.pubsub.pub;

import java.util.function.LongSupplier;

import io.sirocco.pubsub.bus.BusMessage;

/**
 * A DataWriter's part of its Publisher's coherent sets (PRESENTATION coherent_access at TOPIC or GROUP scope, DDS 1.4
 * §2.2.3.6): which set its messages belong to and how many it sent in it. Every live message sent while the publisher
 * has a set open carries {@link BusMessage#KIND_COHERENT}; the publisher's {@code endCoherentChanges} asks each
 * writer's count for the set and has it send the set's end mark, which carries the counts, so that a reader can tell
 * a complete set from one with a message missing.
 *
 * <p>Threads: guarded by the writer's lock (the send path's). The open set is the publisher's volatile; a write that
 * reads it after the publisher closed the set is not part of it (nor counted), and one that read it before is counted
 * before the publisher asks for the count, since that takes the writer's lock.
 */
final class WriterCoherence
{
    private final LongSupplier openSet;
    private long set;
    private int count;

    /** @param openSet the publisher's open set, 0 when none ({@link PublisherView#openCoherentSet}). */
    WriterCoherence(final LongSupplier openSet)
    {
        this.openSet = openSet;
    }

    /** For the next live message sent: the flag to add to its kind (0 outside a set), counting it in the open set. */
    int nextMessageFlag()
    {
        final long open = openSet.getAsLong();
        if (open == 0)
        {
            return 0;
        }
        if (open != set)
        {
            set = open;
            count = 0;
        }
        count++;
        return BusMessage.KIND_COHERENT;
    }

    /** How many messages this writer sent in {@code setNumber} (0 if none). */
    int countIn(final long setNumber)
    {
        return set == setNumber ? count : 0;
    }
}
