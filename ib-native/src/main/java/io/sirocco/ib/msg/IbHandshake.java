package io.sirocco.ib.msg;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

import io.sirocco.ib.verbs.QpEndpoint;

/**
 * The TCP control exchange that connects one direction of a messaging connection: the connector sends
 * {@code HELLO(node, endpoint)}, the acceptor answers {@code HELLO(node, endpoint)} once its queue pair is ready to
 * receive, and the connector confirms with {@code READY} once its own is ready to send. Frames are
 * {@code u32 magic, u8 kind, u16 node, endpoint}; anything else ends the exchange with an {@link IOException}.
 */
final class IbHandshake
{
    static final int MAGIC = 0x51C0_1B1B;
    static final int HELLO = 1;
    static final int READY = 2;

    private IbHandshake()
    {
    }

    record Hello(int nodeId, QpEndpoint endpoint)
    {
    }

    static void writeHello(final DataOutputStream out, final int nodeId, final QpEndpoint endpoint) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocate(QpEndpoint.ENCODED_LENGTH);
        endpoint.encode(buffer);
        out.writeInt(MAGIC);
        out.writeByte(HELLO);
        out.writeShort(nodeId);
        out.write(buffer.array());
        out.flush();
    }

    static Hello readHello(final DataInputStream in) throws IOException
    {
        checkHeader(in, HELLO);
        final int nodeId = in.readUnsignedShort();
        final byte[] encoded = new byte[QpEndpoint.ENCODED_LENGTH];
        in.readFully(encoded);
        return new Hello(nodeId, QpEndpoint.decode(ByteBuffer.wrap(encoded)));
    }

    static void writeReady(final DataOutputStream out) throws IOException
    {
        out.writeInt(MAGIC);
        out.writeByte(READY);
        out.flush();
    }

    static void readReady(final DataInputStream in) throws IOException
    {
        checkHeader(in, READY);
    }

    private static void checkHeader(final DataInputStream in, final int kind) throws IOException
    {
        final int magic = in.readInt();
        if (MAGIC != magic)
        {
            throw new IOException("not a Sirocco IB handshake (magic " + Integer.toHexString(magic) + ")");
        }
        final int got = in.readUnsignedByte();
        if (got != kind)
        {
            throw new IOException("IB handshake: expected frame kind " + kind + ", got " + got);
        }
    }
}
