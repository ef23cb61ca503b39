package io.sirocco.multicast.contact;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32;

import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The messaging-transport endpoint a {@link NetRegistry} serves its replica on: started on the configured
 * {@code host:port} (or a free port when another member of this host holds it), with the static peers in its address
 * map. Messaging node ids are derived from the canonical {@code ip:port} ({@link #nodeOf}), so a static peer's id is
 * known before it answers.
 *
 * <p>Threads: immutable after construction apart from the messaging service's address map, which is thread-safe;
 * {@link #learn} is called by the handler, beacon and outbox threads.
 */
final class RegistryEndpoint implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(RegistryEndpoint.class);

    private final String groupName;
    private final MessagingService service;
    private final String contact;
    private final List<Integer> staticPeerNodes = new ArrayList<>();
    private final boolean listed;

    /**
     * Starts the endpoint.
     *
     * @param groupName the group (for messages).
     * @param settings  the bind host, port and static peers.
     */
    RegistryEndpoint(final String groupName, final ContactSettings settings)
    {
        this.groupName = groupName;
        final String host = canonicalHost(settings.bindHost());
        String chosen = host + ":" + settings.port();
        MessagingService started;
        try
        {
            started = start(host, settings.port());
        }
        catch (final IllegalStateException ex)
        {
            if (settings.port() == 0)
            {
                throw new IllegalStateException("group '" + groupName + "': cannot start the registry endpoint on "
                    + host + ": " + ex.getMessage(), ex);
            }
            final int port = freePort(host);
            LOG.debug("group '{}': registry port {} is taken (another member on this host holds it: {}); listening "
                + "on {}:{} instead, so reach this member through that one", groupName, chosen, ex.getMessage(), host,
                port);
            chosen = host + ":" + port;
            started = start(host, port);
        }
        this.service = started;
        this.contact = chosen;
        this.listed = addStaticPeers(settings.peers());
    }

    /** @return whether this endpoint is one of the static peers. */
    private boolean addStaticPeers(final List<InetSocketAddress> peers)
    {
        boolean self = false;
        for (final InetSocketAddress peer : peers)
        {
            final String key = canonical(peer);
            if (key.equals(contact))
            {
                self = true;
                continue;
            }
            final int node = nodeOf(key);
            service.addressMap().put(node, peer);
            if (!staticPeerNodes.contains(node))
            {
                staticPeerNodes.add(node);
            }
        }
        return self;
    }

    private static MessagingService start(final String host, final int port)
    {
        final int node = nodeOf(host + ":" + port);
        final TransportContext ctx = new TransportContext().ownNodeId(node).transport("nio").handlerThreads(1)
            .connectTimeoutMs(1000).ringBufferBytes(1 << 18).flowControlWindowBytes(1 << 17);
        ctx.addressMap().put(node, host, port);
        return MessagingService.start(ctx);
    }

    private static int freePort(final String host)
    {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host)))
        {
            return s.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot find a free port on " + host, ex);
        }
    }

    private static String canonicalHost(final String host)
    {
        try
        {
            return InetAddress.getByName(host).getHostAddress();
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("registry address '" + host + "' does not resolve", ex);
        }
    }

    private static String canonical(final InetSocketAddress address)
    {
        final String host = address.getAddress() != null ? address.getAddress().getHostAddress()
            : canonicalHost(address.getHostString());
        return host + ":" + address.getPort();
    }

    /**
     * The messaging node id of a registry endpoint, derived from its canonical {@code ip:port} so that a static
     * peer's id is known before it answers and every pair of members shares exactly one connection per direction.
     * Ids collide with probability ~n^2/130000 for n endpoints; a collision is detected and logged.
     */
    static int nodeOf(final String contact)
    {
        final CRC32 crc = new CRC32();
        crc.update(contact.getBytes(StandardCharsets.UTF_8));
        return (int)(crc.getValue() % 65_000) + 1;
    }

    /** @return {@code host:port} this endpoint listens on. */
    String contact()
    {
        return contact;
    }

    /** @return whether this endpoint is one of the configured static peers. */
    boolean listed()
    {
        return listed;
    }

    /** @return the node ids of the static peers other than this endpoint. */
    List<Integer> staticPeerNodes()
    {
        return staticPeerNodes;
    }

    /** Routes received registry messages to {@code handler} (on the endpoint's single handler thread). */
    void onMessages(final Consumer<RegistryMessage> handler)
    {
        service.register(RegistryMessage.TYPE, RegistryMessage.SUBTYPE, RegistryMessage::new, handler::accept);
    }

    /** Sends now; throws when the node cannot be reached. */
    void send(final RegistryMessage m, final int node)
    {
        service.send(m, node);
    }

    /** Whether a message of this size to {@code node} would go now: its connection is open and has room. */
    boolean canSendNow(final int node, final int payloadBytes)
    {
        return service.canSendNow(node, payloadBytes);
    }

    /** @return the address known for a node, or null. */
    InetSocketAddress address(final int node)
    {
        return service.addressMap().address(node);
    }

    /** Records (or corrects) the address of a node from its {@code host:port}; a malformed one is logged. */
    void learn(final int node, final String hostPort)
    {
        final int colon = hostPort.lastIndexOf(':');
        if (colon <= 0)
        {
            return;
        }
        try
        {
            final InetSocketAddress address = new InetSocketAddress(hostPort.substring(0, colon),
                Integer.parseInt(hostPort.substring(colon + 1)));
            if (!address.equals(service.addressMap().address(node)))
            {
                service.addressMap().put(node, address);
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("group '{}': malformed registry address '{}' ignored: {}", groupName, hostPort, ex.toString());
        }
    }

    @Override
    public void close()
    {
        service.close();
    }
}
