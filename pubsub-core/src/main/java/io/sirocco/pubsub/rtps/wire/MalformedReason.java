package io.sirocco.pubsub.rtps.wire;

/** Why a datagram, or the rest of it from one submessage on, was dropped. Each has its own counter. */
public enum MalformedReason
{
    /** Shorter than the 20-byte RTPS header. */
    TRUNCATED_HEADER,
    /** Does not start with "RTPS". */
    BAD_MAGIC,
    /** A protocol major version other than 2. */
    UNSUPPORTED_VERSION,
    /** Fewer than 4 bytes left for a submessage header. */
    TRUNCATED_SUBMESSAGE_HEADER,
    /** octetsToNextHeader runs past the end of the datagram. */
    BAD_SUBMESSAGE_LENGTH,
    /** A known submessage whose body is shorter than its fixed part or than its own fields say. */
    TRUNCATED_SUBMESSAGE,
    /** A sequence number below 1, or a first/last pair out of order. */
    BAD_SEQUENCE_NUMBER,
    /** A sequence-number or fragment-number set with more than 256 bits or a base below 1. */
    BAD_NUMBER_SET,
    /** A parameter list that runs past its end, has a length not a multiple of 4 or lacks its sentinel. */
    BAD_PARAMETER_LIST,
    /** A KEY_HASH parameter of a length other than 16. */
    BAD_KEY_HASH,
    /** A STATUS_INFO parameter shorter than 4. */
    BAD_STATUS_INFO,
    /** A payload that is too short for its encapsulation header, or DATA with both the D and K flags. */
    BAD_PAYLOAD,
    /** DATA_FRAG fragment numbers or sizes that do not fit the sample. */
    BAD_FRAGMENT
}
