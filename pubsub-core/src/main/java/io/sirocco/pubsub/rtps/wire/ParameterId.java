package io.sirocco.pubsub.rtps.wire;

/** The parameter ids this codec itself interprets (DDSI-RTPS 2.5, table 9.13/9.14). */
public final class ParameterId
{
    public static final int PAD = 0x0000;
    public static final int SENTINEL = 0x0001;
    /** Inline QoS: the 16-byte KeyHash of the instance. */
    public static final int KEY_HASH = 0x0070;
    /** Inline QoS: 4 octets, the last holding the disposed/unregistered/filtered bits. */
    public static final int STATUS_INFO = 0x0071;

    /** StatusInfo bits (in the fourth octet). */
    public static final int STATUS_DISPOSED = 0x01;
    public static final int STATUS_UNREGISTERED = 0x02;
    public static final int STATUS_FILTERED = 0x04;

    private ParameterId()
    {
    }
}
