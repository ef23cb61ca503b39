package io.sirocco.log.zone;

/**
 * Identity of a backup zone: the writer whose samples it holds and the zone's index among that writer's zones.
 * Zones are keyed by writer so that replay and takeover of one DDS writer touch only its own zones.
 *
 * @param writerId  a 64-bit id of the writer (the DDS layer derives it from the writer GUID).
 * @param zoneIndex the zone's index among the writer's zones, from 0 in creation order.
 */
public record ZoneId(long writerId, int zoneIndex)
{
    public ZoneId
    {
        if (zoneIndex < 0)
        {
            throw new IllegalArgumentException("zoneIndex must be >= 0: " + zoneIndex);
        }
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
