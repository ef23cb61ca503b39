package io.sirocco.pubsub.rtps.discovery;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.pubsub.rtps.wire.ParameterId;
import io.sirocco.pubsub.rtps.wire.ParameterListReader;
import io.sirocco.pubsub.rtps.wire.ParameterListWriter;

/**
 * Reads DiscoveredWriterData / DiscoveredReaderData (DDSI-RTPS 2.5, 9.6.2.2) from a PL_CDR payload: the endpoint
 * GUID, topic and type names and reliability; other parameters are skipped for now. Writes this participant's
 * endpoints the same way, with their partition. Cold path; stateless.
 */
public final class SedpCodec
{
    /** RELIABILITY kind RELIABLE on the wire (BEST_EFFORT is 1). */
    private static final int RELIABLE = 2;
    private static final int BEST_EFFORT = 1;
    /** RELIABILITY's max_blocking_time: the spec's default, 100 ms. */
    private static final long MAX_BLOCKING_NS = 100_000_000L;

    private SedpCodec()
    {
    }

    /** Writes {@code e} of participant {@code self} as a PL_CDR_LE payload at {@code offset}; returns its end. */
    public static int encode(final GuidPrefix self, final LocalEndpoint e, final ByteBuffer out, final int offset)
    {
        final ParameterListWriter w = new ParameterListWriter(out, offset).encapsulationPlCdrLe();
        w.octets(ParameterId.ENDPOINT_GUID, self.guid(e.entityId()));
        w.octets(ParameterId.PARTICIPANT_GUID, self.guid(EntityIds.PARTICIPANT));
        w.string(ParameterId.TOPIC_NAME, e.topicName());
        w.string(ParameterId.TYPE_NAME, e.typeName());
        w.reliability(e.reliable() ? RELIABLE : BEST_EFFORT, MAX_BLOCKING_NS);
        if (!e.partitions().isEmpty())
        {
            w.stringSequence(ParameterId.PARTITION, e.partitions());
        }
        return w.finish();
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
        List<String> partitions = List.of();
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
                case ParameterId.PARTITION -> {
                    partitions = partitions(r);
                    if (partitions == null)
                    {
                        return null;
                    }
                }
                case ParameterId.RELIABILITY -> reliable = r.valueLength() >= 4 && r.int32(at) == RELIABLE;
                default -> {
                    // not read yet
                }
            }
        }
        return prefix == null || topic == null ? null
            : new DiscoveredEndpoint(prefix, entityId, writer, topic, type == null ? "" : type, reliable,
                partitions);
    }

    /** A PARTITION's sequence of strings, or null when it does not fit its parameter. */
    private static List<String> partitions(final ParameterListReader r)
    {
        final int end = r.valueOffset() + r.valueLength();
        if (r.valueLength() < 4)
        {
            return null;
        }
        final int count = r.int32(r.valueOffset());
        if (count < 0 || count > r.valueLength() / 4)
        {
            return null;
        }
        final List<String> names = new ArrayList<>(count);
        int at = r.valueOffset() + 4;
        for (int i = 0; i < count; i++)
        {
            final int n = at + 4 <= end ? r.int32(at) : -1;
            if (n < 1 || n > end - at - 4)
            {
                return null;
            }
            final byte[] bytes = new byte[n - 1];
            r.buffer().get(at + 4, bytes);
            names.add(new String(bytes, StandardCharsets.UTF_8));
            at += (4 + n + 3) & ~3;
        }
        return names;
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
