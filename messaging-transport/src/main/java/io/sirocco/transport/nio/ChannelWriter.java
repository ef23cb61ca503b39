package io.sirocco.transport.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;

import io.sirocco.transport.orb.OutgoingRingBuffer;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportEnvironment;

/**
 * Paper operation 2, pull from the ORB and send: writes a connection's outgoing ring (and a pending credit frame in
 * front of it, in the same gathering write) to its socket.
 *
 * <p><b>Direct writes.</b> With {@code directWrite} the signalling thread writes the ring itself when it gets the
 * ring's consumer lock ({@link #writeDirect}); it hands over to the selector loop (OP_WRITE) only when the socket is
 * full. A connection written directly less than {@code directWriteGapNs} ago is left to the selector loop instead,
 * which batches a fast sender's messages into one write. The selector loop's leader writes with {@link #writeOut}.
 *
 * <p>Concurrency: the ring's consumer lock (a try-lock) makes one thread at a time the writer of a connection; the
 * lock holder re-checks for output after unlocking, so nothing committed meanwhile is stranded. A channel's
 * {@code lastDirectWriteNs} is written under that lock; its {@code failed} flag is volatile.
 */
final class ChannelWriter
{
    private static final int MAX_CREDITS_PER_FRAME = 1 << 20;

    private final TransportEnvironment environment;
    private final InterestQueue interests;
    private final long directWriteGapNs;

    ChannelWriter(final TransportEnvironment environment, final InterestQueue interests, final long directWriteGapNs)
    {
        this.environment = environment;
        this.interests = interests;
        this.directWriteGapNs = directWriteGapNs;
    }

    private static boolean hasOutput(final Connection connection)
    {
        return connection.outgoingRingBuffer().readableBytes() > 0 || connection.flowControl().creditsPending();
    }

    /** A sending thread writes its connection's ring itself, or leaves it to the selector loop. */
    void writeDirect(final Connection connection)
    {
        if (!(connection.outgoingAttachment() instanceof NioChannel channel) || channel.key == null)
        {
            // not yet registered: the selector writes after registering
            interests.queue(connection, Transport.DATA);
            return;
        }
        final long nowNs = System.nanoTime();
        if (nowNs - channel.lastDirectWriteNs < directWriteGapNs)
        {
            // a fast sender: leave the writing to the selector loop, which sends all that is committed meanwhile in
            // one write instead of one system call per message
            interests.queue(connection, Transport.DATA);
            return;
        }
        final OutgoingRingBuffer ring = connection.outgoingRingBuffer();
        do
        {
            if (!ring.tryLockConsumer())
            {
                return; // the lock holder re-checks after unlocking
            }
            final boolean complete;
            try
            {
                channel.lastDirectWriteNs = nowNs;
                complete = writeRing(channel, ring);
            }
            finally
            {
                ring.unlockConsumer();
            }
            if (!complete)
            {
                interests.queue(connection, Transport.DATA); // socket full: the selector waits for OP_WRITE
                return;
            }
        }
        while (hasOutput(connection));
    }

    /** Selector loop's leader: write what the ring holds; keep OP_WRITE while the socket is full. */
    void writeOut(final Connection connection)
    {
        if (!(connection.outgoingAttachment() instanceof NioChannel channel) || channel.key == null)
        {
            return;
        }
        final OutgoingRingBuffer ring = connection.outgoingRingBuffer();
        boolean complete = true;
        do
        {
            if (!ring.tryLockConsumer())
            {
                break; // an application thread is writing; it hands back if the socket fills
            }
            try
            {
                complete = writeRing(channel, ring);
            }
            finally
            {
                ring.unlockConsumer();
            }
        }
        while (complete && hasOutput(connection));
        if (channel.key.isValid())
        {
            channel.key.interestOps(complete ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    /**
     * Consumer lock held: gathering writes of a pending credit frame and the readable ring pieces; false if the
     * socket is full.
     */
    private boolean writeRing(final NioChannel channel, final OutgoingRingBuffer ring)
    {
        final ByteBuffer control = channel.control;
        final ByteBuffer[] gather = channel.gather;
        try
        {
            while (true)
            {
                if (!control.hasRemaining())
                {
                    final int credits = channel.connection.flowControl().takeCredits(MAX_CREDITS_PER_FRAME);
                    if (credits > 0)
                    {
                        channel.putCredits(credits);
                    }
                }
                int count = 0;
                final int controlBytes = control.remaining();
                if (controlBytes > 0)
                {
                    gather[count++] = control;
                }
                final int pieces = ring.prepareRead(Integer.MAX_VALUE);
                final ByteBuffer[] ringPieces = ring.pieces();
                for (int i = 0; i < pieces; i++)
                {
                    gather[count++] = ringPieces[i];
                }
                if (count == 0)
                {
                    return true;
                }
                if (channel.failed)
                {
                    ring.consumed(ring.readableBytes());
                    control.limit(0);
                    return true;
                }
                // one buffer (the usual small message): a plain write, cheaper than a gathering write
                final long written = count == 1 ? channel.channel.write(gather[0]) : channel.channel.write(gather, 0, count);
                if (written <= 0)
                {
                    return false;
                }
                final int ringBytes = (int)written - (controlBytes - control.remaining());
                if (ringBytes > 0)
                {
                    ring.consumed(ringBytes);
                }
            }
        }
        catch (final IOException e)
        {
            channel.failed = true;
            ring.consumed(ring.readableBytes());
            control.limit(0);
            fail(channel.connection, "write to " + channel.peer + " failed: " + e.getMessage());
            return true;
        }
    }

    /** Ends the connection's stream with {@code reason} unless it is closed already. */
    void fail(final Connection connection, final String reason)
    {
        if (!connection.isClosed())
        {
            environment.endOfStream(connection, reason);
        }
    }
}
