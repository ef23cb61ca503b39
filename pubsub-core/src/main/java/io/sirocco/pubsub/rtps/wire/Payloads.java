package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/** Rules shared by DATA and DATA_FRAG: the inline QoS and the encapsulation header. Stateless. */
final class Payloads
{
    /** Every serialized payload starts with a representation id and options, two octets each. */
    static final int ENCAPSULATION_HEADER = 4;

    private Payloads()
    {
    }

    /** Parses the inline QoS at {@code qosStart} when the Q flag says there is one; else marks it empty there. */
    static MalformedReason inlineQos(final InlineQos qos, final ByteBuffer b, final int qosStart, final int end,
        final int flags)
    {
        if ((flags & SubmessageKind.FLAG_INLINE_QOS) == 0)
        {
            qos.clear(b, qosStart);
            return null;
        }
        return qos.parse(b, qosStart, end, (flags & SubmessageKind.FLAG_LITTLE_ENDIAN) != 0);
    }
}
