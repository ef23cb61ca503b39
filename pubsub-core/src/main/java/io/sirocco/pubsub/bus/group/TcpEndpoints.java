package io.sirocco.pubsub.bus.group;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.dds.config.SiroccoConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the interface address a participant's network endpoints bind (the tcp row transport, the network
 * membership registry and the multicast beacons), and logs the choice with the candidates: the configured interface
 * (name or address) if any, else the first up, non-loopback IPv4 interface, else loopback with a warning. Never
 * silent (anchors-dds §5.1: arbitrary interface selection is the first DDS complaint).
 */
final class TcpEndpoints
{
    private static final Logger LOG = LoggerFactory.getLogger(TcpEndpoints.class);

    private TcpEndpoints()
    {
    }

    /** @return the tcp row transport's port: {@code sirocco.dds.tcp.port}, else 17400 + member id modulo 20000. */
    static int tcpPort(final SiroccoConfig config, final long memberId)
    {
        // 17400-32399: below Linux's ephemeral range (32768-60999), where any outgoing connection of the host may hold
        // the port (CI once failed with "Address already in use" on a derived 36892).
        return config.tcpPort() > 0 ? config.tcpPort() : 17_400 + (int)(memberId % 15_000);
    }

    /** @return the IPv4 address of the chosen interface; the choice is logged with every candidate. */
    static String chooseAddress(final SiroccoConfig config, final int domainId)
    {
        final List<String> candidates = new ArrayList<>();
        String chosen = null;
        String reason = null;
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
                    final String ip = address.getHostAddress();
                    candidates.add(nif.getName() + "=" + ip);
                    final String wanted = config.networkInterface();
                    if (!wanted.isEmpty())
                    {
                        if (chosen == null && (wanted.equals(nif.getName()) || wanted.equals(ip)))
                        {
                            chosen = ip;
                            reason = "configured (sirocco.dds.interface=" + wanted + ")";
                        }
                    }
                    else if (chosen == null && !nif.isLoopback())
                    {
                        chosen = ip;
                        reason = "first up non-loopback IPv4 interface " + nif.getName();
                    }
                }
            }
        }
        catch (final SocketException ex)
        {
            LOG.warn("domain {}: cannot list network interfaces: {}", domainId, ex.toString());
        }
        if (chosen == null)
        {
            if (!config.networkInterface().isEmpty())
            {
                throw new IllegalArgumentException("domain " + domainId + ": sirocco.dds.interface=" +
                    config.networkInterface() + " matches no up IPv4 interface; candidates " + candidates);
            }
            chosen = "127.0.0.1";
            reason = "FALLBACK to loopback: no up non-loopback IPv4 interface";
            LOG.warn("domain {}: network interface {} ({}); candidates {}", domainId, chosen, reason, candidates);
        }
        else
        {
            LOG.debug("domain {}: network interface {} ({}); candidates {}", domainId, chosen, reason, candidates);
        }
        return chosen;
    }
}
