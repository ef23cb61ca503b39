package io.sirocco.tests.rtps;

import java.nio.ByteBuffer;

import io.sirocco.pubsub.rtps.ddsperf.KeyedSeqCodec;

/**
 * One ddsperf KeyedSeq sample of key 0, encoded once (XCDR1 little-endian) and reused for every write of a stream:
 * {@link #seq(int)} rewrites only its seq in place. Not thread-safe: one writing thread per sample.
 */
final class KeyedSeqSample
{
    /** The seq's offset in the encoded sample: after the 4-byte encapsulation header. */
    private static final int SEQ_OFFSET = 4;
    /** ddsperf's sample size counts the fixed part: seq, keyval and the octet sequence's length. */
    private static final int DDSPERF_FIXED_BYTES = 12;

    private final ByteBuffer buffer;
    private final int length;
    private final byte[] keyHash = new byte[16];

    private KeyedSeqSample(final int ddsperfSize)
    {
        final int octets = ddsperfSize - DDSPERF_FIXED_BYTES;
        buffer = ByteBuffer.allocateDirect(KeyedSeqCodec.FIXED_SIZE + octets);
        length = KeyedSeqCodec.encode(buffer, 0, KeyedSeqCodec.XCDR1_LE, 0, 0, octets);
        KeyedSeqCodec.keyHash(0, keyHash);
    }

    /** A sample of {@code ddsperfSize} bytes as ddsperf's {@code size} counts them (at least 12). */
    static KeyedSeqSample ofDdsperfSize(final int ddsperfSize)
    {
        return new KeyedSeqSample(ddsperfSize);
    }

    /** Sets the sample's seq; the buffer to write. */
    ByteBuffer seq(final int seq)
    {
        buffer.putInt(SEQ_OFFSET, Integer.reverseBytes(seq));
        return buffer;
    }

    /** The encoded sample's length in bytes, from offset 0 of the buffer. */
    int length()
    {
        return length;
    }

    /** The key hash of key 0. */
    byte[] keyHash()
    {
        return keyHash;
    }
}
