package io.sirocco.pubsub.rtps.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * SEDP endpoint data: what our SEDP writers send reads back through the decoder that reads other vendors' data
 * (GUID, topic, type, reliability, partitions); a truncated payload gives null, never an exception.
 */
class SedpCodecTest
{
    private static final GuidPrefix PREFIX = new GuidPrefix(0x01ff_0203_0405_0607L, 0x0809_0a0b);

    @Test
    void ownWriterDataRoundTrips()
    {
        final LocalEndpoint e = new LocalEndpoint(LocalEndpoint.entityId(3, LocalEndpoint.KIND_WRITER_KEYED), true,
            "DDSPerfRPongKS", "KeyedSeq", true, List.of("0110abcd_00000001_00000002_000001c1", "x"));
        final ByteBuffer out = ByteBuffer.allocate(1024);
        final int end = SedpCodec.encode(PREFIX, e, out, 4);

        final DiscoveredEndpoint d = SedpCodec.decode(out, 4, end - 4, true);
        assertThat(d).isNotNull();
        assertThat(d.prefix()).isEqualTo(PREFIX);
        assertThat(d.entityId()).isEqualTo(0x0000_0302);
        assertThat(d.topicName()).isEqualTo("DDSPerfRPongKS");
        assertThat(d.typeName()).isEqualTo("KeyedSeq");
        assertThat(d.reliable()).isTrue();
        assertThat(d.partitions()).containsExactly("0110abcd_00000001_00000002_000001c1", "x");
    }

    @Test
    void bestEffortReaderInTheDefaultPartitionRoundTrips()
    {
        final LocalEndpoint e = new LocalEndpoint(LocalEndpoint.entityId(9, LocalEndpoint.KIND_READER_KEYED), false,
            "DDSPerfUDataKS", "KeyedSeq", false, List.of());
        final ByteBuffer out = ByteBuffer.allocate(1024);
        final int end = SedpCodec.encode(PREFIX, e, out, 0);

        final DiscoveredEndpoint d = SedpCodec.decode(out, 0, end, false);
        assertThat(d.reliable()).isFalse();
        assertThat(d.partitions()).isEmpty();
        assertThat(d.entityId()).isEqualTo(0x0000_0907);
    }

    @Test
    void everyTruncationIsRejectedWithoutThrowing()
    {
        final LocalEndpoint e = new LocalEndpoint(LocalEndpoint.entityId(1, LocalEndpoint.KIND_WRITER_KEYED), true,
            "T", "KeyedSeq", true, List.of("p"));
        final ByteBuffer out = ByteBuffer.allocate(1024);
        final int end = SedpCodec.encode(PREFIX, e, out, 0);
        for (int length = 0; length < end - 4; length++)
        {
            // cutting the sentinel or anything before it leaves a list without its end
            assertThat(SedpCodec.decode(out.slice(0, length), 0, length, true)).as("cut at %d", length).isNull();
        }
    }
}
