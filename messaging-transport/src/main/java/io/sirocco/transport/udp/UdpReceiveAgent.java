package io.sirocco.transport.udp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.Agent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.transport.log.RateLimitedWarning;

/**
 * Polls a fixed set of {@link UdpChannel}s and hands each datagram to a {@link DatagramHandler}; run it with
 * {@code Agents.start(agent, idle)}. One duty cycle takes at most {@link #BATCH} datagrams per channel, so no
 * socket starves the others. A handler that throws is counted ({@link #handlerFailures()}) and logged at a bounded
 * rate; the agent goes on with the next datagram, so no peer can stop the loop by sending garbage.
 *
 * <p>Threads: everything runs on the agent's thread; the counters are atomics read by any thread.
 */
public final class UdpReceiveAgent implements Agent
{
    /** The largest UDP payload. */
    public static final int MAX_DATAGRAM = 65_536;
    static final int BATCH = 16;
    private static final Logger LOG = LoggerFactory.getLogger(UdpReceiveAgent.class);

    private final String roleName;
    private final UdpChannel[] channels;
    private final DatagramHandler handler;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    private final RateLimitedWarning failureWarning = new RateLimitedWarning(LOG);
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong handlerFailures = new AtomicLong();

    public UdpReceiveAgent(final String roleName, final DatagramHandler handler, final UdpChannel... channels)
    {
        this.roleName = roleName;
        this.channels = channels.clone();
        this.handler = handler;
    }

    @Override
    public int doWork() throws IOException
    {
        int work = 0;
        for (final UdpChannel channel : channels)
        {
            for (int i = 0; i < BATCH; i++)
            {
                final InetSocketAddress source = channel.receive(buffer);
                if (source == null)
                {
                    break;
                }
                work++;
                deliver(buffer.position(), source);
            }
        }
        return work;
    }

    private void deliver(final int length, final InetSocketAddress source)
    {
        received.lazySet(received.get() + 1);
        try
        {
            handler.onDatagram(buffer, length, source);
        }
        catch (final RuntimeException ex)
        {
            handlerFailures.incrementAndGet();
            failureWarning.warn("{}: a datagram of {} bytes from {} made the handler fail: {}", roleName, length,
                source, ex.toString());
        }
    }

    /** Datagrams received so far. */
    public long received()
    {
        return received.get();
    }

    /** Datagrams whose handler threw. */
    public long handlerFailures()
    {
        return handlerFailures.get();
    }

    @Override
    public String roleName()
    {
        return roleName;
    }
}
