package io.sirocco.ib.msg;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.sirocco.ib.verbs.VerbsException;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.agent.Agents;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.TransportEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The acceptor side of the IB handshake over the TCP control socket: a plain loop whose blocking call (accept) is
 * the wait itself, on a thread from {@link Agents#threadFactory} ({@code sirocco-ib-control-<node>}). A failed
 * handshake is a rate-limited WARN (a remote peer can cause it at will).
 *
 * <p>It answers before it asks the core for the connection: the core holds its per-node lock while this node's own
 * connect to the same peer waits for that peer's answer, so asking first would deadlock two nodes connecting to each
 * other at once. Data that arrives before the core accepted is held by the poller and delivered in order once the
 * channel is published through {@code incomingByNode}.
 */
final class IbControlAcceptor
{
    private static final Logger LOG = LoggerFactory.getLogger(IbControlAcceptor.class);

    private final TransportContext context;
    private final TransportEnvironment environment;
    private final MessagingVerbs verbs;
    private final IbChannelTable channels;
    private final ServerSocket control;
    private final RateLimitedWarning handshakeFailed = new RateLimitedWarning(LOG);
    private Thread thread;
    private volatile boolean running;

    IbControlAcceptor(final TransportContext context, final TransportEnvironment environment,
        final MessagingVerbs verbs, final IbChannelTable channels, final ServerSocket control)
    {
        this.context = context;
        this.environment = environment;
        this.verbs = verbs;
        this.channels = channels;
        this.control = control;
    }

    void start()
    {
        running = true;
        thread = Agents.threadFactory("ib-control-" + environment.ownNodeId()).newThread(this::acceptLoop);
        thread.start();
    }

    /** Stops accepting: closes the control socket (which ends a blocking accept) and joins the thread. */
    void stop()
    {
        running = false;
        try
        {
            control.close();
        }
        catch (final IOException ex)
        {
            LOG.debug("closing IB control socket", ex);
        }
        if (null != thread)
        {
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void acceptLoop()
    {
        while (running)
        {
            try (Socket socket = control.accept())
            {
                socket.setSoTimeout((int)Math.max(1, context.connectTimeoutMs()));
                accept(socket);
            }
            catch (final IOException | VerbsException | NodeUnreachableException ex)
            {
                if (running)
                {
                    handshakeFailed.warn("node {}: IB control handshake failed: {}", environment.ownNodeId(),
                        ex.getMessage());
                }
            }
        }
    }

    private void accept(final Socket socket) throws IOException
    {
        final DataInputStream in = new DataInputStream(socket.getInputStream());
        final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        final IbHandshake.Hello hello = IbHandshake.readHello(in);
        final IbChannel channel = channels.newChannel(null, false);
        try
        {
            final int psn = ThreadLocalRandom.current().nextInt() & 0xFFFFFF;
            verbs.connect(channel.qp, hello.endpoint(), psn);
            IbHandshake.writeHello(out, environment.ownNodeId(), verbs.endpoint(channel.qp, psn));
            IbHandshake.readReady(in);
        }
        catch (final IOException | VerbsException ex)
        {
            channels.retire(channel);
            throw ex;
        }
        final Connection connection = environment.acceptIncoming(hello.nodeId());
        channel.connection = connection;
        connection.incomingAttachment(channel);
        connection.peerDescription("ib " + socket.getRemoteSocketAddress());
        channels.byNode.set(hello.nodeId(), connection);
        channels.incomingByNode.set(hello.nodeId(), channel); // publishes the channel: held data may now be delivered
    }
}
