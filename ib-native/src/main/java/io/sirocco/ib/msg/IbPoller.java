package io.sirocco.ib.msg;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.ib.verbs.Verbs;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.agent.Agents;
import io.sirocco.transport.concurrent.MpmcArrayQueue;
import io.sirocco.transport.idle.IdleStrategy;
import io.sirocco.transport.spi.IncomingBuffer;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.orb.OutgoingRingBuffer;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.TransportEnvironment;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.sirocco.transport.spi.Transport.CREDITS;
import static io.sirocco.transport.spi.Transport.DATA;

/**
 * The IB transport's poller agent ({@code sirocco-ib-<node>}): polls the receive and send CQs, copies committed ring
 * bytes into a channel's staging slots and posts them, posts credit-only sends, delivers receive completions to the
 * incoming queue in completion order, and holds the completions of a channel not yet accepted.
 *
 * <p>Runs through {@link Agents#start} with a no-op idle strategy: each duty cycle is one pass of the loop it always
 * was, idling with the transport's idle strategy, so timing is unchanged. Producers only enqueue the connection
 * ({@link #signal}) and, if the poller is about to park ({@code parking}, volatile, published before the queue is
 * re-checked), unpark its thread: no signal is missed.
 *
 * <p>Confined to the poller thread: the CQs, the SRQ, every channel's counters and the held completions.
 */
final class IbPoller implements Agent
{
    private static final Logger LOG = LoggerFactory.getLogger(IbPoller.class);
    private static final long OUT_BIT = 1L << 31;
    private static final long CREDITS_ONLY_BIT = 1L << 30;
    private static final long SLOT_MASK = CREDITS_ONLY_BIT - 1;

    private final TransportContext context;
    private final TransportEnvironment environment;
    private final MessagingVerbs verbs;
    private final IbChannelTable channels;
    private final IdleStrategy idle;
    /** Receive completions that arrived before their channel was accepted, in arrival order (poller only). */
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private final boolean[] nodeHeld = new boolean[IbChannelTable.MAX_NODES];
    private final MpmcArrayQueue<Connection> interest = new MpmcArrayQueue<>(4096);
    private final MessagingVerbs.SendSink sendSink = this::onSendCompletion;
    private final MessagingVerbs.ReceiveSink receiveSink = this::onReceiveCompletion;
    private final RateLimitedWarning receiveFailed = new RateLimitedWarning(LOG);
    private final RateLimitedWarning neverAccepted = new RateLimitedWarning(LOG);
    private AgentRunner runner;
    private volatile Thread thread;
    private volatile boolean parking;
    private volatile boolean running;

    /** A receive completion waiting for its incoming channel to be accepted. */
    private record Held(int index, int byteLength, int immediate, MemorySegment buffers, long offset, long sinceNs)
    {
    }

    IbPoller(final TransportContext context, final TransportEnvironment environment, final MessagingVerbs verbs,
        final IbChannelTable channels)
    {
        this.context = context;
        this.environment = environment;
        this.verbs = verbs;
        this.channels = channels;
        this.idle = context.newIdleStrategy();
    }

    void start()
    {
        running = true;
        runner = Agents.start(this, NoOpIdleStrategy.INSTANCE);
    }

    /** Asks the poller to stop (it stops reposting receive buffers at once) and wakes it. */
    void requestStop()
    {
        running = false;
        final Thread current = thread;
        if (null != current)
        {
            LockSupport.unpark(current);
        }
    }

    /** Waits for the poller's thread to end. */
    void join()
    {
        if (null != runner)
        {
            final Thread current = thread;
            if (null != current)
            {
                LockSupport.unpark(current);
            }
            runner.close();
        }
    }

    @Override
    public String roleName()
    {
        return "ib-" + environment.ownNodeId();
    }

    @Override
    public void onStart()
    {
        thread = Thread.currentThread();
    }

    /** Any thread: queues the connection for the poller (once) and wakes the poller if it parks. */
    void signal(final Connection connection, final int what)
    {
        if (connection.addInterest(what))
        {
            while (!interest.offer(connection))
            {
                Thread.onSpinWait(); // bounded by the poller draining; each connection is queued at most once
            }
            if (parking)
            {
                LockSupport.unpark(thread);
            }
        }
    }

    @Override
    public int doWork()
    {
        if (!running)
        {
            return 0;
        }
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
        return work;
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
        final Connection connection = channels.byNode.get((int)(wrId >>> 32));
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
                receiveFailed.warn("node {}: receive completed with {}", environment.ownNodeId(),
                    verbs.statusString(status));
            }
            repost(index);
            return;
        }
        final int node = ImmediateData.sourceNodeId(immediate);
        if (byteLength > 0 && (nodeHeld[node] || null == channels.incomingByNode.get(node)))
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
            final Connection outgoing = channels.byNode.get(node);
            if (credits > 0 && null != outgoing && !outgoing.isClosed())
            {
                outgoing.flowControl().onCredits(credits);
            }
            if (byteLength > 0)
            {
                final IbChannel channel = channels.incomingByNode.get(node);
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
        Arrays.fill(nodeHeld, false);
        for (int n = held.size(); n > 0; n--)
        {
            final Held h = held.poll();
            final int node = ImmediateData.sourceNodeId(h.immediate());
            if (!nodeHeld[node] && null != channels.incomingByNode.get(node))
            {
                deliver(h.index(), h.byteLength(), h.immediate(), h.buffers(), h.offset());
                released++;
            }
            else if (!nodeHeld[node] && nowNs - h.sinceNs() > abandonNs)
            {
                neverAccepted.warn("node {}: dropping {} bytes from node {}, whose connection was never accepted",
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
}
