package io.sirocco.tests.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Deterministic payloads of varying length (16 to 300 bytes) for entry i, so a recovery can be checked byte-exact. */
final class Payloads
{
    private Payloads()
    {
    }

    static byte[] of(final long i)
    {
        final int length = 16 + (int)((i * 7919) % 285);
        final byte[] bytes = new byte[length];
        final ByteBuffer view = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        view.putLong(0, i);
        long x = i * 0x9E37_79B9_7F4A_7C15L + 1;
        for (int k = 8; k < length; k++)
        {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            bytes[k] = (byte)x;
        }
        return bytes;
    }
}
