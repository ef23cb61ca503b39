package io.sirocco.multicast.contact;

import io.sirocco.transport.agent.Agents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;

/**
 * UDP multicast beacons of one member: every beacon period {@link NetRegistry}'s ticker sends one datagram to the
 * group on the chosen interface (TTL 1: beacons never leave the link), and a receiver thread hands every beacon of
 * another member of the same group to the registry. Beacon (UTF-8 text, one line):
 * {@code SIROCCO-BEACON 1 <group> <memberId> <registry host:port> <inView 0|1>}, followed, for a member in a
 * view, by its group's identity {@code <size> <leaderId>} ({@link GroupIdentity}), so that two groups of one name
 * find each other and merge.
 *
 * <p>Threads: {@link #send} from the ticker thread only; the receiver thread owns the receive buffer.
 */
final class BeaconChannel implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(BeaconChannel.class);

    /** A beacon heard from another member. */
    interface Listener
    {
        void onBeacon(long memberId, String contact, boolean inView, GroupIdentity group);
    }

    private final DatagramChannel channel;
    private final InetSocketAddress target;
    private final String groupName;
    private final Thread receiver;
    /** Anyone who can send a datagram to the group can make beacons fail to parse. */
    private final LogRateLimit ignoredLog = new LogRateLimit();
    private final ByteBuffer out = ByteBuffer.allocate(512);
    private volatile boolean closed;

    /**
     * Joins the multicast group on the interface that owns {@code interfaceAddress}.
     *
     * @throws IOException when the interface cannot be found or does not do multicast, or the join fails; the
     *                     caller logs it and falls back to static peers.
     */
    BeaconChannel(final String groupName, final String interfaceAddress, final String group, final int port,
        final Listener listener) throws IOException
    {
        this.groupName = groupName;
        final InetAddress local = InetAddress.getByName(interfaceAddress);
        final NetworkInterface nif = NetworkInterface.getByInetAddress(local);
        if (nif == null)
        {
            throw new IOException("no network interface has address " + interfaceAddress);
        }
        if (!nif.supportsMulticast() || !nif.isUp())
        {
            throw new IOException("interface " + nif.getName() + " is down or does not support multicast");
        }
        final InetAddress groupAddress = InetAddress.getByName(group);
        if (!groupAddress.isMulticastAddress())
        {
            throw new IOException(group + " is not a multicast address");
        }
        this.target = new InetSocketAddress(groupAddress, port);
        final DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
        try
        {
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ch.bind(new InetSocketAddress(port));
            ch.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
            ch.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 1);
            ch.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            ch.join(groupAddress, nif);
        }
        catch (final IOException | RuntimeException ex)
        {
            ch.close();
            throw ex;
        }
        this.channel = ch;
        LOG.debug("group '{}': multicast beacons on {}:{} over interface {} ({})", groupName, group, port,
            nif.getName(), interfaceAddress);
        // A blocking receive is the wait itself: a plain loop on a named thread, not an agent.
        this.receiver = Agents.threadFactory("beacons-" + groupName).newThread(() -> receive(listener));
        receiver.start();
    }

    void send(final long memberId, final String contact, final GroupIdentity group)
    {
        final String text = BeaconFormat.encode(groupName, memberId, contact, group);
        out.clear();
        out.put(text.getBytes(StandardCharsets.UTF_8)).flip();
        try
        {
            channel.send(out, target);
        }
        catch (final IOException ex)
        {
            if (!closed)
            {
                LOG.warn("group '{}': beacon to {} not sent: {}", groupName, target, ex.toString());
            }
        }
    }

    private void receive(final Listener listener)
    {
        final ByteBuffer in = ByteBuffer.allocate(512);
        while (!closed)
        {
            try
            {
                in.clear();
                channel.receive(in);
                in.flip();
                final BeaconFormat.Beacon b = BeaconFormat.parse(StandardCharsets.UTF_8.decode(in).toString(),
                    groupName);
                if (b != null)
                {
                    listener.onBeacon(b.memberId(), b.contact(), b.inView(), b.group());
                }
                else
                {
                    final long skipped = ignoredLog.admit();
                    if (skipped >= 0)
                    {
                        LOG.debug("group '{}': malformed beacon ignored{}", groupName, LogRateLimit.suffix(skipped));
                    }
                }
            }
            catch (final ClosedChannelException ex)
            {
                return;
            }
            catch (final IOException | RuntimeException ex)
            {
                final long skipped = closed ? -1 : ignoredLog.admit();
                if (skipped >= 0)
                {
                    LOG.debug("group '{}': beacon ignored: {}{}", groupName, ex.toString(),
                        LogRateLimit.suffix(skipped));
                }
            }
        }
    }

    @Override
    public void close()
    {
        closed = true;
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // Closing a datagram channel; nothing to recover.
        }
    }
}
