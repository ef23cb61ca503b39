package io.sirocco.transport.nio;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import io.sirocco.transport.TransportContext;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.protocol.HandshakeDescriptor;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.TransportEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The acceptor's side of the handshake ({@link HandshakeDescriptor}): accepts a socket, reads the connector's hello
 * without blocking, and accepts or rejects the socket under {@link PeerLink}'s rule for crossed connects (the socket
 * opened by the lower node id wins; a stale hello is rejected). An accepted socket is bound to the node's connection
 * and read at once (frames may have followed the hello). A hello that is not one, or a peer that closes during the
 * handshake, is a rate-limited WARN: a remote peer can cause it at will.
 *
 * <p><b>Admission.</b> A socket must complete its hello within {@code handshakeTimeoutMs}, and at most
 * {@code handshakePendingMax} may be incomplete at once ({@link PendingHandshakes}); a failing {@code accept} (the fd
 * limit) pauses accepting ({@link AcceptBackoff}) instead of spinning. A node id is bound to its first open socket:
 * a hello that claims it from another socket is rejected ({@link #claimsBoundNode}), so a forged hello cannot
 * replace a live peer's connection; a restarted peer gets in once its old socket has ended (the connector retries).
 *
 * <p>Called by the selector loop's leader only; the reply buffer is confined to it. Link state is read and changed
 * under the link's monitor.
 */
final class HandshakeAcceptor
{
    private static final Logger LOG = LoggerFactory.getLogger(HandshakeAcceptor.class);

    private final TransportContext context;
    private final TransportEnvironment environment;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final PeerLinks links;
    private final ChannelWriter writer;
    private final ChannelReader reader;
    private final long incarnation;
    private final ByteBuffer replyBuffer = ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final RateLimitedWarning acceptFailed = new RateLimitedWarning(LOG);
    private final RateLimitedWarning badHandshake = new RateLimitedWarning(LOG);
    private final RateLimitedWarning nodeIdClaimed = new RateLimitedWarning(LOG);
    private final PendingHandshakes pendingHandshakes;
    private final AcceptBackoff backoff = new AcceptBackoff();

    HandshakeAcceptor(final TransportContext context, final TransportEnvironment environment, final Selector selector,
        final ServerSocketChannel server, final PeerLinks links, final ChannelWriter writer, final ChannelReader reader,
        final long incarnation)
    {
        this.context = context;
        this.environment = environment;
        this.selector = selector;
        this.server = server;
        this.links = links;
        this.writer = writer;
        this.reader = reader;
        this.incarnation = incarnation;
        this.pendingHandshakes = new PendingHandshakes(environment.ownNodeId(), context.handshakeTimeoutMs(),
            context.handshakePendingMax(), environment.statistics());
        backoff.serverKey(server.keyFor(selector));
    }

    /** True while a deadline is pending: an incomplete hello, or accepting paused. */
    boolean hasTimers()
    {
        return !pendingHandshakes.isEmpty() || backoff.paused();
    }

    /** Closes sockets past their hello deadline and resumes accepting when its pause is over; the work done. */
    int onTimers(final long nowNs)
    {
        return pendingHandshakes.expire(nowNs) + (backoff.resumeIfDue(nowNs) ? 1 : 0);
    }

    /** Milliseconds (at least 1) until {@link #onTimers} has something to do, or 0 if nothing is pending. */
    long millisToNextTimer(final long nowNs)
    {
        final long hello = pendingHandshakes.nanosToNextDeadline(nowNs);
        final long resume = backoff.nanosToResume(nowNs);
        final long nextNs = hello < 0 ? resume : resume < 0 ? hello : Math.min(hello, resume);
        return nextNs < 0 ? 0 : Math.max(1, (nextNs + 999_999L) / 1_000_000L);
    }

    void accept()
    {
        try
        {
            final SocketChannel channel = server.accept();
            if (channel == null)
            {
                return;
            }
            backoff.onAccepted();
            register(channel);
        }
        catch (final IOException e)
        {
            environment.statistics().acceptFailure();
            backoff.onFailure(System.nanoTime());
            acceptFailed.warn("node {}: accept failed: {}; pausing accepts", environment.ownNodeId(), e.getMessage());
        }
    }

    private void register(final SocketChannel channel)
    {
        try
        {
            channel.configureBlocking(false);
            NioChannel.configure(channel, context.socketBufferBytes());
            final String peer = String.valueOf(channel.getRemoteAddress());
            final SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
            final PendingAccept pending =
                new PendingAccept(channel, key, peer, pendingHandshakes.deadlineNs(System.nanoTime()));
            key.attach(pending);
            pendingHandshakes.add(pending);
        }
        catch (final IOException e)
        {
            NioChannel.closeQuietly(channel);
            badHandshake.warn("node {}: could not set up an accepted socket: {}", environment.ownNodeId(),
                e.getMessage());
        }
    }

    /** Reads the hello; once it is whole, accepts or rejects the socket under {@link PeerLink}'s rule. */
    void readHello(final PendingAccept pending)
    {
        if (!helloComplete(pending))
        {
            return;
        }
        final ByteBuffer hello = pending.hello;
        final int magic = HandshakeDescriptor.magic(hello);
        if (magic != HandshakeDescriptor.HELLO_MAGIC)
        {
            badHandshake.warn("node {}: bad handshake from {}: magic 0x{} (expected 0x{}); closing the connection",
                environment.ownNodeId(), pending.peer, Integer.toHexString(magic),
                Integer.toHexString(HandshakeDescriptor.HELLO_MAGIC));
            pending.drop();
            return;
        }
        final int node = HandshakeDescriptor.nodeId(hello);
        learnAddress(pending, node, HandshakeDescriptor.port(hello));
        if (node == environment.ownNodeId())
        {
            acceptSelf(pending);
            return;
        }
        if (!acceptUnderRule(pending, node, HandshakeDescriptor.incarnation(hello),
            HandshakeDescriptor.generation(hello)))
        {
            return;
        }
        pending.done = true;
        final Connection connection = ((NioChannel)pending.key.attachment()).connection;
        writer.writeOut(connection);
        if (pending.key.isValid() && pending.channel.isOpen())
        {
            reader.readIn((NioChannel)pending.key.attachment()); // frames may have followed the hello
        }
    }

    /** Reads what is there of the hello; true once it is whole (false also after the socket was dropped). */
    private boolean helloComplete(final PendingAccept pending)
    {
        try
        {
            if (pending.channel.read(pending.hello) < 0)
            {
                pending.drop();
                if (pending.hello.position() > 0)
                {
                    badHandshake.warn("node {}: peer {} closed during the handshake after {} of {} bytes",
                        environment.ownNodeId(), pending.peer, pending.hello.position(), HandshakeDescriptor.LENGTH);
                }
                return false;
            }
        }
        catch (final IOException e)
        {
            pending.drop();
            return false;
        }
        return !pending.hello.hasRemaining();
    }

    /** Learns the address of a node that connected first, so this node can reconnect to it later. */
    private void learnAddress(final PendingAccept pending, final int node, final int port)
    {
        if (port != 0 && context.addressMap().address(node) == null &&
            pending.channel.socket().getInetAddress() != null)
        {
            context.addressMap().put(node, new InetSocketAddress(pending.channel.socket().getInetAddress(), port));
        }
    }

    /**
     * Under the link's monitor: accepts the socket (replies ACCEPT, binds it to the node's connection, attaches it to
     * the key) or rejects it (a crossed connect this node wins, or a stale hello). False when the socket was dropped.
     */
    private boolean acceptUnderRule(final PendingAccept pending, final int node, final long peerIncarnation,
        final long peerGeneration)
    {
        final int own = environment.ownNodeId();
        final PeerLink link = links.link(node);
        if (claimsBoundNode(pending, node, link, peerIncarnation))
        {
            return false;
        }
        synchronized (link)
        {
            final boolean accept;
            if (link.boundOpen())
            {
                accept = peerIncarnation == link.peerIncarnation && peerGeneration >= link.generation;
            }
            else if (link.connecting)
            {
                accept = node < own;
            }
            else
            {
                accept = true;
            }
            final long generation = Math.max(link.generation, peerGeneration) + 1;
            if (!accept)
            {
                LOG.debug("node {}: rejected a second socket from node {} ({}): crossed connect", own, node, pending.peer);
                writeReply(pending, HandshakeDescriptor.REJECT, link.generation);
                pending.drop();
                return false;
            }
            // closes an older connection to the node that still had its socket (the peer restarted or reconnected)
            final Connection connection = environment.acceptIncoming(node);
            if (!writeReply(pending, HandshakeDescriptor.ACCEPT, generation))
            {
                pending.drop();
                environment.endOfStream(connection, "handshake reply to node " + node + " (" + pending.peer + ") failed");
                return false;
            }
            final NioChannel bound =
                PeerLinks.bind(link, pending.channel, connection, pending.peer, peerIncarnation, generation);
            bound.key = pending.key;
            pending.key.attach(bound);
            connection.outgoingOpen(true);
        }
        return true;
    }

    /**
     * A node's connection to itself: the connector's end of the socket carries its writes (it is bound on the accept
     * reply as usual) and this accepted end only reads them, for the same connection object. No crossed connect is
     * possible with oneself, so the socket is always accepted.
     */
    private void acceptSelf(final PendingAccept pending)
    {
        final Connection connection = environment.acceptIncoming(environment.ownNodeId());
        if (!writeReply(pending, HandshakeDescriptor.ACCEPT, 0))
        {
            pending.drop();
            return;
        }
        pending.done = true;
        final NioChannel reader = new NioChannel(pending.channel, connection, pending.peer);
        reader.key = pending.key;
        pending.key.attach(reader);
        this.reader.readIn(reader);
    }

    /**
     * A node id is bound to its first open socket. A hello from another incarnation that claims a node with an open
     * bound socket is a forgery, or a restarted peer whose old socket's end this node has not read yet: the old
     * socket is read first (an end it finds closes it at once), and if it is still open the hello is rejected, counted
     * and logged at a bounded rate. A restarted peer's connector retries and gets in once its old socket has ended. A
     * hello of the bound incarnation is left to the crossed-connect rule. True if the socket was rejected.
     */
    private boolean claimsBoundNode(final PendingAccept pending, final int node, final PeerLink link,
        final long peerIncarnation)
    {
        final NioChannel bound;
        synchronized (link)
        {
            bound = link.boundOpen() && link.peerIncarnation != peerIncarnation ? link.bound : null;
        }
        if (bound == null)
        {
            return false;
        }
        if (bound.key != null && bound.key.isValid())
        {
            reader.readIn(bound); // the old socket's end may be waiting behind this hello
        }
        synchronized (link)
        {
            if (!link.boundOpen() || link.bound != bound)
            {
                return false;
            }
            environment.statistics().nodeIdClaimRejected();
            nodeIdClaimed.warn("node {}: rejected a hello from {} claiming node {}, which is bound to the open socket "
                + "from {}", environment.ownNodeId(), pending.peer, node, bound.peer);
            writeReply(pending, HandshakeDescriptor.REJECT, link.generation);
            pending.drop();
            return true;
        }
    }

    /** Non-blocking write of the 24-byte reply into the fresh socket's empty send buffer; false if it failed. */
    private boolean writeReply(final PendingAccept pending, final int verdict, final long generation)
    {
        final ByteBuffer reply = HandshakeDescriptor.reply(replyBuffer, environment.ownNodeId(), verdict, incarnation,
            generation);
        try
        {
            for (int attempt = 0; attempt < 1000 && reply.hasRemaining(); attempt++)
            {
                pending.channel.write(reply);
            }
            return !reply.hasRemaining();
        }
        catch (final IOException e)
        {
            return false;
        }
    }

}
