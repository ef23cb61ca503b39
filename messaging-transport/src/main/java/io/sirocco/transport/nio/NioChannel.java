package io.sirocco.transport.nio;

import io.sirocco.transport.protocol.FrameDescriptor;
import io.sirocco.transport.spi.Connection;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The one bidirectional socket of a connection, after its handshake: frames flow both ways, and flow-control
 * credits travel as credit frames in front of the data.
 *
 * <p>Threads: the selector thread alone reads the socket and owns {@code key}. Writes (ring data and the credit
 * frame in {@code control}) are made by whichever thread holds the connection ring's consumer lock; that lock also
 * guards {@code control} and {@code gather}. {@code failed} is volatile: set once by any thread.
 */
final class NioChannel
{
    final SocketChannel channel;
    final Connection connection;
    final String peer;
    /** A credit frame (or the unwritten rest of one); empty when there is none. Consumer-lock holder only. */
    final ByteBuffer control = ByteBuffer.allocateDirect(FrameDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    final ByteBuffer[] gather = new ByteBuffer[3];
    volatile SelectionKey key;
    /** When a sending thread last wrote directly; written under the consumer lock, read without it as a hint. */
    long lastDirectWriteNs = System.nanoTime() - (1L << 40);
    volatile boolean failed;

    NioChannel(final SocketChannel channel, final Connection connection, final String peer)
    {
        this.channel = channel;
        this.connection = connection;
        this.peer = peer;
        control.limit(0);
    }

    /** Consumer-lock holder: puts a credit frame for {@code credits} thresholds into {@code control}. */
    void putCredits(final int credits)
    {
        control.clear();
        control.put(FrameDescriptor.MAGIC).put((byte)FrameDescriptor.KIND_PADDING).put((byte)FrameDescriptor.CREDIT_TYPE)
            .put((byte)0).putInt(credits).putInt(0).flip();
    }

    /** The options of every connection's socket: no Nagle delay, send and receive buffers of the given size. */
    static void configure(final SocketChannel channel, final int socketBufferBytes) throws IOException
    {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.setOption(StandardSocketOptions.SO_SNDBUF, socketBufferBytes);
        channel.setOption(StandardSocketOptions.SO_RCVBUF, socketBufferBytes);
    }

    static void closeQuietly(final SocketChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // closing anyway
        }
    }
}
