package io.sirocco.pubsub.rtps.wire;

/**
 * RTPS Time_t (seconds in the high 32 bits, 2^-32 s fractions in the low 32) to and from nanoseconds since 1970.
 * Nanoseconds round up into fractions, as Cyclone DDS does, so that a time survives the trip through the wire to
 * the nanosecond: ddsperf marks pings by the lowest bit of the nanoseconds. Stateless.
 */
public final class RtpsTime
{
    private static final long NS_PER_S = 1_000_000_000L;

    private RtpsTime()
    {
    }

    public static long fromNanos(final long ns)
    {
        final long seconds = ns / NS_PER_S;
        final long fraction = ((ns % NS_PER_S << 32) + NS_PER_S - 1) / NS_PER_S;
        return seconds << 32 | fraction;
    }

    public static long toNanos(final long rtpsTime)
    {
        return (rtpsTime >>> 32) * NS_PER_S + ((rtpsTime & 0xffff_ffffL) * NS_PER_S >>> 32);
    }
}
