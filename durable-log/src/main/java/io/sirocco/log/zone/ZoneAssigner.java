package io.sirocco.log.zone;


/**
 * The owner's side of zone filling for one writer: new entries go to the current zone until it would exceed the
 * zone size limit, then the next zone opens. Overwrites and deletes of a key must go to the zone that holds it
 * (versions are per zone), which the caller remembers (for DDS: per instance slot). Single-threaded: the writer's
 * thread.
 */
public final class ZoneAssigner
{
    private final long writerId;
    private final long zoneSizeLimitBytes;
    private int zoneIndex;
    private long zoneBytes;
    private boolean opened;

    public ZoneAssigner(final long writerId, final long zoneSizeLimitBytes)
    {
        this.writerId = writerId;
        this.zoneSizeLimitBytes = zoneSizeLimitBytes;
    }

    /** The zone for a new entry of {@code payloadBytes}; {@link #openedNewZone()} tells if it was just opened. */
    public ZoneId zoneForNew(final int payloadBytes)
    {
        opened = zoneBytes == 0;
        if (zoneBytes > 0 && zoneBytes + payloadBytes > zoneSizeLimitBytes)
        {
            zoneIndex++;
            zoneBytes = 0;
            opened = true;
        }
        zoneBytes += payloadBytes;
        return new ZoneId(writerId, zoneIndex);
    }

    public boolean openedNewZone()
    {
        return opened;
    }

    public ZoneId currentZone()
    {
        return new ZoneId(writerId, zoneIndex);
    }
}
