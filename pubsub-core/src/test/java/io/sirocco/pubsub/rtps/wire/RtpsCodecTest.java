package io.sirocco.pubsub.rtps.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/**
 * The RTPS codec: what the writer encodes the reader decodes field by field; hand-made big-endian bytes laid out as
 * the spec draws them decode too (so the layout is not only self-consistent); each kind of malformed input is
 * rejected with its own reason and counted.
 */
class RtpsCodecTest
{
    private static final long PREFIX_HIGH = 0x0102030405060708L;
    private static final int PREFIX_LOW = 0x090a0b0c;
    private static final int READER = 0x0000_0104;
    private static final int WRITER = 0x0000_0103;

    private final RtpsMessageReader reader = new RtpsMessageReader();
    private final RecordingHandler handler = new RecordingHandler();

    @Test
    void everySubmessageRoundTrips()
    {
        final ByteBuffer out = ByteBuffer.allocate(2048);
        final RtpsMessageWriter w = new RtpsMessageWriter(PREFIX_HIGH, PREFIX_LOW).begin(out);
        final byte[] keyHash = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");
        final ByteBuffer payload = ByteBuffer.wrap(HexFormat.of().parseHex("000100000700000008000000aa"));
        assertThat(w.infoDestination(0x1111_2222_3333_4444L, 0x5555_6666)).isTrue();
        assertThat(w.infoTimestamp(0x0000_0010_8000_0000L)).isTrue();
        assertThat(w.data(READER, WRITER, 5, keyHash, ParameterId.STATUS_DISPOSED, payload, 0, 13, false)).isTrue();
        assertThat(w.data(0, WRITER, 6, null, 0, payload, 0, 8, true)).isTrue();
        assertThat(w.dataFrag(READER, WRITER, 7, 3, 2, 4, 10, null, payload, 4, 2)).isTrue();
        assertThat(w.heartbeat(READER, WRITER, 1, 7, 42, true, false)).isTrue();
        assertThat(w.heartbeatFrag(READER, WRITER, 7, 3, 43)).isTrue();
        assertThat(w.ackNack(READER, WRITER, 3, 40, new int[] {0xA000_0000, 0x8000_0000}, 9, false)).isTrue();
        assertThat(w.nackFrag(READER, WRITER, 7, 2, 3, new int[] {0x4000_0000}, 10)).isTrue();
        assertThat(w.gap(READER, WRITER, 4, 8, 5, new int[] {0x1000_0000})).isTrue();

        assertThat(reader.read(out, 0, w.length(), handler)).isEqualTo(10);
        assertThat(handler.lines).containsExactly(
            "DATA r=00000104 w=00000103 sn=5 key=00112233445566778899aabbccddeeff status=1 data=true keyOnly=false"
                + " repr=1 payload=000100000700000008000000aa000000 dst=1111222233334444" + "55556666 ts="
                + 0x0000_0010_8000_0000L,
            "DATA r=00000000 w=00000103 sn=6 key=- status=0 data=false keyOnly=true repr=1 payload=0001000007000000"
                + " dst=111122223333444455556666 ts=" + 0x0000_0010_8000_0000L,
            "DATA_FRAG w=00000103 sn=7 start=3 n=2 size=4 sample=10 total=3 payload=0700",
            "HEARTBEAT r=00000104 w=00000103 1..7 count=42 final=true live=false",
            "HEARTBEAT_FRAG w=00000103 sn=7 last=3 count=43",
            "ACKNACK r=00000104 w=00000103 sn=0 base=3 bits=1010000000000000000000000000000010000000 count=9"
                + " final=false",
            "NACK_FRAG r=00000104 w=00000103 sn=7 base=2 bits=010 count=10 final=false",
            "GAP w=00000103 start=4 base=8 bits=5 covers5=true covers9=false covers12=false");
        assertThat(reader.stats().acceptedDatagrams()).isEqualTo(1);
        assertThat(reader.stats().malformedTotal()).isZero();
    }

    @Test
    void bigEndianBytesLaidOutAsTheSpecDrawsThemDecode()
    {
        // header, then HEARTBEAT (E clear): readerId, writerId, firstSN {high, low}, lastSN, count
        final ByteBuffer b = ByteBuffer.allocate(20 + 4 + 28).order(ByteOrder.BIG_ENDIAN);
        b.put("RTPS".getBytes()).put((byte) 2).put((byte) 1).putShort((short) 0x0110);
        b.putLong(PREFIX_HIGH).putInt(PREFIX_LOW);
        b.put((byte) 0x07).put((byte) 0x02).putShort((short) 28);
        b.putInt(0x0000_0007).putInt(0x0000_0102).putInt(1).putInt(2).putInt(1).putInt(5).putInt(77);
        final ReceiveContext[] seen = new ReceiveContext[1];
        final long[] sns = new long[2];
        final int n = reader.read(b, 0, b.position(), new SubmessageHandler()
        {
            @Override
            public void onHeartbeat(final ReceiveContext c, final HeartbeatView h)
            {
                seen[0] = c;
                sns[0] = h.firstSN();
                sns[1] = h.lastSN();
            }
        });
        assertThat(n).isEqualTo(1);
        assertThat(sns).containsExactly((1L << 32) + 2, (1L << 32) + 5);
        assertThat(seen[0].vendorId()).isEqualTo(0x0110);
        assertThat(seen[0].versionMinor()).isEqualTo(1);
        assertThat(seen[0].sourcePrefixHigh()).isEqualTo(PREFIX_HIGH);
        assertThat(seen[0].sourcePrefixLow()).isEqualTo(PREFIX_LOW);
        assertThat(seen[0].addressedTo(1, 2)).as("no INFO_DST: addressed to all").isTrue();
    }

