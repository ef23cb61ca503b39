package io.sirocco.pubsub.rtps.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * SPDP participant data: what Sirocco writes reads back field by field; a big-endian (PL_CDR_BE) list laid out by
 * hand as another vendor may send it reads too, with unknown parameters and non-UDP locators skipped; malformed
 * data gives null, never an exception.
 */
class SpdpCodecTest
{
    @Test
    void ownDataRoundTrips() throws Exception
    {
        final GuidPrefix prefix = new GuidPrefix(0x01ff_0203_0405_0607L, 0x0809_0a0b);
        final InetSocketAddress meta = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 7660);
        final InetSocketAddress user = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 7661);
        final LocalParticipant self = new LocalParticipant(prefix, 1, meta, user, 12_500_000_000L,
            "DDSPerf:0:42:host".getBytes(StandardCharsets.US_ASCII), "sirocco", 3);
        final ByteBuffer out = ByteBuffer.allocate(1024);
        final int end = SpdpCodec.encode(self, out, 8);

        final DiscoveredParticipant p = SpdpCodec.decode(out, 8, end - 8, 0);
        assertThat(p).isNotNull();
        assertThat(p.prefix()).isEqualTo(prefix);
        assertThat(p.vendorId()).isEqualTo(0x01ff);
        assertThat(p.protocolMinor()).isEqualTo(5);
        assertThat(p.builtinEndpoints()).isEqualTo(3);
        assertThat(p.metatrafficUnicast()).containsExactly(meta);
        assertThat(p.defaultUnicast()).containsExactly(user);
        assertThat(p.leaseDurationNs()).isBetween(12_499_999_000L, 12_500_000_000L);
        assertThat(p.userDataText()).isEqualTo("DDSPerf:0:42:host");
    }

    @Test
    void bigEndianListFromAnotherVendorReads()
    {
        final ByteBuffer b = ByteBuffer.allocate(256).order(ByteOrder.BIG_ENDIAN);
        b.putShort((short) 0x0002).putShort((short) 0); // PL_CDR_BE
        b.putShort((short) 0x8001).putShort((short) 4).putInt(7); // vendor-specific: skipped
        b.putShort((short) 0x0050).putShort((short) 16).putLong(0x0110_aaaa_bbbb_ccccL).putInt(0x1234_5678)
            .putInt(0x1c1);
        b.putShort((short) 0x0032).putShort((short) 24).putInt(16).putInt(9).put(new byte[16]); // shm kind: skipped
        b.putShort((short) 0x0032).putShort((short) 24).putInt(1).putInt(7410).put(new byte[12])
            .put(new byte[] {10, 0, 0, 7});
        b.putShort((short) 0x0001).putShort((short) 0);
        final DiscoveredParticipant p = SpdpCodec.decode(b, 0, b.position(), 0x0110);
        assertThat(p).isNotNull();
        assertThat(p.prefix()).isEqualTo(new GuidPrefix(0x0110_aaaa_bbbb_ccccL, 0x1234_5678));
        assertThat(p.vendorId()).as("from the header when the data has none").isEqualTo(0x0110);
        assertThat(p.metatrafficUnicast()).extracting(InetSocketAddress::toString).containsExactly("/10.0.0.7:7410");
        assertThat(p.leaseDurationNs()).as("the spec's default lease").isEqualTo(100_000_000_000L);
    }

    @Test
    void malformedDataGivesNull()
    {
        final ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {0, 3, 0, 0});
        b.putShort((short) 0x002c).putShort((short) 8).putInt(100).putInt(0); // USER_DATA longer than its parameter
        b.putShort((short) 1).putShort((short) 0);
        assertThat(SpdpCodec.decode(b, 0, b.position(), 0)).isNull();
        assertThat(SpdpCodec.decode(b, 0, 3, 0)).as("too short").isNull();
        b.put(1, (byte) 9);
        assertThat(SpdpCodec.decode(b, 0, b.position(), 0)).as("not a parameter list").isNull();
        final ByteBuffer noGuid = ByteBuffer.allocate(16).put(new byte[] {0, 3, 0, 0, 1, 0, 0, 0});
        assertThat(SpdpCodec.decode(noGuid, 0, 8, 0)).as("no GUID").isNull();
    }
}
