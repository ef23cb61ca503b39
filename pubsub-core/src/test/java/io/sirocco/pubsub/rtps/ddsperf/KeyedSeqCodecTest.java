package io.sirocco.pubsub.rtps.ddsperf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

/** ddsperf's KeyedSeq: our encoding reads back, a big-endian XCDR2 sample laid out by hand reads, junk gives -1. */
class KeyedSeqCodecTest
{
    @Test
    void encodedSampleReadsBack()
    {
        final ByteBuffer b = ByteBuffer.allocate(64);
        final int length = KeyedSeqCodec.encode(b, 0, KeyedSeqCodec.XCDR1_LE, 42, 7, 20);
        assertThat(length).isEqualTo(36);
        assertThat(KeyedSeqCodec.seq(b, 0, length)).isEqualTo(42);
        assertThat(KeyedSeqCodec.keyval(b, 0, length)).isEqualTo(7);
        assertThat(KeyedSeqCodec.baggage(b, 0, length)).isEqualTo(20);
    }

    @Test
    void bigEndianXcdr2ReadsToo()
    {
        final ByteBuffer b = ByteBuffer.allocate(16);
        b.putShort(0, (short) 0x0006).putInt(4, 0x0102_0304).putInt(8, 9).putInt(12, 0);
        assertThat(KeyedSeqCodec.seq(b, 0, 16)).isEqualTo(0x0102_0304L);
        assertThat(KeyedSeqCodec.keyval(b, 0, 16)).isEqualTo(9);
    }

    @Test
    void unknownRepresentationsShortPayloadsAndOverlongBaggageAreRejected()
    {
        final ByteBuffer b = ByteBuffer.allocate(32);
        KeyedSeqCodec.encode(b, 0, KeyedSeqCodec.XCDR2_LE, 1, 1, 0);
        assertThat(KeyedSeqCodec.seq(b, 0, 15)).isEqualTo(-1);
        b.putInt(12, Integer.reverseBytes(1000));
        assertThat(KeyedSeqCodec.baggage(b, 0, 16)).isEqualTo(-1);
        b.putShort(0, (short) 0x0003);
        assertThat(KeyedSeqCodec.seq(b, 0, 16)).isEqualTo(-1);
    }

    @Test
    void keyHashIsTheBigEndianKeyPadded()
    {
        final byte[] hash = new byte[16];
        KeyedSeqCodec.keyHash(0x0a0b_0c0d, hash);
        assertThat(hash).containsExactly(0x0a, 0x0b, 0x0c, 0x0d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
