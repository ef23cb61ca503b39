package io.sirocco.transport.nio;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.function.IntSupplier;

import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.protocol.HandshakeDescriptor;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.TransportEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector's side of the handshake (paper operation 4, set up): opens a blocking socket, sends the hello, waits
 * for the acceptor's reply, and on ACCEPT binds the socket and has the selector loop register it. A REJECT means the
 * peer won a crossed connect; the connector then waits for the peer's socket to be bound to the same connection, and
 * if it does not come within the handshake timeout (the winner is slow, or gave up) handshakes again, up to
 * {@link #CONNECT_ATTEMPTS} times, instead of reporting a live peer unreachable.
 *
 * <p><b>Two bounds.</b> The TCP connect is bounded by the connect timeout: it says whether the host answers. Once it
 * has, the waits for the peer's process (its reply, and after a REJECT its own socket) are bounded by the handshake
 * timeout, the same bound the acceptor gives a hello. They used to share the connect timeout (1 s), so a crossed
 * connect between two live nodes failed whenever either process was descheduled for a second (a loaded machine,
 * {@code NioMessagingTest.shouldSurviveCrossedSimultaneousConnects} beside a CPU hog): the winner gave up on a reply
 * its peer was about to send, or the loser gave up on a winner that was about to connect.
 *
 * <p>Runs on the connecting application thread (blocking I/O bounded as above). Link state is
 * read and changed under the link's monitor; the acceptor's binding notifies a waiting connector.
 */
final class HandshakeConnector
{
    private static final Logger LOG = LoggerFactory.getLogger(HandshakeConnector.class);

    /**
     * How many handshakes a connector that keeps losing crossed connects makes before it reports the peer unreachable;
     * each one bounded as above ({@link #connectBoundNs}).
     */
    static final int CONNECT_ATTEMPTS = 3;

    private final TransportContext context;
    private final TransportEnvironment environment;
    private final PeerLinks links;
    private final SelectorLoop loop;
    private final long incarnation;
    /** The port this node listens on (read per hello: it throws once the server socket is closed). */
    private final IntSupplier listenPort;

    HandshakeConnector(final TransportContext context, final TransportEnvironment environment, final PeerLinks links,
        final SelectorLoop loop, final long incarnation, final IntSupplier listenPort)
    {
        this.context = context;
        this.environment = environment;
        this.links = links;
        this.loop = loop;
        this.incarnation = incarnation;
        this.listenPort = listenPort;
    }

    /**
     * The longest {@link #connect} can take with a connect timeout of {@code timeoutNs} and a handshake timeout of
     * {@code handshakeNs}: per attempt the TCP connect, the reply, and the wait for the winner's socket.
     */
    static long connectBoundNs(final long timeoutNs, final long handshakeNs)
    {
        final long attemptNs = timeoutNs + 2 * handshakeNs;
        return attemptNs > Long.MAX_VALUE / CONNECT_ATTEMPTS || attemptNs < 0 ? Long.MAX_VALUE :
            attemptNs * CONNECT_ATTEMPTS;
    }

    /**
     * Connects, retrying a lost crossed connect. A REJECT means the peer is alive and connecting to this node itself
     * (or already is, with a socket this node has bound by then), so this node waits for that socket. The winner's own
     * attempt can take long under load (it may be descheduled between taking its link and sending its hello, or give
     * up on a slow reply), so when the wait reaches this attempt's deadline the connector tries a new handshake
     * instead of failing: a peer still connecting rejects it again (the wait goes on), a peer whose attempt failed
     * accepts it. At most {@link #CONNECT_ATTEMPTS} handshakes, each bounded by {@code timeoutNs}.
     */
    void connect(final Connection connection, final long timeoutNs)
    {
        final int node = connection.nodeId();
        final InetSocketAddress address = context.addressMap().address(node);
        if (address == null)
        {
            throw new NodeUnreachableException(node, "no address for node " + node + " in the node address map");
        }
        final PeerLink link = links.link(node);
        final long handshakeNs = context.handshakeTimeoutMs() * 1_000_000L;
        for (int attempt = 1; ; attempt++)
        {
            final long generation;
            synchronized (link)
            {
                if (link.boundTo(connection))
                {
                    return; // the peer connected first and its socket is bound to this connection
                }
                link.connecting = true;
                generation = link.generation;
            }
            if (handshake(link, connection, address, generation, timeoutNs, handshakeNs) ||
                awaitAcceptedSocket(link, connection, address, System.nanoTime() + handshakeNs))
            {
                return;
            }
            if (attempt == CONNECT_ATTEMPTS)
            {
                throw new NodeUnreachableException(node, "node " + node + " (" + address + ") rejected this node's " +
                    "socket " + attempt + " times as the loser of a crossed connect, and its own socket was not " +
                    "bound within the handshake timeout after any of them");
            }
            LOG.debug("node {}: lost a crossed connect to node {} and its socket did not come within the " +
                "handshake timeout; handshake {} of {}", environment.ownNodeId(), node, attempt + 1, CONNECT_ATTEMPTS);
        }
    }

    /**
     * One handshake with the peer: true when the connection has its socket (the peer accepted this node's socket, now
     * bound, or the peer's own socket was bound while this one failed), false when the peer rejected this socket (a
     * crossed connect this node lost; the socket is closed). Throws when the peer cannot be reached.
     */
    private boolean handshake(final PeerLink link, final Connection connection, final InetSocketAddress address,
        final long generation, final long timeoutNs, final long handshakeNs)
    {
        SocketChannel channel = null;
        try
        {
            channel = SocketChannel.open();
            NioChannel.configure(channel, context.socketBufferBytes());
            final int timeoutMs = (int)Math.max(1, Math.min(Integer.MAX_VALUE, timeoutNs / 1_000_000));
            channel.socket().connect(address, timeoutMs);
            final long deadlineNs = System.nanoTime() + handshakeNs; // the host answered: now its process must
            final ByteBuffer hello = HandshakeDescriptor.hello(
                ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN),
                environment.ownNodeId(), listenPort.getAsInt(), incarnation, generation);
            while (hello.hasRemaining())
            {
                channel.write(hello);
            }
            final ByteBuffer reply = readReply(channel, address, deadlineNs);
            if (HandshakeDescriptor.verdict(reply) == HandshakeDescriptor.ACCEPT)
            {
                channel.configureBlocking(false);
                synchronized (link)
                {
                    link.connecting = false;
                    if (link.boundTo(connection))
                    {
                        NioChannel.closeQuietly(channel); // cannot happen under the rule; the bound socket is kept
                        return true;
                    }
                    final NioChannel bound = PeerLinks.bind(link, channel, connection, address.toString(),
                        HandshakeDescriptor.incarnation(reply), HandshakeDescriptor.generation(reply));
                    loop.registerLater(bound);
                }
                return true;
            }
            NioChannel.closeQuietly(channel);
            return false;
        }
        catch (final IOException e)
        {
            if (channel != null)
            {
                NioChannel.closeQuietly(channel);
            }
            synchronized (link)
            {
                link.connecting = false;
                if (link.boundTo(connection))
                {
                    return true; // the peer's own socket was bound meanwhile (it won a crossed connect)
                }
            }
            throw new NodeUnreachableException(connection.nodeId(), "connect to " + address + " failed: " +
                e.getMessage(), e);
        }
    }

    /** Blocking read of the acceptor's reply (exactly its bytes: frames may follow it), bounded by the deadline. */
    private static ByteBuffer readReply(final SocketChannel channel, final InetSocketAddress address, final long deadlineNs)
        throws IOException
    {
        final byte[] bytes = new byte[HandshakeDescriptor.LENGTH];
        final InputStream in = channel.socket().getInputStream();
        int filled = 0;
        while (filled < bytes.length)
        {
            final long leftMs = (deadlineNs - System.nanoTime()) / 1_000_000;
            if (leftMs <= 0)
            {
                throw new IOException("no handshake reply from " + address + " within the handshake timeout");
            }
            channel.socket().setSoTimeout((int)Math.min(Integer.MAX_VALUE, leftMs));
            final int n;
            try
            {
                n = in.read(bytes, filled, bytes.length - filled);
            }
            catch (final SocketTimeoutException e)
            {
                throw new IOException("no handshake reply from " + address + " within the handshake timeout", e);
            }
            if (n < 0)
            {
                throw new IOException(address + " closed the socket during the handshake after " + filled + " bytes");
            }
            filled += n;
        }
        final ByteBuffer reply = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        final int verdict = HandshakeDescriptor.verdict(reply);
        if (HandshakeDescriptor.magic(reply) != HandshakeDescriptor.REPLY_MAGIC ||
            (verdict != HandshakeDescriptor.ACCEPT && verdict != HandshakeDescriptor.REJECT))
        {
            throw new IOException("bad handshake reply from " + address);
        }
        return reply;
    }

    /**
     * The peer rejected this node's socket (a crossed connect): waits until the peer's socket is bound to the
     * connection (true) or the deadline passes (false). Throws if the connection is closed meanwhile.
     */
    private static boolean awaitAcceptedSocket(final PeerLink link, final Connection connection,
        final InetSocketAddress address, final long deadlineNs)
    {
        synchronized (link)
        {
            link.connecting = false;
            while (!link.boundTo(connection))
            {
                if (connection.isClosed())
                {
                    throw new NodeUnreachableException(connection.nodeId(), "the connection to node " +
                        connection.nodeId() + " (" + address + ") was closed while this node waited for that " +
                        "node's socket after losing a crossed connect");
                }
                final long leftMs = (deadlineNs - System.nanoTime()) / 1_000_000;
                if (leftMs <= 0)
                {
                    return false;
                }
                try
                {
                    link.wait(leftMs);
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                    throw new NodeUnreachableException(connection.nodeId(), "interrupted while connecting", e);
                }
            }
            return true;
        }
    }
}
