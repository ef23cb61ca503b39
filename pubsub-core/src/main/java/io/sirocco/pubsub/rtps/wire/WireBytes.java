package io.sirocco.pubsub.rtps.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Absolute reads and writes of RTPS primitives in an explicit byte order, whatever the buffer's own order is: a
 * submessage's E flag picks little or big endian per submessage, so the order is a parameter, never buffer state.
 * Plain (unaligned-safe) VarHandle accesses; stateless and thread-safe. Callers check bounds first.
 */
final class WireBytes
{
    private static final VarHandle SHORT_LE = MethodHandles.byteBufferViewVarHandle(short[].class,
        ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT_BE = MethodHandles.byteBufferViewVarHandle(short[].class,
        ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteBufferViewVarHandle(int[].class,
        ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_BE = MethodHandles.byteBufferViewVarHandle(int[].class,
        ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_BE = MethodHandles.byteBufferViewVarHandle(long[].class,
        ByteOrder.BIG_ENDIAN);

    private WireBytes()
    {
    }

    static int uint8(final ByteBuffer b, final int offset)
    {
        return b.get(offset) & 0xff;
    }

    static int uint16(final ByteBuffer b, final int offset, final boolean little)
    {
        return (little ? (short) SHORT_LE.get(b, offset) : (short) SHORT_BE.get(b, offset)) & 0xffff;
    }

    static int int32(final ByteBuffer b, final int offset, final boolean little)
    {
        return little ? (int) INT_LE.get(b, offset) : (int) INT_BE.get(b, offset);
    }

    static long uint32(final ByteBuffer b, final int offset, final boolean little)
    {
        return int32(b, offset, little) & 0xffff_ffffL;
    }

    /** An EntityId or the first 8 bytes of a GuidPrefix: octet arrays, so always big-endian. */
    static int int32Be(final ByteBuffer b, final int offset)
    {
        return (int) INT_BE.get(b, offset);
    }

    static long int64Be(final ByteBuffer b, final int offset)
    {
        return (long) LONG_BE.get(b, offset);
    }

    /** A SequenceNumber_t: {@code high} (int32) then {@code low} (uint32), each in the submessage's order. */
    static long sequenceNumber(final ByteBuffer b, final int offset, final boolean little)
    {
        return ((long) int32(b, offset, little) << 32) | uint32(b, offset + 4, little);
    }

    static void putUint16Le(final ByteBuffer b, final int offset, final int value)
    {
        SHORT_LE.set(b, offset, (short) value);
    }

    static void putInt32Le(final ByteBuffer b, final int offset, final int value)
    {
        INT_LE.set(b, offset, value);
    }

    static void putInt32Be(final ByteBuffer b, final int offset, final int value)
    {
        INT_BE.set(b, offset, value);
    }

    static void putInt64Be(final ByteBuffer b, final int offset, final long value)
    {
        LONG_BE.set(b, offset, value);
    }

    static void putSequenceNumberLe(final ByteBuffer b, final int offset, final long sn)
    {
        INT_LE.set(b, offset, (int) (sn >> 32));
        INT_LE.set(b, offset + 4, (int) sn);
    }
}