    @Test
    void lastSubmessageWithLengthZeroRunsToTheEnd()
    {
        final ByteBuffer out = ByteBuffer.allocate(256);
        final RtpsMessageWriter w = new RtpsMessageWriter(PREFIX_HIGH, PREFIX_LOW).begin(out);
        w.data(READER, WRITER, 1, null, 0, ByteBuffer.wrap(new byte[] {0, 1, 0, 0, 9, 9, 9, 9}), 0, 8, false);
        out.putShort(22, (short) 0); // octetsToNextHeader of the DATA
        assertThat(reader.read(out, 0, w.length(), handler)).isEqualTo(1);
        assertThat(handler.lines.getFirst()).contains("payload=0001000009090909");
    }

    @Test
    void unknownAndVendorSubmessagesAreSkippedAndCounted()
    {
        final ByteBuffer out = ByteBuffer.allocate(256);
        final RtpsMessageWriter w = new RtpsMessageWriter(PREFIX_HIGH, PREFIX_LOW).begin(out);
        w.heartbeat(READER, WRITER, 1, 0, 1, false, false);
        final int at = w.length();
        out.put(at, (byte) 0x30).put(at + 1, (byte) 1).putShort(at + 2, (short) 0x0400); // LE length 4
        out.put(at + 8, (byte) 0x81).put(at + 9, (byte) 1).putShort(at + 10, (short) 0);  // runs to the end
        assertThat(reader.read(out, 0, at + 16, handler)).isEqualTo(3);
        assertThat(handler.lines).containsExactly("HEARTBEAT r=00000104 w=00000103 1..0 count=1 final=false live=false");
        assertThat(reader.stats().unknownSubmessages()).isEqualTo(1);
        assertThat(reader.stats().vendorSpecificSubmessages()).isEqualTo(1);
    }

    @Test
    void eachMalformationHasItsReason()
    {
        assertRejected(new byte[10], MalformedReason.TRUNCATED_HEADER);
        final byte[] valid = validDatagram();
        final byte[] magic = valid.clone();
        magic[0] = 'X';
        assertRejected(magic, MalformedReason.BAD_MAGIC);
        final byte[] version = valid.clone();
        version[4] = 3;
        assertRejected(version, MalformedReason.UNSUPPORTED_VERSION);
        assertRejected(java.util.Arrays.copyOf(valid, 22), MalformedReason.TRUNCATED_SUBMESSAGE_HEADER);
        assertRejected(java.util.Arrays.copyOf(valid, valid.length - 4), MalformedReason.BAD_SUBMESSAGE_LENGTH);
        final byte[] keyHash = valid.clone();
        keyHash[20 + 4 + 20 + 2] = 12; // KEY_HASH length 16 -> 12
        assertRejected(keyHash, MalformedReason.BAD_KEY_HASH);
        final byte[] sn = valid.clone();
        java.util.Arrays.fill(sn, 20 + 4 + 12, 20 + 4 + 20, (byte) 0);
        assertRejected(sn, MalformedReason.BAD_SEQUENCE_NUMBER);
        final byte[] noSentinel = valid.clone();
        noSentinel[20 + 4 + 20 + 20] = 0x50; // the sentinel becomes an unknown pid whose length runs past the end
        noSentinel[20 + 4 + 20 + 22] = (byte) 0xf0;
        assertRejected(noSentinel, MalformedReason.BAD_PARAMETER_LIST);
        final ByteBuffer ack = ByteBuffer.allocate(128);
        final RtpsMessageWriter w = new RtpsMessageWriter(PREFIX_HIGH, PREFIX_LOW).begin(ack);
        w.ackNack(READER, WRITER, 1, 0, new int[0], 1, true);
        ack.putInt(20 + 4 + 16, Integer.reverseBytes(257)); // numBits above 256
        assertRejected(java.util.Arrays.copyOf(ack.array(), w.length()), MalformedReason.BAD_NUMBER_SET);
        final ByteBuffer frag = ByteBuffer.allocate(128);
        new RtpsMessageWriter(PREFIX_HIGH, PREFIX_LOW).begin(frag)
            .dataFrag(READER, WRITER, 1, 4, 1, 4, 12, null, ByteBuffer.allocate(4), 0, 4); // fragment 4 of 3
        assertRejected(java.util.Arrays.copyOf(frag.array(), 20 + 4 + 36), MalformedReason.BAD_FRAGMENT);
        assertThat(reader.stats().malformedTotal()).isEqualTo(10);
        assertThat(reader.read(ByteBuffer.wrap(valid), 0, valid.length, handler)).isEqualTo(1);
    }

    private void assertRejected(final byte[] datagram, final MalformedReason reason)
    {
        final long before = reader.stats().malformed(reason);
        assertThat(reader.read(ByteBuffer.wrap(datagram), 0, datagram.length, handler)).isEqualTo(-1);
        assertThat(reader.lastMalformed()).isEqualTo(reason);
        assertThat(reader.stats().malformed(reason)).isEqualTo(before + 1);
    }

    /** Header + DATA with a KeyHash and an 8-byte payload: 20 + 4 + 20 + 24 + 8 bytes. */
    static byte[] validDatagram()
    {
        final ByteBuffer out = ByteBuffer.allocate(256);
        final RtpsMessageWriter w = new RtpsMessageWriter(PREFIX_HIGH, PREFIX_LOW).begin(out);
        w.data(READER, WRITER, 3, new byte[16], 0, ByteBuffer.wrap(new byte[] {0, 1, 0, 0, 1, 2, 3, 4}), 0, 8, false);
        return java.util.Arrays.copyOf(out.array(), w.length());
    }
}
