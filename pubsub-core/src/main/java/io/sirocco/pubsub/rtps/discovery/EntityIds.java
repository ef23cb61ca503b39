package io.sirocco.pubsub.rtps.discovery;

/**
 * The EntityIds of the built-in endpoints (DDSI-RTPS 2.5, 9.3.1.2), as big-endian ints (key octets, then kind),
 * and the bits of the BuiltinEndpointSet that announce them (9.3.2.12).
 */
public final class EntityIds
{
    public static final int PARTICIPANT = 0x0000_01c1;
    public static final int SPDP_WRITER = 0x0001_00c2;
    public static final int SPDP_READER = 0x0001_00c7;
    public static final int SEDP_PUBLICATIONS_WRITER = 0x0000_03c2;
    public static final int SEDP_PUBLICATIONS_READER = 0x0000_03c7;
    public static final int SEDP_SUBSCRIPTIONS_WRITER = 0x0000_04c2;
    public static final int SEDP_SUBSCRIPTIONS_READER = 0x0000_04c7;
    public static final int P2P_MESSAGE_WRITER = 0x0002_00c2;
    public static final int P2P_MESSAGE_READER = 0x0002_00c7;

    public static final int SET_PARTICIPANT_ANNOUNCER = 1;
    public static final int SET_PARTICIPANT_DETECTOR = 1 << 1;
    public static final int SET_PUBLICATIONS_ANNOUNCER = 1 << 2;
    public static final int SET_PUBLICATIONS_DETECTOR = 1 << 3;
    public static final int SET_SUBSCRIPTIONS_ANNOUNCER = 1 << 4;
    public static final int SET_SUBSCRIPTIONS_DETECTOR = 1 << 5;

    private EntityIds()
    {
    }
}
