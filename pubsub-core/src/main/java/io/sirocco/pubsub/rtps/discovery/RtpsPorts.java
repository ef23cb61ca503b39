package io.sirocco.pubsub.rtps.discovery;

/**
 * The well-known ports of DDSI-RTPS 2.5 (9.6.1.1) with the default constants PB 7400, DG 250, PG 2, d0 0, d1 10,
 * d2 1, d3 11, which every vendor uses unless configured otherwise, and the default multicast group 239.255.0.1.
 */
public final class RtpsPorts
{
    public static final String DEFAULT_MULTICAST_GROUP = "239.255.0.1";
    private static final int PB = 7400;
    private static final int DG = 250;
    private static final int PG = 2;

    private RtpsPorts()
    {
    }

    /** The highest domain id whose ports stay below 65536. */
    public static final int MAX_DOMAIN_ID = 232;

    public static int spdpMulticast(final int domainId)
    {
        return PB + DG * domainId;
    }

    public static int spdpUnicast(final int domainId, final int participantIndex)
    {
        return PB + DG * domainId + 10 + PG * participantIndex;
    }

    public static int userMulticast(final int domainId)
    {
        return PB + DG * domainId + 1;
    }

    public static int userUnicast(final int domainId, final int participantIndex)
    {
        return PB + DG * domainId + 11 + PG * participantIndex;
    }
}
