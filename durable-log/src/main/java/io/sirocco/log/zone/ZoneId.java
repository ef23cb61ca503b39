package io.sirocco.log.zone;

/**
 * Identity of a backup zone: the writer whose samples it holds and the zone's index among that writer's zones.
 * Zones are keyed by writer so that replay and takeover of one DDS writer touch only its own zones.
 *
 * @param writerId  a 64-bit id of the writer (the DDS layer derives it from the writer GUID).
 * @param zoneIndex the zone's index among the writer's zones, from 0 in creation order; bit 30
 *                  ({@link #PERSISTENT_FLAG}) marks a PERSISTENT zone, which backups keep in their disk store.
 */
public record ZoneId(long writerId, int zoneIndex)
{
    /**
     * Marks a zone whose backups acknowledge only what is on disk (group commit). It is part of the id, so every
     * member (owner, backups, a restarted backup reading its directories) knows the zone's store from the id alone,
     * with no field added to the replication protocol.
     */
    public static final int PERSISTENT_FLAG = 1 << 30;

    public ZoneId
    {
        if (zoneIndex < 0)
        {
            throw new IllegalArgumentException("zoneIndex must be >= 0: " + zoneIndex);
        }
    }

    /** The first zone of a writer: PERSISTENT (on disk at the backups) or not (in their memory). */
    public static ZoneId first(final long writerId, final boolean persistent)
    {
        return new ZoneId(writerId, persistent ? PERSISTENT_FLAG : 0);
    }

    /** Whether the backups keep this zone on disk and acknowledge it after group commit. */
    public boolean persistent()
    {
        return (zoneIndex & PERSISTENT_FLAG) != 0;
    }

    /** File-system name of the zone's directory on a backup, e.g. {@code zone-00000000000000ff-3}. */
    public String directoryName()
    {
        return String.format("zone-%016x-%d", writerId, zoneIndex);
    }

    /** Parses {@link #directoryName()}, or returns null if the name is not a zone directory. */
    public static ZoneId parseDirectoryName(final String name)
    {
        if (!name.startsWith("zone-") || name.length() < 23 || name.charAt(21) != '-')
        {
            return null;
        }
        try
        {
            return new ZoneId(Long.parseUnsignedLong(name.substring(5, 21), 16), Integer.parseInt(name.substring(22)));
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }

    @Override
    public String toString()
    {
        return String.format("zone(writer=%x, index=%d)", writerId, zoneIndex);
    }
}
