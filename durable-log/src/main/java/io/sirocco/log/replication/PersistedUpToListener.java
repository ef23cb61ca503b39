package io.sirocco.log.replication;

import io.sirocco.log.zone.ZoneId;

/**
 * The owner's "persisted up to" per zone: the minimum over the zone's current backups of the tickets they
 * acknowledged. This is the figure the multicast layer's {@code persisted_num} will be fed from. Called on the
 * transport's handler thread, in increasing ticket order per zone.
 */
public interface PersistedUpToListener
{
    void onPersistedUpTo(ZoneId zone, long ticket);
}
