package io.sirocco.ib.msg;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.ib.verbs.Verbs;
import io.sirocco.ib.verbs.VerbsException;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.concurrent.MpmcArrayQueue;
import io.sirocco.transport.idle.IdleStrategy;
import io.sirocco.transport.incoming.IncomingBuffer;
import io.sirocco.transport.orb.OutgoingRingBuffer;
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
 * <p>Threads: one poller thread ({@code sirocco-ib-<node>}) owns the CQs, the SRQ and all channel counters;
 * producers only enqueue the connection ({@link #signal}) and, if the poller parks, unpark it. One control thread
 * accepts handshakes. {@link #connect} runs the connector side of a handshake on the caller's thread. The verbs sit
 * behind {@link MessagingVerbs}: CI runs this class over an in-memory fake; over real verbs it is hardware-verified
 * only.
 */
public final class IbTransport implements Transport
{
    private static final Logger LOG = LoggerFactory.getLogger(IbTransport.class);
    private static final int MAX_NODES = 1 << 16;
    private static final long OUT_BIT = 1L << 31;
    private static final long CREDITS_ONLY_BIT = 1L << 30;
    private static final long SLOT_MASK = CREDITS_ONLY_BIT - 1;
    private static final int CREDIT_SEND_ROOM = 16;

    private final TransportContext context;
    private final MessagingVerbs verbs;
    private final int srqDepth;
    private final int sendSlots;
    private final int maxSendWr;
    private final AtomicReferenceArray<Connection> byNode = new AtomicReferenceArray<>(MAX_NODES);
    /** Incoming channels whose connection the core has accepted: data from node n is delivered once this is set. */
    private final AtomicReferenceArray<IbChannel> incomingByNode = new AtomicReferenceArray<>(MAX_NODES);
    /** Receive completions that arrived before their channel was accepted, in arrival order (poller only). */
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private final boolean[] nodeHeld = new boolean[MAX_NODES];
    private final MpmcArrayQueue<Connection> interest = new MpmcArrayQueue<>(4096);
    private final List<IbChannel> retired = new ArrayList<>();
    private final MessagingVerbs.SendSink sendSink = this::onSendCompletion;
    private final MessagingVerbs.ReceiveSink receiveSink = this::onReceiveCompletion;

    /** A receive completion waiting for its incoming channel to be accepted. */
    private record Held(int index, int byteLength, int immediate, MemorySegment buffers, long offset, long sinceNs)
    {
    }

    private TransportEnvironment environment;
    private int receiveBytes;
    private ServerSocket control;
    private Thread poller;
    private Thread acceptor;
    private IdleStrategy idle;
    private volatile boolean parking;
    private volatile boolean running;

    IbTransport(final TransportContext context, final MessagingVerbs verbs, final int srqDepth, final int sendSlots,
        final int maxSendWr)
    {
        this.context = context;
        this.verbs = verbs;
        this.srqDepth = srqDepth;
        this.sendSlots = sendSlots;
        this.maxSendWr = maxSendWr;
    }

    @Override
    public String name()
    {
        return IbTransportProvider.NAME;
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
        receiveBytes = environment.bufferPool().bufferBytes();
        // every channel has at most channelSendDepth() sends outstanding, so the send CQ can never overrun
        verbs.open(srqDepth, receiveBytes,
            (int)Math.min(1 << 20, 2L * context.maxConnections() * channelSendDepth()));
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
        idle = context.newIdleStrategy();
        running = true;
        poller = Thread.ofPlatform().name("sirocco-ib-" + environment.ownNodeId()).daemon(true).start(this::pollLoop);
        acceptor = Thread.ofPlatform().name("sirocco-ib-control-" + environment.ownNodeId()).daemon(true)
            .start(this::acceptLoop);
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
            channel = newChannel(connection, true);
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
            byNode.set(nodeId, connection);
            connection.outgoingAttachment(channel);
            connection.peerDescription("ib " + address);
            IbHandshake.writeReady(out);
        }
        catch (final IOException | VerbsException ex)
        {
            if (null != channel)
            {
                connection.outgoingAttachment(null);
                retire(channel);
            }
            throw new NodeUnreachableException(nodeId, "IB connect to node " + nodeId + " at " + address + " failed: "
                + ex.getMessage());
        }
    }

    @Override
    public void signal(final Connection connection, final int what)
    {
        if (connection.addInterest(what))
        {
            while (!interest.offer(connection))
            {
                Thread.onSpinWait(); // bounded by the poller draining; each connection is queued at most once
            }
            if (parking)
            {
                LockSupport.unpark(poller);
            }
        }
    }

    @Override
    public void close(final Connection connection)
    {
        if (connection.outgoingAttachment() instanceof IbChannel out)
        {
            connection.outgoingAttachment(null);
            retire(out);
        }
        if (connection.incomingAttachment() instanceof IbChannel in)
        {
            connection.incomingAttachment(null);
            incomingByNode.compareAndSet(connection.nodeId(), in, null);
            retire(in);
        }
        byNode.compareAndSet(connection.nodeId(), connection, null);
    }

    @Override
    public void shutdown()
    {
        running = false;
        try
        {
            if (null != control)
            {
                control.close();
            }
        }
        catch (final IOException ex)
        {
            LOG.debug("closing IB control socket", ex);
        }
        joinQuietly(acceptor);
        if (null != poller)
        {
            LockSupport.unpark(poller);
            joinQuietly(poller);
        }
        for (int node = 0; node < MAX_NODES; node++)
        {
            final Connection connection = byNode.get(node);
            if (null != connection)
            {
                close(connection);
            }
        }
        synchronized (retired)
        {
            retired.forEach(channel -> verbs.destroy(channel.qp));
            retired.clear();
        }
        verbs.close();
    }

    // ------------------------------------------------------------------ control thread

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
                    LOG.warn("node {}: IB control handshake failed: {}", environment.ownNodeId(), ex.getMessage());
                }
            }
        }
    }

    /**
     * The acceptor side of a handshake. It answers before it asks the core for the connection: the core holds its
     * per-node lock while this node's own {@link #connect} to the same peer waits for that peer's answer, so asking
     * first would deadlock two nodes connecting to each other at once. Data that arrives before the core accepted is
     * held by the poller (its receive buffers stay out of the SRQ) and delivered in order once the channel is
     * published through {@code incomingByNode}.
     */
    private void accept(final Socket socket) throws IOException
    {
        final DataInputStream in = new DataInputStream(socket.getInputStream());
        final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        final IbHandshake.Hello hello = IbHandshake.readHello(in);
        final IbChannel channel = newChannel(null, false);
        try
        {
            final int psn = ThreadLocalRandom.current().nextInt() & 0xFFFFFF;
            verbs.connect(channel.qp, hello.endpoint(), psn);
            IbHandshake.writeHello(out, environment.ownNodeId(), verbs.endpoint(channel.qp, psn));
            IbHandshake.readReady(in);
        }
        catch (final IOException | VerbsException ex)
        {
            retire(channel);
            throw ex;
        }
        final Connection connection = environment.acceptIncoming(hello.nodeId());
        channel.connection = connection;
        connection.incomingAttachment(channel);
        connection.peerDescription("ib " + socket.getRemoteSocketAddress());
        byNode.set(hello.nodeId(), connection);
        incomingByNode.set(hello.nodeId(), channel); // publishes the channel: held data may now be delivered
    }

    // ------------------------------------------------------------------ poller thread

    private void pollLoop()
    {
        while (running)
        {
            int work = verbs.pollReceive(receiveSink) + verbs.pollSend(sendSink);
            if (!held.isEmpty())
            {
                work += releaseHeld();
            }
            Connection connection;
            while (null != (connection = interest.poll()))
            {
                work++;
                service(connection);
            }
            if (work > 0)
            {
                idle.reset();
            }
            else
            {
                parking = idle.parking();
                if (!parking || interest.isEmpty()) // re-check after publishing parking: no signal is missed
                {
                    idle.idle();
                }
                parking = false;
            }
        }
    }

    private void service(final Connection connection)
    {
        final int bits = connection.takeInterest();
        if (connection.isClosed())
        {
            return;
        }
        if ((bits & DATA) != 0 && connection.outgoingAttachment() instanceof IbChannel out && !out.failed)
        {
            drain(out);
        }
        if ((bits & CREDITS) != 0 || connection.flowControl().creditsPending())
        {
            sendCredits(connection);
        }
    }

    private void drain(final IbChannel channel)
    {
        final Connection connection = channel.connection;
        final OutgoingRingBuffer ring = connection.outgoingRingBuffer();
        if (!ring.tryLockConsumer())
        {
            signal(connection, DATA); // a direct writer holds it; look again later
            return;
        }
        try
        {
            while (ring.readableBytes() > 0 && channel.hasFreeSlot())
            {
                final long offset = (channel.slotsPosted % channel.slots) * channel.slotBytes;
                final int bytes = ring.copyTo(channel.qp.staging(), offset, channel.slotBytes);
                ring.consumed(bytes);
                final int credits = connection.flowControl().takeCredits();
                final long wrId = ((long)connection.nodeId() << 32) | OUT_BIT | (channel.slotsPosted & SLOT_MASK);
                final int rc = verbs.postSend(channel.qp, wrId, offset, bytes,
                    ImmediateData.encode(environment.ownNodeId(), credits, 0));
                if (0 != rc)
                {
                    fail(channel, "posting a send of " + bytes + " bytes failed: errno " + rc);
                    return;
                }
                channel.slotsPosted++;
                channel.sendQueueOutstanding++;
            }
        }
        finally
        {
            ring.unlockConsumer();
        }
    }

    private void sendCredits(final Connection connection)
    {
        IbChannel channel = connection.outgoingAttachment() instanceof IbChannel out && !out.failed ? out : null;
        if (null == channel || !channel.hasSendQueueRoom())
        {
            channel = connection.incomingAttachment() instanceof IbChannel in && !in.failed ? in : null;
        }
        if (null == channel || !channel.hasSendQueueRoom())
        {
            return; // no channel yet, or both send queues full: credits stay pending and ride on the next send
        }
        final int credits = connection.flowControl().takeCredits();
        if (credits == 0)
        {
            return;
        }
        final long wrId = ((long)connection.nodeId() << 32) | (channel.outgoing ? OUT_BIT : 0) | CREDITS_ONLY_BIT;
        final int rc = verbs.postSend(channel.qp, wrId, 0, 0,
            ImmediateData.encode(environment.ownNodeId(), credits, ImmediateData.FLAG_CREDITS_ONLY));
        if (0 != rc)
        {
            fail(channel, "posting " + credits + " credits failed: errno " + rc);
            return;
        }
        channel.sendQueueOutstanding++;
    }

    private void onSendCompletion(final long wrId, final int status, final int qpNum)
    {
        final Connection connection = byNode.get((int)(wrId >>> 32));
        if (null == connection)
        {
            return;
        }
        final boolean outgoing = (wrId & OUT_BIT) != 0;
        final Object attachment = outgoing ? connection.outgoingAttachment() : connection.incomingAttachment();
        if (!(attachment instanceof IbChannel channel) || channel.qp.qpNum() != qpNum)
        {
            return; // a completion of a retired queue pair
        }
        channel.sendQueueOutstanding--;
        if (Verbs.WC_SUCCESS != status)
        {
            fail(channel, "send completed with " + verbs.statusString(status));
            return;
        }
        if ((wrId & CREDITS_ONLY_BIT) == 0)
        {
            channel.slotsCompleted++; // sends complete in posting order on one QP: the oldest slot is free again
        }
        if (channel.outgoing && connection.outgoingRingBuffer().readableBytes() > 0)
        {
            signal(connection, DATA);
        }
        if (connection.flowControl().creditsPending())
        {
            signal(connection, CREDITS);
        }
    }

    private void onReceiveCompletion(
        final int index, final int status, final int byteLength, final int immediate, final MemorySegment buffers,
        final long offset)
    {
        if (Verbs.WC_SUCCESS != status)
        {
            if (Verbs.WC_WR_FLUSH_ERR != status)
            {
                LOG.warn("node {}: receive completed with {}", environment.ownNodeId(), verbs.statusString(status));
            }
            repost(index);
            return;
        }
        final int node = ImmediateData.sourceNodeId(immediate);
        if (byteLength > 0 && (nodeHeld[node] || null == incomingByNode.get(node)))
        {
            nodeHeld[node] = true; // keep the node's order: everything after a held message is held too
            held.add(new Held(index, byteLength, immediate, buffers, offset, System.nanoTime()));
            return;
        }
        deliver(index, byteLength, immediate, buffers, offset);
    }

    private void deliver(
        final int index, final int byteLength, final int immediate, final MemorySegment buffers, final long offset)
    {
        try
        {
            final int node = ImmediateData.sourceNodeId(immediate);
            final int credits = ImmediateData.credits(immediate);
            final Connection outgoing = byNode.get(node);
            if (credits > 0 && null != outgoing && !outgoing.isClosed())
            {
                outgoing.flowControl().onCredits(credits);
            }
            if (byteLength > 0)
            {
                final IbChannel channel = incomingByNode.get(node);
                final Connection connection = null == channel ? null : channel.connection;
                if (null == connection || connection.isClosed())
                {
                    return; // from a node we no longer talk to
                }
                final IncomingBuffer incoming = environment.bufferPool().acquire();
                MemorySegment.copy(buffers, offset, incoming.segment(), 0, byteLength);
                environment.pushIncoming(incoming.connection(connection).length(byteLength));
            }
        }
        finally
        {
            repost(index);
        }
    }

    /** Delivers held completions whose channel is now accepted, in order; drops those of handshakes that died. */
    private int releaseHeld()
    {
        int released = 0;
        final long nowNs = System.nanoTime();
        final long abandonNs = TimeUnit.MILLISECONDS.toNanos(Math.max(10_000, 10 * context.connectTimeoutMs()));
        java.util.Arrays.fill(nodeHeld, false);
        for (int n = held.size(); n > 0; n--)
        {
            final Held h = held.poll();
            final int node = ImmediateData.sourceNodeId(h.immediate());
            if (!nodeHeld[node] && null != incomingByNode.get(node))
            {
                deliver(h.index(), h.byteLength(), h.immediate(), h.buffers(), h.offset());
                released++;
            }
            else if (!nodeHeld[node] && nowNs - h.sinceNs() > abandonNs)
            {
                LOG.warn("node {}: dropping {} bytes from node {}, whose connection was never accepted",
                    environment.ownNodeId(), h.byteLength(), node);
                repost(h.index());
                released++;
            }
            else
            {
                nodeHeld[node] = true;
                held.add(h);
            }
        }
        return released;
    }

    private void repost(final int index)
    {
        if (running)
        {
            verbs.repost(index);
        }
    }

    // ------------------------------------------------------------------ helpers

    private IbChannel newChannel(final Connection connection, final boolean outgoing)
    {
        final MessagingVerbs.Qp qp = verbs.createQp(outgoing ? sendSlots * receiveBytes : 0);
        return new IbChannel(connection, qp, outgoing, receiveBytes, sendSlots, channelSendDepth());
    }

    /** Sends a channel may have outstanding: its data slots plus room for credit-only messages. */
    private int channelSendDepth()
    {
        return Math.min(maxSendWr, sendSlots + CREDIT_SEND_ROOM);
    }

    private void fail(final IbChannel channel, final String reason)
    {
        if (!channel.failed)
        {
            channel.failed = true;
            verbs.toError(channel.qp);
            environment.endOfStream(channel.connection, "IB " + (channel.outgoing ? "outgoing" : "incoming")
                + " channel to node " + channel.connection.nodeId() + ": " + reason);
        }
    }

    /** Moves the QP to error now; it is destroyed at shutdown, when no completion can still name it. */
    private void retire(final IbChannel channel)
    {
        verbs.toError(channel.qp);
        synchronized (retired)
        {
            if (!retired.contains(channel))
            {
                retired.add(channel);
            }
        }
    }

    private static void joinQuietly(final Thread thread)
    {
        if (null == thread)
        {
            return;
        }
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
