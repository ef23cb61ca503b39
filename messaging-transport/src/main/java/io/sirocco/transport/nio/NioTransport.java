package io.sirocco.transport.nio;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;

import io.sirocco.transport.TransportContext;
import io.sirocco.transport.protocol.HandshakeDescriptor;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TCP transport over Java NIO: one selector thread, <b>one bidirectional socket per node pair</b>, writes
 * straight from the ring, flow-control credits piggy-backed as credit frames in front of outgoing data, and an
 * interest queue.
 *
 * <p><b>One socket per node pair.</b> Requests and their responses share a socket, so a response's segment
 * acknowledges the request at the TCP level (two one-way sockets cost a pure ACK per message inside every read).
 * A socket starts with a handshake ({@link HandshakeDescriptor}): the connector sends a hello and waits for the
 * acceptor's reply before it writes any frame. Crossed simultaneous connects are settled by {@link PeerLink}'s rule
 * (the socket opened by the lower node id wins; a stale hello is rejected); a rejected socket never carried data,
 * so nothing is lost or duplicated, and the losing connector waits until the winning socket is bound to the same
 * connection object; if it does not come within the handshake timeout (the winner is slow, or gave up), the loser
 * handshakes again, up to {@link HandshakeConnector#CONNECT_ATTEMPTS} times, instead of reporting a live peer unreachable.
 *
 * <p><b>Credits.</b> The receiving coordinator makes credits pending past the threshold; the next writer on the
 * connection (whoever holds the ring's consumer lock) takes them and puts a 12-byte credit frame in front of the
 * ring data in the same gathering write. A standalone credit frame is written only when no data is going out.
 *
 * <p><b>Interest queue.</b> Producer threads never touch selection keys ({@link InterestQueue}).
 *
 * <p><b>Direct writes.</b> With {@code directWrite} (default) the signalling thread writes the ring to the socket
 * itself when it gets the ring's consumer lock; it hands over to the selector (OP_WRITE) only when the socket is
 * full. This saves a thread hand-off per round trip. A connection written directly less than
 * {@code directWriteGapNs} ago is left to the selector loop instead, which batches a fast sender's messages into
 * one write.
 *
 * <p><b>Idle.</b> The selector keeps polling with {@code selectNow} while its {@link SelectorSpinWindow} says so
 * (request/response traffic, an uncontended core; {@code selectorSpinNs}) and for {@code selectorSpins} empty
 * polls, then yields {@code selectorYields} times, then blocks in {@code select}.
 *
 * <p><b>Layout.</b> This class wires the parts and is the {@link Transport} face: {@link SelectorLoop} (the loop, its
 * idling and the leader/follower hand-over), {@link HandshakeConnector} and {@link HandshakeAcceptor} (the two sides
 * of the handshake), {@link ChannelWriter} and {@link ChannelReader} (paper operations 2 and 3 on a socket),
 * {@link PeerLinks} (one link per node).
 */
public final class NioTransport implements Transport
{
    private static final Logger LOG = LoggerFactory.getLogger(NioTransport.class);

    private final TransportContext context;
    private final PeerLinks links = new PeerLinks();
    private final long incarnation = new SecureRandom().nextLong();
    private final boolean directWrite;
    private Selector selector;
    private ServerSocketChannel server;
    private InterestQueue interests;
    private ChannelWriter writer;
    private SelectorLoop loop;
    private HandshakeConnector connector;

    NioTransport(final TransportContext context)
    {
        this.context = context;
        this.directWrite = context.directWrite();
    }

    @Override
    public String name()
    {
        return "nio";
    }

    @Override
    public void start(final TransportEnvironment environment)
    {
        final int own = environment.ownNodeId();
        final InetSocketAddress address = context.addressMap().address(own);
        if (address == null)
        {
            throw new IllegalStateException("node " + own + " has no address in the node address map: cannot listen");
        }
        try
        {
            selector = Selector.open();
            server = ServerSocketChannel.open();
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.setOption(StandardSocketOptions.SO_RCVBUF, context.socketBufferBytes());
            server.bind(address, 1024);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT, server);
            final InetSocketAddress bound = (InetSocketAddress)server.getLocalAddress();
            if (address.getPort() == 0)
            {
                context.addressMap().put(own, new InetSocketAddress(address.getAddress(), bound.getPort()));
            }
        }
        catch (final IOException e)
        {
            closeQuietly();
            throw new IllegalStateException("node " + own + " cannot listen on " + address + ": " + e.getMessage(), e);
        }
        interests = new InterestQueue(selector);
        writer = new ChannelWriter(environment, interests, context.directWriteGapNs());
        final ChannelReader reader = new ChannelReader(environment);
        final HandshakeAcceptor acceptor =
            new HandshakeAcceptor(context, environment, selector, server, links, writer, reader, incarnation);
        loop = new SelectorLoop(context, environment, selector, interests, writer, reader, acceptor);
        connector = new HandshakeConnector(context, environment, links, loop, incarnation,
            () -> listenAddress().getPort());
        loop.start();
    }

    /** The address the node listens on (the bound port if the map said 0). */
    public InetSocketAddress listenAddress()
    {
        try
        {
            return (InetSocketAddress)server.getLocalAddress();
        }
        catch (final IOException e)
        {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------ paper operation 4: set up

    @Override
    public long connectBoundNs(final long timeoutNs)
    {
        return HandshakeConnector.connectBoundNs(timeoutNs, context.handshakeTimeoutMs() * 1_000_000L);
    }

    /** Connects, retrying a lost crossed connect (see {@link HandshakeConnector#connect}). */
    @Override
    public void connect(final Connection connection, final long timeoutNs)
    {
        connector.connect(connection, timeoutNs);
    }

    // ------------------------------------------------------------------ paper operation 1: signal

    @Override
    public void signal(final Connection connection, final int what)
    {
        if (loop.isLeader())
        {
            writer.writeOut(connection); // a handler or the inline coordinator runs on the selector loop's thread
        }
        else if (directWrite)
        {
            writer.writeDirect(connection);
        }
        else
        {
            interests.queue(connection, what);
        }
    }

    /** Leader/follower hand-over of the selector loop to a requester (see {@link SelectorLoop#awaitResponse}). */
    @Override
    public boolean awaitResponse(final CompletableFuture<?> response, final long deadlineNs)
    {
        return loop.awaitResponse(response, deadlineNs);
    }

    // ------------------------------------------------------------------ paper operation 5: close

    @Override
    public void close(final Connection connection)
    {
        if (connection.outgoingAttachment() instanceof NioChannel channel)
        {
            channel.failed = true;
            links.unbind(connection, channel);
            NioChannel.closeQuietly(channel.channel);
        }
        if (selector != null)
        {
            selector.wakeup();
        }
    }

    @Override
    public void shutdown()
    {
        if (loop != null)
        {
            loop.stop();
        }
        closeQuietly();
    }

    private void closeQuietly()
    {
        try
        {
            if (selector != null)
            {
                for (final SelectionKey key : selector.keys())
                {
                    key.channel().close();
                }
                selector.close();
            }
            if (server != null)
            {
                server.close();
            }
        }
        catch (final IOException | RuntimeException e)
        {
            LOG.debug("closing selector", e);
        }
    }
}
