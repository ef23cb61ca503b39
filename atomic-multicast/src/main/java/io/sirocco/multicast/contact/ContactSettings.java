package io.sirocco.multicast.contact;

import java.util.ArrayList;
import io.sirocco.multicast.config.MulticastSettings;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;

/**
 * How a member's {@link NetRegistry} is reached and how it finds the rest of its group. Immutable.
 *
 * @param bindHost         address the registry endpoint listens on (the chosen interface's address).
 * @param port             preferred port (every member of the group uses the same default); when it is taken, for
 *                         example by another member on this host, an ephemeral port is bound instead (logged).
 * @param peers            static contact members ({@code SIROCCO_DDS_PEERS}); always tried, multicast or not.
 * @param multicast        whether to send and listen to UDP multicast beacons.
 * @param multicastGroup   beacon group address (IPv4 multicast).
 * @param multicastPort    beacon UDP port.
 * @param beaconPeriodMs   period of beacons and of hellos/announcements to contacts.
 * @param discoveryWaitMs  how long a member that found no running group listens before it may form one.
 * @param mergeDelayMs     how long a member keeps hearing another group of its name (that survives over its own,
 *                         {@link GroupIdentity}) before it leaves its group to join that one; long enough that a
 *                         member about to be excluded (a partition's minority, still announcing its old view) is not
 *                         taken for another group.
 */
public record ContactSettings(
    String bindHost,
    int port,
    List<InetSocketAddress> peers,
    boolean multicast,
    String multicastGroup,
    int multicastPort,
    long beaconPeriodMs,
    long discoveryWaitMs,
    long mergeDelayMs)
{
    /** System property of the default merge delay ({@value #DEFAULT_MERGE_DELAY_MS} ms). */
    public static final String MERGE_DELAY_PROP = MulticastSettings.MERGE_DELAY_MS;
    public static final long DEFAULT_MERGE_DELAY_MS = MulticastSettings.DEFAULT_MERGE_DELAY_MS;

    /** Settings with the merge delay of {@link #MERGE_DELAY_PROP} (default {@value #DEFAULT_MERGE_DELAY_MS} ms). */
    public ContactSettings(final String bindHost, final int port, final List<InetSocketAddress> peers,
        final boolean multicast, final String multicastGroup, final int multicastPort, final long beaconPeriodMs,
        final long discoveryWaitMs)
    {
        this(bindHost, port, peers, multicast, multicastGroup, multicastPort, beaconPeriodMs, discoveryWaitMs,
            MulticastSettings.mergeDelayMs());
    }

    public ContactSettings
    {
        Objects.requireNonNull(bindHost, "bindHost");
        peers = List.copyOf(peers);
        if (port < 0 || port > 65_535)
        {
            throw new IllegalArgumentException("contact port out of range: " + port);
        }
        if (beaconPeriodMs <= 0 || discoveryWaitMs < 0 || mergeDelayMs < 0)
        {
            throw new IllegalArgumentException("beacon period must be positive, discovery wait and merge delay "
                + "non-negative: " + beaconPeriodMs + ", " + discoveryWaitMs + ", " + mergeDelayMs);
        }
    }

    /**
     * Parses a static peer list: {@code host[:port]} entries separated by commas, semicolons or spaces; an entry
     * without a port gets {@code defaultPort}. IPv6 literals go in brackets ({@code [::1]:7400}).
     *
     * @param text        the list (may be empty).
     * @param defaultPort port of entries that name none.
     * @return the addresses, unresolved names resolved now.
     * @throws IllegalArgumentException naming the malformed entry.
     */
    public static List<InetSocketAddress> parsePeers(final String text, final int defaultPort)
    {
        final ArrayList<InetSocketAddress> out = new ArrayList<>();
        if (text == null || text.isBlank())
        {
            return out;
        }
        for (final String raw : text.trim().split("[,;\\s]+"))
        {
            if (raw.isEmpty())
            {
                continue;
            }
            String host = raw;
            int port = defaultPort;
            try
            {
                if (raw.startsWith("["))
                {
                    final int close = raw.indexOf(']');
                    host = raw.substring(1, close);
                    if (close + 1 < raw.length())
                    {
                        port = Integer.parseInt(raw.substring(close + 2));
                    }
                }
                else if (raw.indexOf(':') >= 0)
                {
                    host = raw.substring(0, raw.lastIndexOf(':'));
                    port = Integer.parseInt(raw.substring(raw.lastIndexOf(':') + 1));
                }
                if (host.isEmpty() || port <= 0 || port > 65_535)
                {
                    throw new IllegalArgumentException("empty host or port out of range");
                }
            }
            catch (final RuntimeException ex)
            {
                throw new IllegalArgumentException("malformed peer '" + raw + "' in '" + text + "': expected "
                    + "host[:port] (" + ex.getMessage() + ")", ex);
            }
            out.add(new InetSocketAddress(host, port));
        }
        return out;
    }
}
