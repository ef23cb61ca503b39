package io.sirocco.pubsub.pub;

import java.util.concurrent.ThreadLocalRandom;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.ParticipantView;
import io.sirocco.pubsub.durability.WriterIdentity;
import io.sirocco.pubsub.durability.WriterTakeover;

/**
 * How a DataWriter with a configured identity ({@link WriterIdentity}) starts: as the replacement of a dead writer of
 * the same GUID when a backup serves that writer's history, else fresh. Called once, by the application thread
 * enabling the writer, before the writer announces itself. Stateless.
 */
final class WriterResumption
{
    private WriterResumption()
    {
    }

    /** The history to resume from: {@link WriterTakeover.Resumed#NOTHING} for a writer without an identity. */
    static WriterTakeover.Resumed fetch(final SiroccoServiceEnvironment env, final ParticipantView participant,
        final EndpointRecord record, final String describe)
    {
        if (!WriterIdentity.isDerived(record.guid()))
        {
            return WriterTakeover.Resumed.NOTHING;
        }
        participant.durability(); // a bus without log replication refuses the TRANSIENT writer before anything else
        try
        {
            final WriterTakeover.Resumed resumed = WriterTakeover.fetch(participant.bus(), record,
                participant.nextGuid(), participant::discovered);
            if (resumed == null)
            {
                throw DdsExceptions.precondition(env, describe + ": a backup serves the history of this writer's " +
                    "identity (" + WriterIdentity.KEY + "), but its replay did not end within 120 s; the writer " +
                    "cannot resume past it");
            }
            participant.durability().resumed(record.guid(), resumed.highWaterMark());
            return resumed;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw DdsExceptions.precondition(env, describe + ": interrupted while taking over its served history");
        }
    }

    /**
     * The writer's zone index in the log: 0, or a fresh one per incarnation for a writer with an identity (the zones
     * of its predecessors live on in the backups that recovered them).
     */
    static int zoneIndex(final long guid)
    {
        return WriterIdentity.isDerived(guid) ? ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE) : 0;
    }
}
