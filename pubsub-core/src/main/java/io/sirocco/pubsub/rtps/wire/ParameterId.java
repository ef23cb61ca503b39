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

    /** Discovery parameters (DDSI-RTPS 2.5, table 9.13). */
    public static final int PARTICIPANT_LEASE_DURATION = 0x0002;
    public static final int TOPIC_NAME = 0x0005;
    public static final int TYPE_NAME = 0x0007;
    public static final int RELIABILITY = 0x001a;
    public static final int ENDPOINT_GUID = 0x005a;
    public static final int DOMAIN_ID = 0x000f;
    public static final int PROTOCOL_VERSION = 0x0015;
    public static final int VENDOR_ID = 0x0016;
    public static final int USER_DATA = 0x002c;
    public static final int PARTITION = 0x0029;
    public static final int DEFAULT_UNICAST_LOCATOR = 0x0031;
    public static final int METATRAFFIC_UNICAST_LOCATOR = 0x0032;
    public static final int METATRAFFIC_MULTICAST_LOCATOR = 0x0033;
    public static final int DEFAULT_MULTICAST_LOCATOR = 0x0048;
    public static final int PARTICIPANT_GUID = 0x0050;
    public static final int BUILTIN_ENDPOINT_SET = 0x0058;
    public static final int ENTITY_NAME = 0x0062;

    /** StatusInfo bits (in the fourth octet). */
    public static final int STATUS_DISPOSED = 0x01;
    public static final int STATUS_UNREGISTERED = 0x02;
    public static final int STATUS_FILTERED = 0x04;

    private ParameterId()
    {
    }
}
