package io.sirocco.transport.nio;

import java.io.IOException;
import java.nio.ByteBuffer;

import io.sirocco.transport.spi.IncomingBuffer;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.TransportEnvironment;

/**
 * Reads a ready socket into one pooled receive buffer and pushes it to the incoming queue (paper operation 3); an
 * end of stream or a read error cancels the key, closes the socket and ends the connection's stream. Called by the
 * selector loop's leader only (one reader per socket at a time); allocates nothing but the pooled buffer.
 */
final class ChannelReader
{
    private final TransportEnvironment environment;

    ChannelReader(final TransportEnvironment environment)
    {
        this.environment = environment;
    }

    void readIn(final NioChannel channel)
    {
        final Connection connection = channel.connection;
        final IncomingBuffer buffer = environment.bufferPool().acquire();
        final ByteBuffer target = buffer.byteBuffer();
        int total = 0;
        boolean ended = false;
        String failure = null;
        try
        {
            while (target.hasRemaining())
            {
                final int n = channel.channel.read(target);
                if (n <= 0)
                {
                    ended = n < 0;
                    break;
                }
                total += n;
                if (target.hasRemaining())
                {
                    break; // the socket is drained: skip the read that would return 0 (the key stays readable if not)
                }
            }
        }
        catch (final IOException e)
        {
            failure = e.getMessage();
        }
        if (total > 0)
        {
            environment.pushIncoming(buffer.connection(connection).length(total));
        }
        else
        {
            buffer.release();
        }
        if (ended || failure != null)
        {
            channel.key.cancel();
            channel.failed = true;
            NioChannel.closeQuietly(channel.channel);
            environment.endOfStream(connection, failure == null ?
                "node " + connection.nodeId() + " (" + channel.peer + ") closed the connection" :
                "connection to node " + connection.nodeId() + " (" + channel.peer + ") failed: " + failure);
        }
    }
}
