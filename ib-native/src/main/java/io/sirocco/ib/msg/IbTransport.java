package io.sirocco.ib.msg;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.ib.verbs.CompletionQueue;
import io.sirocco.ib.verbs.Libibverbs;
import io.sirocco.ib.verbs.MemoryRegion;
import io.sirocco.ib.verbs.QpConfig;
import io.sirocco.ib.verbs.QpEndpoint;
import io.sirocco.ib.verbs.QueuePair;
import io.sirocco.ib.verbs.RdmaDevice;
import io.sirocco.ib.verbs.SharedReceiveQueue;
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
 * accepts handshakes. {@link #connect} runs the connector side of a handshake on the caller's thread.
 * Hardware-verified only: CI has no RDMA device.
 */
public final class IbTransport implements Transport
{
    private static final Logger LOG = LoggerFactory.getLogger(IbTransport.class);
    private static final int MAX_NODES = 1 << 16;
    private static final long OUT_BIT = 1L << 31;
    private static final long CREDITS_ONLY_BIT = 1L << 30;
    private static final long SLOT_MASK = CREDITS_ONLY_BIT - 1;

    private final TransportContext context;
    private final QpConfig qpConfig;
    private final int srqDepth;
    private final int sendSlots;
    private final AtomicReferenceArray<Connection> byNode = new AtomicReferenceArray<>(MAX_NODES);
    private final MpmcArrayQueue<Connection> interest = new MpmcArrayQueue<>(4096);
    private final List<IbChannel> retired = new ArrayList<>();
    private final CompletionQueue.CompletionHandler sendHandler = this::onSendCompletion;
    private final CompletionQueue.CompletionHandler recvHandler = this::onRecvCompletion;

    private TransportEnvironment environment;
    private RdmaDevice device;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private SharedReceiveQueue srq;
    private MemoryRegion receiveBuffers;
    private int receiveBytes;
    private int mtu;
    private int lid;
    private byte[] gid;
    private ServerSocket control;
    private Thread poller;
    private Thread acceptor;
    private IdleStrategy idle;
    private volatile boolean running;

    IbTransport(final TransportContext context, final QpConfig qpConfig, final int srqDepth, final int sendSlots)
    {
        this.context = context;
        this.qpConfig = qpConfig;
        this.srqDepth = srqDepth;
        this.sendSlots = sendSlots;
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
        final Libibverbs verbs = Libibverbs.load();
        final String deviceName = System.getProperty("sirocco.rdma.device", "");
        device = RdmaDevice.open(verbs, deviceName.isEmpty() ? verbs.deviceList().get(0).name() : deviceName);
        final var port = device.queryPort(qpConfig.portNum());
        lid = port.lid();
        mtu = Math.min(qpConfig.mtu(), port.activeMtu());
        gid = device.gid(qpConfig.portNum(), qpConfig.gidIndex());
        receiveBytes = environment.bufferPool().bufferBytes();
        // every channel has at most channelSendDepth() sends outstanding, so the send CQ can never overrun
        sendCq = new CompletionQueue(device,
            (int)Math.min(1 << 20, 2L * context.maxConnections() * channelSendDepth()), 64);
        recvCq = new CompletionQueue(device, 2 * srqDepth, 64);
        srq = new SharedReceiveQueue(device, srqDepth);
        receiveBuffers = MemoryRegion.allocate(device, (long)srqDepth * receiveBytes, Verbs.ACCESS_LOCAL_WRITE);
        for (int i = 0; i < srqDepth; i++)
        {
            postReceive(i);
        }
        final InetSocketAddress own = context.addressMap().address(environment.ownNodeId());
        if (null == own)
        {
            throw new VerbsException("IB transport of node " + environment.ownNodeId() + ": the node address map has "
                + "no address for this node, needed for the TCP control connection that swaps queue-pair info");
        }
        try
        {
            control = new ServerSocket();
            control.setReuseAddress(true);
            control.bind(new InetSocketAddress(own.getPort()));
        }
        catch (final IOException ex)
        {
            throw new VerbsException("IB transport of node " + environment.ownNodeId()
                + " cannot listen for control connections on port " + own.getPort() + ": " + ex.getMessage(), ex);
        }
        idle = context.newIdleStrategy();
        running = true;
        poller = Thread.ofPlatform().name("sirocco-ib-" + environment.ownNodeId()).daemon(true).start(this::pollLoop);
        acceptor = Thread.ofPlatform().name("sirocco-ib-control-" + environment.ownNodeId()).daemon(true)
            .start(this::acceptLoop);
        LOG.info("node {}: IB transport on {} port {} (LID {}, MTU {}), control on port {}",
            environment.ownNodeId(), device.name(), qpConfig.portNum(), lid, Verbs.mtuBytes(mtu), own.getPort());
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
            IbHandshake.writeHello(out, environment.ownNodeId(), endpoint(channel, psn));
            final IbHandshake.Hello reply = IbHandshake.readHello(in);
            if (reply.nodeId() != nodeId)
            {
                throw new IOException("node " + reply.nodeId() + " answered at " + address + ", expected " + nodeId);
            }
            channel.queuePair.toRtr(reply.endpoint(), mtu);
            channel.queuePair.toRts(psn);
            byNode.set(nodeId, connection);
            connection.outgoingAttachment(channel);
            connection.peerDescription("ib " + address);
            IbHandshake.writeReady(out);
        }
        catch (final IOException | VerbsException ex)
        {
            if (null != channel)
            {
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
                Thread.onSpinWait(); // bounded by the poller draining; the queue holds one entry per connection
            }
            if (idle != null && idle.parking())
            {
                LockSupport.unpark(poller);
            }
        }
    }

    @Override
    public void close(final Connection connection)
    {
        // the poller owns the channels; it retires them when it next sees the closed connection or at shutdown
        if (connection.outgoingAttachment() instanceof IbChannel out)
        {
            connection.outgoingAttachment(null);
            quietlyToError(out);
        }
        if (connection.incomingAttachment() instanceof IbChannel in)
        {
            connection.incomingAttachment(null);
            quietlyToError(in);
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
            retired.forEach(c -> quietly(c.queuePair::close));
            retired.forEach(c -> quietly(() -> { if (null != c.staging) c.staging.close(); }));
            retired.clear();
        }
        quietly(() -> { if (null != srq) srq.close(); });
        quietly(() -> { if (null != sendCq) sendCq.close(); });
        quietly(() -> { if (null != recvCq) recvCq.close(); });
        quietly(() -> { if (null != receiveBuffers) receiveBuffers.close(); });
        quietly(() -> { if (null != device) device.close(); });
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

    private void accept(final Socket socket) throws IOException
    {
        final DataInputStream in = new DataInputStream(socket.getInputStream());
        final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        final IbHandshake.Hello hello = IbHandshake.readHello(in);
        final Connection connection = environment.acceptIncoming(hello.nodeId());
        final IbChannel channel = newChannel(connection, false);
        try
        {
            final int psn = ThreadLocalRandom.current().nextInt() & 0xFFFFFF;
            channel.queuePair.toRtr(hello.endpoint(), mtu);
            channel.queuePair.toRts(psn);
            // registered before we answer: the peer's first message may arrive as soon as it reads our hello
            byNode.set(hello.nodeId(), connection);
            connection.incomingAttachment(channel);
            connection.peerDescription("ib " + socket.getRemoteSocketAddress());
            IbHandshake.writeHello(out, environment.ownNodeId(), endpoint(channel, psn));
            IbHandshake.readReady(in);
        }
        catch (final IOException | VerbsException ex)
        {
            connection.incomingAttachment(null);
            retire(channel);
            environment.endOfStream(connection, "IB handshake with node " + hello.nodeId() + " failed: "
                + ex.getMessage());
            throw ex;
        }
    }

    // ------------------------------------------------------------------ poller thread

    private void pollLoop()
    {
        while (running)
        {
            int work = recvCq.poll(recvHandler) + sendCq.poll(sendHandler);
            Connection connection;
            while (null != (connection = interest.poll()))
            {
                work++;
                service(connection);
            }
            idle.idle(work);
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
                final int slot = (int)(channel.slotsPosted % channel.slots);
                final long offset = (long)slot * channel.slotBytes;
                final int bytes = ring.copyTo(channel.staging.segment(), offset, channel.slotBytes);
                ring.consumed(bytes);
                final int credits = connection.flowControl().takeCredits();
                final long wrId = ((long)connection.nodeId() << 32) | OUT_BIT | (channel.slotsPosted & SLOT_MASK);
                final int rc = channel.queuePair.postSend(wrId, channel.staging.address() + offset, bytes,
                    channel.staging.lkey(), true, ImmediateData.encode(environment.ownNodeId(), credits, 0),
                    Verbs.SEND_SIGNALED);
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
        final int rc = channel.queuePair.postSend(wrId, 0, 0, 0, true,
            ImmediateData.encode(environment.ownNodeId(), credits, ImmediateData.FLAG_CREDITS_ONLY),
            Verbs.SEND_SIGNALED);
        if (0 != rc)
        {
            fail(channel, "posting " + credits + " credits failed: errno " + rc);
            return;
        }
        channel.sendQueueOutstanding++;
    }

    private void onSendCompletion(
        final long wrId, final int status, final int opcode, final int byteLen, final int immData, final int qpNum,
        final int wcFlags)
    {
        final Connection connection = byNode.get((int)(wrId >>> 32));
        if (null == connection)
        {
            return;
        }
        final boolean outgoing = (wrId & OUT_BIT) != 0;
        final Object attachment = outgoing ? connection.outgoingAttachment() : connection.incomingAttachment();
        if (!(attachment instanceof IbChannel channel) || channel.queuePair.qpNum() != qpNum)
        {
            return; // a completion of a retired queue pair
        }
        channel.sendQueueOutstanding--;
        if (Verbs.WC_SUCCESS != status)
        {
            fail(channel, "send completed with " + device.verbs().wcStatusString(status));
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
    }

    private void onRecvCompletion(
        final long wrId, final int status, final int opcode, final int byteLen, final int immData, final int qpNum,
        final int wcFlags)
    {
        final int buffer = (int)wrId;
        try
        {
            if (Verbs.WC_SUCCESS != status)
            {
                if (Verbs.WC_WR_FLUSH_ERR != status)
                {
                    LOG.warn("node {}: receive completed with {}", environment.ownNodeId(),
                        device.verbs().wcStatusString(status));
                }
                return;
            }
            final Connection connection = byNode.get(ImmediateData.sourceNodeId(immData));
            if (null == connection || connection.isClosed())
            {
                return; // from a node we no longer talk to
            }
            final int credits = ImmediateData.credits(immData);
            if (credits > 0)
            {
                connection.flowControl().onCredits(credits);
            }
            if (byteLen > 0)
            {
                final IncomingBuffer incoming = environment.bufferPool().acquire();
                MemorySegment.copy(receiveBuffers.segment(), (long)buffer * receiveBytes, incoming.segment(), 0,
                    byteLen);
                environment.pushIncoming(incoming.connection(connection).length(byteLen));
            }
        }
        finally
        {
            postReceive(buffer);
        }
    }

    // ------------------------------------------------------------------ helpers

    private IbChannel newChannel(final Connection connection, final boolean outgoing)
    {
        final QueuePair qp = new QueuePair(device, qpConfig, sendCq, recvCq, srq);
        MemoryRegion staging = null;
        try
        {
            qp.toInit(Verbs.ACCESS_LOCAL_WRITE);
            if (outgoing)
            {
                staging = MemoryRegion.allocate(device, (long)sendSlots * receiveBytes, Verbs.ACCESS_LOCAL_WRITE);
            }
            return new IbChannel(connection, qp, outgoing, staging, receiveBytes, sendSlots, channelSendDepth());
        }
        catch (final VerbsException ex)
        {
            qp.close();
            throw ex;
        }
    }

    /** Sends a channel may have outstanding: its data slots plus room for credit-only messages. */
    private int channelSendDepth()
    {
        return Math.min(qpConfig.maxSendWr(), sendSlots + 16);
    }

    private QpEndpoint endpoint(final IbChannel channel, final int psn)
    {
        return new QpEndpoint(lid, channel.queuePair.qpNum(), psn, gid);
    }

    private void postReceive(final int buffer)
    {
        final int rc = srq.postRecv(buffer, receiveBuffers.address() + (long)buffer * receiveBytes, receiveBytes,
            receiveBuffers.lkey());
        if (0 != rc && running)
        {
            LOG.error("node {}: re-posting receive buffer {} failed: errno {}", environment.ownNodeId(), buffer, rc);
        }
    }

    private void fail(final IbChannel channel, final String reason)
    {
        if (!channel.failed)
        {
            channel.failed = true;
            quietlyToError(channel);
            environment.endOfStream(channel.connection, "IB " + (channel.outgoing ? "outgoing" : "incoming")
                + " channel to node " + channel.connection.nodeId() + ": " + reason);
        }
    }

    private void retire(final IbChannel channel)
    {
        quietlyToError(channel);
    }

    private void quietlyToError(final IbChannel channel)
    {
        quietly(channel.queuePair::toError);
        synchronized (retired)
        {
            if (!retired.contains(channel))
            {
                retired.add(channel);
            }
        }
    }

    private static void quietly(final Runnable action)
    {
        try
        {
            action.run();
        }
        catch (final VerbsException ex)
        {
            LOG.debug("IB teardown step failed: {}", ex.getMessage());
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
