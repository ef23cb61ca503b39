package io.sirocco.transport.protocol;

import java.nio.ByteBuffer;

/**
 * The TCP handshake that opens a connection's one bidirectional socket (little-endian, fixed length).
 * <pre>
 *   hello (connector to acceptor), 24 bytes:
 *     0 magic "SIRC" (int) | 4 node id (short) | 6 listening port (short, 0 if unknown)
 *     8 incarnation (long) | 16 generation (long)
 *   reply (acceptor to connector), 24 bytes:
 *     0 magic "SIRA" (int) | 4 node id (short) | 6 verdict (byte: 1 accept, 2 reject) | 7 zero
 *     8 incarnation (long) | 16 generation (long)
 * </pre>
 * The <em>incarnation</em> is a random number drawn when a node's transport starts, so a restarted peer is told
 * apart from a second socket of the same process. The <em>generation</em> counts the sockets bound between the
 * two nodes: a hello carries the last generation its sender bound to the acceptor, an accepting reply carries the
 * new generation {@code max(both) + 1}, which both sides keep. A connector writes no frame before it has read an
 * accepting reply, and an acceptor writes its reply before any frame, so a rejected socket never carries data.
 * The listening port lets the acceptor learn how to reach a node that connected first.
 */
public final class HandshakeDescriptor
{
    public static final int HELLO_MAGIC = 0x53495243;
    public static final int REPLY_MAGIC = 0x53495241;
    public static final int LENGTH = 24;
    public static final int ACCEPT = 1;
    public static final int REJECT = 2;

    private HandshakeDescriptor()
    {
    }

    /** Fills {@code out} (position 0, little-endian, {@link #LENGTH} bytes) with a hello and flips it. */
    public static ByteBuffer hello(
        final ByteBuffer out, final int nodeId, final int port, final long incarnation, final long generation)
    {
        out.clear();
        out.putInt(HELLO_MAGIC).putShort((short)nodeId).putShort((short)port).putLong(incarnation).putLong(generation);
        return out.flip();
    }

    /** Fills {@code out} with a reply and flips it. */
    public static ByteBuffer reply(
        final ByteBuffer out, final int nodeId, final int verdict, final long incarnation, final long generation)
    {
        out.clear();
        out.putInt(REPLY_MAGIC).putShort((short)nodeId).put((byte)verdict).put((byte)0).putLong(incarnation)
            .putLong(generation);
        return out.flip();
    }

    public static int magic(final ByteBuffer in)
    {
        return in.getInt(0);
    }

    public static int nodeId(final ByteBuffer in)
    {
        return in.getShort(4) & 0xFFFF;
    }

    /** Hello only. */
    public static int port(final ByteBuffer in)
    {
        return in.getShort(6) & 0xFFFF;
    }

    /** Reply only. */
    public static int verdict(final ByteBuffer in)
    {
        return in.get(6);
    }

    public static long incarnation(final ByteBuffer in)
    {
        return in.getLong(8);
    }

    public static long generation(final ByteBuffer in)
    {
        return in.getLong(16);
    }
}
