package io.sirocco.pubsub.rtps.discovery;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.sirocco.pubsub.rtps.wire.ParameterId;
import io.sirocco.pubsub.rtps.wire.ParameterListReader;

/**
 * Reads DiscoveredWriterData / DiscoveredReaderData (DDSI-RTPS 2.5, 9.6.2.2) from a PL_CDR payload: the endpoint
 * GUID, topic and type names and reliability; other parameters are skipped for now. Cold path; stateless.
 */
public final class SedpCodec
{
    /** RELIABILITY kind RELIABLE on the wire (BEST_EFFORT is 1). */
    private static final int RELIABLE = 2;

    private SedpCodec()
    {
    }

    /** The endpoint, or null when the payload is malformed or lacks a GUID or a topic name. */
    public static DiscoveredEndpoint decode(final ByteBuffer in, final int offset, final int length,
        final boolean writer)
    {
        if (length < 8)
        {
            return null;
        }
        final int representation = ((in.get(offset) & 0xff) << 8) | (in.get(offset + 1) & 0xff);
        if (representation != 0x0002 && representation != 0x0003)
        {
            return null;
        }
        final ParameterListReader r = new ParameterListReader().wrap(in, offset + 4, offset + length,
            representation == 0x0003);
        GuidPrefix prefix = null;
        int entityId = 0;
        String topic = null;
        String type = "";
        boolean reliable = writer;
        for (int pid = r.next(); pid != ParameterListReader.END; pid = r.next())
        {
            if (pid == ParameterListReader.MALFORMED)
            {
                return null;
            }
            final int at = r.valueOffset();
            switch (pid & 0x3fff)
            {
                case ParameterId.ENDPOINT_GUID -> {
                    if (r.valueLength() < 16)
                    {
                        return null;
                    }
                    prefix = new GuidPrefix(r.int64Be(at), r.int32Be(at + 8));
                    entityId = r.int32Be(at + 12);
                }
                case ParameterId.TOPIC_NAME -> topic = string(r);
                case ParameterId.TYPE_NAME -> type = string(r);
                case ParameterId.RELIABILITY -> reliable = r.valueLength() >= 4 && r.int32(at) == RELIABLE;
                default -> {
                    // not read yet
                }
            }
        }
        return prefix == null || topic == null ? null
            : new DiscoveredEndpoint(prefix, entityId, writer, topic, type == null ? "" : type, reliable);
    }

    /** A CDR string parameter (uint32 length with the NUL, bytes, NUL), or null when it does not fit. */
    private static String string(final ParameterListReader r)
    {
        if (r.valueLength() < 4)
        {
            return null;
        }
        final int n = r.int32(r.valueOffset());
        if (n < 1 || n > r.valueLength() - 4)
        {
            return null;
        }
        final byte[] bytes = new byte[n - 1];
        r.buffer().get(r.valueOffset() + 4, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
