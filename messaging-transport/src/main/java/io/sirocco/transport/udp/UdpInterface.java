package io.sirocco.transport.udp;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The interface a UDP protocol binds, chosen and logged, never picked silently: the wanted one (a name such as
 * {@code lo} or an address) if given, else the first up, non-loopback interface with an IPv4 address, else loopback.
 *
 * @param nif the interface
 * @param address its IPv4 address the sockets bind
 * @param reason why it was chosen, for the log
 */
public record UdpInterface(NetworkInterface nif, InetAddress address, String reason)
{
    private static final Logger LOG = LoggerFactory.getLogger(UdpInterface.class);

    /** Whether multicast can be used on it (loopback usually cannot). */
    public boolean multicast()
    {
        try
        {
            return nif.supportsMulticast() && !nif.isLoopback();
        }
        catch (final SocketException ex)
        {
            return false;
        }
    }

    /**
     * Chooses the interface; {@code wanted} empty means automatic. Logs the choice at INFO with the candidates.
     *
     * @throws IllegalArgumentException when {@code wanted} matches no up interface with an IPv4 address
     */
    public static UdpInterface choose(final String wanted, final String what)
    {
        final List<String> candidates = new ArrayList<>();
        UdpInterface chosen = null;
        UdpInterface loopback = null;
        try
        {
            for (final NetworkInterface nif : NetworkInterface.networkInterfaces().toList())
            {
                if (!nif.isUp())
                {
                    continue;
                }
                for (final InetAddress address : nif.inetAddresses().toList())
                {
                    if (!(address instanceof Inet4Address))
                    {
                        continue;
                    }
                    candidates.add(nif.getName() + "=" + address.getHostAddress());
                    if (chosen != null)
                    {
                        continue;
                    }
                    if (!wanted.isEmpty())
                    {
                        if (wanted.equals(nif.getName()) || wanted.equals(address.getHostAddress()))
                        {
                            chosen = new UdpInterface(nif, address, "configured (" + wanted + ")");
                        }
                    }
                    else if (!nif.isLoopback())
                    {
                        chosen = new UdpInterface(nif, address, "first up non-loopback IPv4 interface");
                    }
                    else if (loopback == null)
                    {
                        loopback = new UdpInterface(nif, address, "fallback to loopback: no other up IPv4 interface");
                    }
                }
            }
        }
        catch (final SocketException ex)
        {
            throw new IllegalStateException(what + ": cannot list network interfaces: " + ex, ex);
        }
        if (chosen == null && (!wanted.isEmpty() || loopback == null))
        {
            throw new IllegalArgumentException(what + ": interface '" + wanted + "' matches no up IPv4 interface;"
                + " candidates " + candidates);
        }
        final UdpInterface result = chosen != null ? chosen : loopback;
        LOG.info("{}: interface {} {} ({}); candidates {}", what, result.nif.getName(),
            result.address.getHostAddress(), result.reason, candidates);
        return result;
    }
}
