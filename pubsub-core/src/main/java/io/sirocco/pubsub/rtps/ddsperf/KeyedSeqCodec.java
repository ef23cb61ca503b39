package io.sirocco.pubsub.rtps.ddsperf;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * ddsperf's {@code KeyedSeq} (its default topic type, in ddsperf_types.idl: {@code @final struct KeyedSeq
 * { unsigned long seq; @key unsigned long keyval; sequence<octet> baggage; }}) as a serialized payload. Every member
 * is 4-aligned and has at most 4-byte alignment, so XCDR1 (CDR_LE, 0x0001) and XCDR2 for a final type
 * (PLAIN_CDR2_LE, 0x0007) lay it out the same: only the encapsulation id differs. Reading accepts both byte orders
 * (CDR_BE 0x0000, PLAIN_CDR2_BE 0x0006 too). The KeyHash of a key that fits in 16 bytes is its big-endian
 * serialization zero-padded (DDSI-RTPS 2.5, 9.6.4.8): the keyval's 4 bytes, then 12 zeros.
 *
 * <p>Stateless; allocation-free.
 */
public final class KeyedSeqCodec
{
    public static final String TYPE_NAME = "KeyedSeq";
    public static final int XCDR1_LE = 0x0001;
    public static final int XCDR2_LE = 0x0007;
    /** Encapsulation header, seq, keyval, baggage length. */
    public static final int FIXED_SIZE = 4 + 12;

    private static final VarHandle INT_LE = MethodHandles.byteBufferViewVarHandle(int[].class,
        ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_BE = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private KeyedSeqCodec()
    {
    }

    /**
     * Writes a sample at {@code offset} with {@code baggage} zero octets (ddsperf sends zeros too); returns its
     * length.
     */
    public static int encode(final ByteBuffer out, final int offset, final int representation, final int seq,
        final int keyval, final int baggage)
    {
        out.put(offset, (byte) (representation >>> 8)).put(offset + 1, (byte) representation);
        out.put(offset + 2, (byte) 0).put(offset + 3, (byte) 0);
        INT_LE.set(out, offset + 4, seq);
        INT_LE.set(out, offset + 8, keyval);
        INT_LE.set(out, offset + 12, baggage);
        for (int i = 0; i < baggage; i++)
        {
            out.put(offset + FIXED_SIZE + i, (byte) 0);
        }
        return FIXED_SIZE + baggage;
    }

    /** The {@code seq} of a serialized sample, or -1 when the payload is not a KeyedSeq we can read. */
    public static long seq(final ByteBuffer in, final int offset, final int length)
    {
        return field(in, offset, length, 4);
    }

    /** The {@code keyval} of a serialized sample, or -1. */
    public static long keyval(final ByteBuffer in, final int offset, final int length)
    {
        return field(in, offset, length, 8);
    }

    /** The baggage length of a serialized sample, or -1 when it does not fit the payload. */
    public static long baggage(final ByteBuffer in, final int offset, final int length)
    {
        final long n = field(in, offset, length, 12);
        return n < 0 || n > length - FIXED_SIZE ? -1 : n;
    }

    /** The KeyHash of {@code keyval} into {@code into[0..16)}. */
    public static void keyHash(final int keyval, final byte[] into)
    {
        java.util.Arrays.fill(into, (byte) 0);
        into[0] = (byte) (keyval >>> 24);
        into[1] = (byte) (keyval >>> 16);
        into[2] = (byte) (keyval >>> 8);
        into[3] = (byte) keyval;
    }

    private static long field(final ByteBuffer in, final int offset, final int length, final int at)
    {
        if (length < FIXED_SIZE)
        {
            return -1;
        }
        final int representation = ((in.get(offset) & 0xff) << 8) | (in.get(offset + 1) & 0xff);
        return switch (representation)
        {
            case 0x0001, 0x0007 -> (int) INT_LE.get(in, offset + at) & 0xffff_ffffL;
            case 0x0000, 0x0006 -> (int) INT_BE.get(in, offset + at) & 0xffff_ffffL;
            default -> -1;
        };
    }
}
