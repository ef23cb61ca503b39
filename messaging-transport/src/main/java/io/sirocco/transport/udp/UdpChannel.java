package io.sirocco.transport.udp;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * One non-blocking UDP socket: bound to a unicast address and port, or to a port and joined to a multicast group on
 * one interface. Sends go out of the chosen interface (IP_MULTICAST_IF), with multicast loopback on, so that
 * participants on the same host hear each other.
 *
 * <p>Threads: {@link #receive} is called by one thread (the receive agent); {@link #send} by any thread, as
 * {@link DatagramChannel} allows concurrent sends beside one receiver.
 */
public final class UdpChannel implements AutoCloseable
{
    private final DatagramChannel channel;
    private final InetSocketAddress localAddress;
    private volatile DatagramFault fault = DatagramFault.NONE;

    private UdpChannel(final DatagramChannel channel) throws IOException
    {
        this.channel = channel;
        this.localAddress = (InetSocketAddress) channel.getLocalAddress();
    }

    /** A unicast socket bound to {@code address:port} (port 0: any free port). */
    public static UdpChannel unicast(final InetAddress address, final int port, final NetworkInterface nif)
        throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open(family(address));
        try
        {
            configure(channel, nif);
            channel.bind(new InetSocketAddress(address, port));
            return new UdpChannel(channel);
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }

    /** A socket on {@code port} (shared with other processes: SO_REUSEADDR) that joined {@code group} on nif. */
    public static UdpChannel multicast(final InetAddress group, final int port, final NetworkInterface nif)
        throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open(family(group));
        try
        {
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            configure(channel, nif);
            channel.bind(new InetSocketAddress(port));
            channel.join(group, nif);
            return new UdpChannel(channel);
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }

    private static void configure(final DatagramChannel channel, final NetworkInterface nif) throws IOException
    {
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
        channel.setOption(StandardSocketOptions.SO_SNDBUF, 1 << 20);
        if (nif != null && nif.supportsMulticast())
        {
            channel.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
            channel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
        }
    }

    private static ProtocolFamily family(final InetAddress address)
    {
        return address instanceof Inet6Address ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET;
    }

    /**
     * Receives one datagram into {@code buffer} from index 0 without blocking. Returns its source, or null when none
     * was waiting; the datagram's length is then {@code buffer.position()}.
     */
    public InetSocketAddress receive(final ByteBuffer buffer) throws IOException
    {
        while (true)
        {
            buffer.clear();
            final InetSocketAddress source = (InetSocketAddress) channel.receive(buffer);
            if (source == null || !fault.drop(false, buffer.position(), source))
            {
                return source;
            }
        }
    }

    /** Sends {@code buffer[0, length)} to {@code target}; false when the socket's send buffer was full. */
    public boolean send(final ByteBuffer buffer, final int length, final InetSocketAddress target) throws IOException
    {
        if (fault.drop(true, length, target))
        {
            return true; // lost on the way, as far as the sender can tell
        }
        final ByteBuffer view = buffer.duplicate().position(0).limit(length);
        return channel.send(view, target) == length;
    }

    /** Injects {@code datagramFault} into this socket's traffic from now on (tests); {@code NONE} ends it. */
    public void injectFault(final DatagramFault datagramFault)
    {
        this.fault = datagramFault;
    }

    public InetSocketAddress localAddress()
    {
        return localAddress;
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }
}
