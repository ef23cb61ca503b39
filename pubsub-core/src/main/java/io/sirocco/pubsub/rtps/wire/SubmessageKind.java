package io.sirocco.pubsub.rtps.wire;

/**
 * Submessage ids and flag bits of DDSI-RTPS 2.5 (section 9.4.5). Flag bit 0 (E) is the endianness of the
 * submessage: set means little endian.
 */
public final class SubmessageKind
{
    public static final int PAD = 0x01;
    public static final int ACKNACK = 0x06;
    public static final int HEARTBEAT = 0x07;
    public static final int GAP = 0x08;
    public static final int INFO_TS = 0x09;
    public static final int INFO_SRC = 0x0c;
    public static final int INFO_REPLY_IP4 = 0x0d;
    public static final int INFO_DST = 0x0e;
    public static final int INFO_REPLY = 0x0f;
    public static final int NACK_FRAG = 0x12;
    public static final int HEARTBEAT_FRAG = 0x13;
    public static final int DATA = 0x15;
    public static final int DATA_FRAG = 0x16;
    /** Ids from here up are vendor-specific: skipped without a count against the sender. */
    public static final int FIRST_VENDOR_SPECIFIC = 0x80;

    /** E: the submessage is little endian. */
    public static final int FLAG_LITTLE_ENDIAN = 0x01;
    /** DATA/DATA_FRAG: an inline QoS parameter list follows the fixed part. */
    public static final int FLAG_INLINE_QOS = 0x02;
    /** DATA: the payload is the serialized data. */
    public static final int FLAG_DATA = 0x04;
    /** DATA: the payload is the serialized key. */
    public static final int FLAG_KEY = 0x08;
    /** DATA_FRAG: the fragments are of the serialized key. */
    public static final int FLAG_FRAG_KEY = 0x04;
    /** HEARTBEAT/ACKNACK: final (no answer required). */
    public static final int FLAG_FINAL = 0x02;
    /** HEARTBEAT: liveliness assertion. */
    public static final int FLAG_LIVELINESS = 0x04;
    /** INFO_TS: the timestamp is invalidated (no body). */
    public static final int FLAG_INVALIDATE = 0x02;

    private SubmessageKind()
    {
    }
}
