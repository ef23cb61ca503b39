package io.sirocco.log;

import io.sirocco.log.zone.ZoneId;

import io.sirocco.log.secondary.ZoneLog;

/**
 * A zone opened on a backup store; pass it to {@link BackupStore#append}. Cheap to hold, safe to share.
 */
public final class ZoneHandle
{
    private final ZoneId id;
    private final int slot;
    private final ZoneLog log;

    ZoneHandle(final ZoneId id, final int slot, final ZoneLog log)
    {
        this.id = id;
        this.slot = slot;
        this.log = log;
    }

    public ZoneId id()
    {
        return id;
    }

    int slot()
    {
        return slot;
    }

    ZoneLog log()
    {
        return log;
    }

    /** Highest ticket of this zone whose entries met the sync policy (acquire read); -1 if none. */
    public long persistedTicket()
    {
        return log.persistedTicketAcquire();
    }

    @Override
    public String toString()
    {
        return id.toString();
    }
}
