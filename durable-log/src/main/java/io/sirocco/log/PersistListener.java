package io.sirocco.log;

import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.disk.LogStorageException;
import io.sirocco.log.zone.ZoneId;

/**
 * Told when entries of a zone meet the store's {@link SyncPolicy}. Called on the store's flusher thread for
 * {@code GROUP}/{@code EACH}, and on the appending thread for {@code NONE}. Implementations must be quick and must
 * not call back into the store's append methods.
 */
public interface PersistListener
{
    /** Every entry of {@code zone} with a ticket up to and including {@code ticket} is persisted per policy. */
    void onPersisted(ZoneId zone, long ticket);

    /** The store failed (disk full, I/O error); no further acknowledgements will come. */
    default void onFailure(final LogStorageException failure)
    {
    }

    PersistListener NO_OP = (zone, ticket) -> { };
}
