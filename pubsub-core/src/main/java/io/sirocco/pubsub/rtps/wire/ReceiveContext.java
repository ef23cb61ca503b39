package io.sirocco.pubsub.rtps.wire;

/**
 * The state of the RTPS message receiver (DDSI-RTPS 2.5, 8.3.4) while one datagram is interpreted: the source
 * participant (from the header, changed by INFO_SRC), the destination (INFO_DST; zero means "any") and the source
 * timestamp (INFO_TS). GuidPrefixes are held as 8 + 4 big-endian bytes in two primitives, so nothing is allocated.
 * Reset for each datagram; confined to the receive loop's thread.
 */
public final class ReceiveContext
{
    /** The timestamp value while none is valid. */
    public static final long TIME_INVALID = Long.MIN_VALUE;

    private int versionMajor;
    private int versionMinor;
    private int vendorId;
    private long sourcePrefixHigh;
    private int sourcePrefixLow;
    private long destPrefixHigh;
    private int destPrefixLow;
    private long timestamp = TIME_INVALID;

    void reset(final int versionMajor, final int versionMinor, final int vendorId, final long sourceHigh,
        final int sourceLow)
    {
        this.versionMajor = versionMajor;
        this.versionMinor = versionMinor;
        this.vendorId = vendorId;
        this.sourcePrefixHigh = sourceHigh;
        this.sourcePrefixLow = sourceLow;
        this.destPrefixHigh = 0;
        this.destPrefixLow = 0;
        this.timestamp = TIME_INVALID;
    }

    /** Takes every field of {@code other}: to keep the context of a sample past the handler call. */
    public void copyFrom(final ReceiveContext other)
    {
        this.versionMajor = other.versionMajor;
        this.versionMinor = other.versionMinor;
        this.vendorId = other.vendorId;
        this.sourcePrefixHigh = other.sourcePrefixHigh;
        this.sourcePrefixLow = other.sourcePrefixLow;
        this.destPrefixHigh = other.destPrefixHigh;
        this.destPrefixLow = other.destPrefixLow;
        this.timestamp = other.timestamp;
    }

    void source(final int versionMajor, final int versionMinor, final int vendorId, final long high, final int low)
    {
        this.versionMajor = versionMajor;
        this.versionMinor = versionMinor;
        this.vendorId = vendorId;
        this.sourcePrefixHigh = high;
        this.sourcePrefixLow = low;
    }

    void destination(final long high, final int low)
    {
        this.destPrefixHigh = high;
        this.destPrefixLow = low;
    }

    void timestamp(final long rtpsTime)
    {
        this.timestamp = rtpsTime;
    }

    public int versionMajor()
    {
        return versionMajor;
    }

    public int versionMinor()
    {
        return versionMinor;
    }

    /** The sender's vendor id (Cyclone DDS is 0x0110, Sirocco announces {@link RtpsMessageWriter#VENDOR_ID}). */
    public int vendorId()
    {
        return vendorId;
    }

    public long sourcePrefixHigh()
    {
        return sourcePrefixHigh;
    }

    public int sourcePrefixLow()
    {
        return sourcePrefixLow;
    }

    public long destPrefixHigh()
    {
        return destPrefixHigh;
    }

    public int destPrefixLow()
    {
        return destPrefixLow;
    }

    /** Whether the message so far is addressed to every participant or to the one with this prefix. */
    public boolean addressedTo(final long prefixHigh, final int prefixLow)
    {
        return (destPrefixHigh == 0 && destPrefixLow == 0)
            || (destPrefixHigh == prefixHigh && destPrefixLow == prefixLow);
    }

    /** The source timestamp as RTPS Time_t (seconds in the high 32 bits, fraction in the low), or TIME_INVALID. */
    public long timestamp()
    {
        return timestamp;
    }
}
