package io.sirocco.ib.msg;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.sirocco.ib.verbs.VerbsException;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The messaging transport over InfiniBand/RoCE verbs, after Ibdxnet: SEND_WITH_IMM over RC queue pairs, one shared
 * receive queue and one receive CQ for all peers, one send CQ, and flow-control credits in the immediate data.
 *
 * <ul>
 *   <li>Each direction of a connection is one RC QP ({@link IbChannel}): our outgoing QP carries our ring's bytes;
 *   the peer's outgoing QP arrives at our incoming QP. QP numbers, PSNs, LIDs and GIDs are swapped over a TCP
 *   control connection to the node's configured address ({@link IbHandshake}), which this transport listens on.</li>
 *   <li>Sending: the poller thread copies committed ring bytes into the channel's registered staging slots (one copy;
 *   the ring itself is not registered) and posts one signaled SEND_WITH_IMM per slot; a slot is reused when its
 *   completion arrives. Every send's immediate carries {@code takeCredits()} for the reverse direction; credits with
 *   no data to ride on go as a zero-length SEND_WITH_IMM.</li>
 *   <li>Receiving: every receive completion is copied into a pooled {@link IncomingBuffer} and pushed to the incoming
 *   queue in completion order (RC delivers in order per QP, so per-connection stream order holds); its buffer goes
 *   straight back to the SRQ.</li>
 *   <li>Failure: an error completion or a failed post ends the connection's stream with the verbs status text.</li>
 * </ul>
 *
 * <p>Threads: one poller agent ({@link IbPoller}, {@code sirocco-ib-<node>}) owns the CQs, the SRQ and all channel
 * counters; producers only enqueue the connection ({@link #signal}) and, if the poller parks, unpark it. One control
 * thread ({@link IbControlAcceptor}) accepts handshakes. {@link #connect} runs the connector side of a handshake on
 * the caller's thread. {@link IbChannelTable} holds the channels. The verbs sit
 * behind {@link MessagingVerbs}: CI runs this class over an in-memory fake; over real verbs it is hardware-verified
 * only.
 */
public final class IbTransport implements Transport
{
    /** The name users select this transport by ({@code sirocco.transport.name=rdma}). */
    static final String NAME = "rdma";

    private static final Logger LOG = LoggerFactory.getLogger(IbTransport.class);

    private final TransportContext context;
    private final MessagingVerbs verbs;
    private final int srqDepth;
    private final IbChannelTable channels;
    private TransportEnvironment environment;
    private IbPoller poller;
    private IbControlAcceptor acceptor;

    IbTransport(final TransportContext context, final MessagingVerbs verbs, final int srqDepth, final int sendSlots,
        final int maxSendWr)
    {
        this.context = context;
        this.verbs = verbs;
        this.srqDepth = srqDepth;
        this.channels = new IbChannelTable(verbs, sendSlots, maxSendWr);
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public void start(final TransportEnvironment environment)
    {
        this.environment = environment;
        final InetSocketAddress own = context.addressMap().address(environment.ownNodeId());
        if (null == own)
        {
            throw new VerbsException("IB transport of node " + environment.ownNodeId() + ": the node address map has "
                + "no address for this node, needed for the TCP control connection that swaps queue-pair info");
        }
        final int receiveBytes = environment.bufferPool().bufferBytes();
        channels.receiveBytes(receiveBytes);
        // every channel has at most channelSendDepth() sends outstanding, so the send CQ can never overrun
        verbs.open(srqDepth, receiveBytes,
            (int)Math.min(1 << 20, 2L * context.maxConnections() * channels.channelSendDepth()));
        final ServerSocket control;
        try
        {
            control = new ServerSocket();
            control.setReuseAddress(true);
            control.bind(new InetSocketAddress(own.getPort()));
        }
        catch (final IOException ex)
        {
            verbs.close();
            throw new VerbsException("IB transport of node " + environment.ownNodeId()
                + " cannot listen for control connections on port " + own.getPort() + ": " + ex.getMessage(), ex);
        }
        poller = new IbPoller(context, environment, verbs, channels);
        acceptor = new IbControlAcceptor(context, environment, verbs, channels, control);
        poller.start();
        acceptor.start();
        LOG.info("node {}: IB transport on {}, control on port {}", environment.ownNodeId(), verbs.description(),
            control.getLocalPort());
    }

    @Override
    public void connect(final Connection connection, final long timeoutNs) throws NodeUnreachableException
    {
        final int nodeId = connection.nodeId();
        final InetSocketAddress address = context.addressMap().address(nodeId);
        if (null == address)
        {
            throw new NodeUnreachableException(nodeId, "no address for node " + nodeId + " in the node address map");
        }
        final int timeoutMs = (int)Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs));
        IbChannel channel = null;
        try (Socket socket = new Socket())
        {
            channel = channels.newChannel(connection, true);
            socket.connect(address, timeoutMs);
            socket.setSoTimeout(timeoutMs);
            final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            final int psn = ThreadLocalRandom.current().nextInt() & 0xFFFFFF;
            IbHandshake.writeHello(out, environment.ownNodeId(), verbs.endpoint(channel.qp, psn));
            final IbHandshake.Hello reply = IbHandshake.readHello(in);
            if (reply.nodeId() != nodeId)
            {
                throw new IOException("node " + reply.nodeId() + " answered at " + address + ", expected " + nodeId);
            }
            verbs.connect(channel.qp, reply.endpoint(), psn);
            channels.byNode.set(nodeId, connection);
            connection.outgoingAttachment(channel);
            connection.peerDescription("ib " + address);
            IbHandshake.writeReady(out);
        }
        catch (final IOException | VerbsException ex)
        {
            if (null != channel)
            {
                connection.outgoingAttachment(null);
                channels.retire(channel);
            }
            throw new NodeUnreachableException(nodeId, "IB connect to node " + nodeId + " at " + address + " failed: "
                + ex.getMessage());
        }
    }

    @Override
    public void signal(final Connection connection, final int what)
    {
        poller.signal(connection, what);
    }

    @Override
    public void close(final Connection connection)
    {
        if (connection.outgoingAttachment() instanceof IbChannel out)
        {
            connection.outgoingAttachment(null);
            channels.retire(out);
        }
        if (connection.incomingAttachment() instanceof IbChannel in)
        {
            connection.incomingAttachment(null);
            channels.incomingByNode.compareAndSet(connection.nodeId(), in, null);
            channels.retire(in);
        }
        channels.byNode.compareAndSet(connection.nodeId(), connection, null);
    }

    @Override
    public void shutdown()
    {
        if (null != poller)
        {
            poller.requestStop();
        }
        if (null != acceptor)
        {
            acceptor.stop();
        }
        if (null != poller)
        {
            poller.join();
        }
        for (int node = 0; node < IbChannelTable.MAX_NODES; node++)
        {
            final Connection connection = channels.byNode.get(node);
            if (null != connection)
            {
                close(connection);
            }
        }
        channels.destroyRetired();
        verbs.close();
    }
}
