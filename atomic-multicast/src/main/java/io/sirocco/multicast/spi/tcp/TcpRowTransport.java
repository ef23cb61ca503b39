package io.sirocco.multicast.spi.tcp;

import java.util.concurrent.locks.LockSupport;
import io.sirocco.multicast.config.MulticastSettings;
import io.sirocco.multicast.spi.RowSuspicionListener;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.sst.SstTable;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.log.RateLimitedWarning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The {@code tcp} row transport: every member holds its own copy of the table; pushes are encoded into one
 * {@link RowFrame} (data bytes copied at push time, counters read with acquire at push time, guards with the caller's
 * snapshot) and sent as one ordered message to each live member. The receiver applies frames in order.
 *
 * <p><b>When a frame is sent.</b> With {@link #COALESCE_PROP} on (the default), {@link #flush()} only marks the end
 * of a trigger's pushes and {@link #endOfPass()} (the predicate thread, after the view's triggers) sends everything
 * one pass pushed as one frame per peer: a pass that receives, delivers (a listener writing an answer) and sends costs
 * one socket write per peer instead of three, and the peer one wake-up instead of three. The effects stay in push
 * order. Within an inline run of several passes ({@link #beginPassRun()} .. {@link #endPassRun()}: the receiving thread
 * that applied a frame, running the receive, the delivery, a listener's answer and the counters of the pass after it)
 * the pushes of every pass go out as one frame at the end of the run: one write per hop, and one wake-up and pass of
 * the peer, where a frame per pass cost two. {@link #close()} sends what is still pending. Flushes send at once until
 * the first {@link #endOfPass()}. Off, every flush sends a frame (as a post does on RDMA).
 *
 * <p><b>A send never waits for one peer.</b> A frame goes to each peer that can take it now
 * ({@code MessagingService.canSendNow}: connection open, flow-control window and ring with room) and into the
 * {@link PeerBacklog} of each other one; a peer with a backlog gets new frames behind it, so per peer the frames keep
 * push order (a counter never before the slot bytes it covers). Every send first drains the backlogs as far as their
 * peers take them, and the predicate thread sends once per pass even when it pushed nothing, so a backlog drains at
 * most one pass (≤ 1 ms when idle: the event-driven park) after its peer has room. A connect runs on a
 * {@link PeerConnector} thread. Before, the pass holder waited in the send for the one peer: a peer that stopped
 * granting credits (a cut link, a stopped process, a reader a window behind) or whose connection was being made
 * stopped the pushes, heartbeats included, to every member, and the healthy members suspected each other
 * ({@code LaggingPeerTest}). The backlog is bounded: SST rows are monotonic and a slot is reused only after every
 * member acknowledged it, so a lagging peer's data backlog is at most a window of slots plus counter updates; past
 * {@link #BACKLOG_PROP} bytes the peer is frozen (no more pushes to it) and failure detection decides.
 *
 * <p><b>Threads.</b> Pushes, flushes and {@link #endOfPass()} come from the one thread running a predicate pass
 * (the predicate thread, or a thread running a pass inline under the pass lock, see {@code PredicateEngine}; the first
 * view's constructor push comes from the joining thread before the predicate thread starts); the pending frame, the
 * backlogs and the counters are confined to it (the pass lock orders one holder after the other). {@link #apply} runs
 * on the endpoint's receiving thread and touches only the other members' rows; it then runs the context's
 * {@code received} hook, which may run a pass (and so push and send) on that same thread; there a send must not wait
 * above all, since only that thread reads the credits that would end the wait.
 */
final class TcpRowTransport implements RowTransport, RowFrameTarget
{
    private static final Logger LOG = LoggerFactory.getLogger(TcpRowTransport.class);
    /** Connect failures are retried every 100 ms: one line a second at most. */
    private final RateLimitedWarning connectFailures = new RateLimitedWarning(LOG);

    /** System property, read when a view's table opens: one frame per peer per predicate pass (default true). */
    static final String COALESCE_PROP = MulticastSettings.TCP_COALESCE;
    /** System property, read when a view's table opens: one frame per inline run of passes (default true). */
    static final String RUN_FRAME_PROP = MulticastSettings.TCP_RUN_FRAME;
    /** System property, read when a view's table opens: bytes of frames kept for one peer that cannot take them. */
    static final String BACKLOG_PROP = MulticastSettings.TCP_PEER_BACKLOG_BYTES;
    /**
     * A backlog frame this large is sent with the waiting send (off the receiving thread): the endpoint's 4 MB ring
     * takes frames up to half its size, so a frame near that may never pass {@code canSendNow}. Pushes this large in
     * one pass are rare (a pass carries a window of slots at most).
     */
    static final int WAITING_SEND_BYTES = 1 << 20;
    /** How long {@link #close()} keeps sending backlogs that peers can take before it drops what is left. */
    private static final long CLOSE_DRAIN_NS = 500_000_000L;

    private final TcpEndpoint endpoint;
    private final long viewId;
    private final int myRank;
    private final int[] nodeIds;
    private final boolean[] frozen;
    /** The ranks this transport pushes to (final after construction: read by the {@link PeerLossReporter}). */
    private final boolean[] served;
    /** Reports a peer that ended its connection (crash detection on a reset); null until a listener registers. */
    private PeerLossReporter lossReporter;
    private final long rowLengthBytes;
    private final MemorySegment table;
    private final long rowBase;
    private final RowFrame message = new RowFrame();
    /** Wraps a backlog's first frame: {@code message} still wraps the pending frame meanwhile. */
    private final RowFrame backlogMessage = new RowFrame();
    /** Per target rank, the frames it could not take yet (null until it first could not); see {@link #send()}. */
    private final PeerBacklog[] backlogs;
    /** Ranks whose backlog is not empty: {@link #send()} drains them even when this pass pushed nothing. */
    private int backlogged;
    /** Bytes a peer's backlog may hold before the peer is frozen ({@link #BACKLOG_PROP}). */
    private final long backlogBound = MulticastSettings.tcpPeerBacklogBytes();
    private final PeerConnector connector;
    private final Runnable doorbell;
    /** Run after a frame was applied (the context's {@code received}: an inline pass, or the doorbell). */
    private final Runnable received;
    private MemorySegment frame;
    private int length;
    private long pushes;
    /** Frames sent per target rank (written under the engine's pass lock): which peers really got data by tcp. */
    private final long[] pushesTo;
    /** Frames kept in a peer's backlog because a send would have waited (statistics). */
    private long deferred;
    private volatile boolean closed;
    private final boolean coalesce = MulticastSettings.tcpCoalesce();
    private final boolean runFrame = coalesce && MulticastSettings.tcpRunFrame();
    /**
     * Pushing thread: {@link #endOfPass()} was called at least once. Until then every flush sends, so a caller that
     * never ends passes (a wrapping transport that does not forward it) keeps the one-frame-per-flush behaviour.
     */
    private boolean passDriven;
    /**
     * Pushing thread (the pass-lock holder): inside an inline run of passes ({@link #beginPassRun()}), whose
     * {@link #endOfPass()}es leave the frame pending for {@link #endPassRun()}: one frame per run, not per pass.
     */
    private boolean inPassRun;

    TcpRowTransport(final TcpEndpoint endpoint, final RowTransportContext context)
    {
        this(endpoint, context, null, null);
    }

    /**
     * @param table   the local table to read this member's row from and apply peers' frames into, or null to
     *                allocate one (a composite transport passes the table it shares with another transport).
     * @param targets ranks this transport pushes to, or null for every other member.
     */
    TcpRowTransport(final TcpEndpoint endpoint, final RowTransportContext context, final MemorySegment table,
        final boolean[] targets)
    {
        this.endpoint = endpoint;
        this.viewId = context.viewId();
        this.myRank = context.myRank();
        this.rowLengthBytes = context.rowLengthBytes();
        this.doorbell = context.doorbell();
        this.received = context.received();
        final int n = context.memberCount();
        this.nodeIds = new int[n];
        this.frozen = new boolean[n];
        this.served = new boolean[n];
        this.pushesTo = new long[n];
        this.backlogs = new PeerBacklog[n];
        for (int r = 0; r < n; r++)
        {
            nodeIds[r] = TcpEndpoint.nodeId(context.members().get(r).memberId());
            // A rank this transport does not serve is frozen from the start: no frames to it.
            frozen[r] = targets != null && !targets[r];
            served[r] = !frozen[r];
        }
        this.table = table != null ? table : SparseTable.allocate(context.groupName(), viewId, n * rowLengthBytes);
        this.rowBase = myRank * rowLengthBytes;
        this.connector = new PeerConnector(endpoint.service, nodeIds, doorbell);
        this.frame = Arena.ofAuto().allocate(64 * 1024, 8);
        startFrame();
    }

    private void startFrame()
    {
        frame.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, viewId);
        frame.set(ValueLayout.JAVA_INT_UNALIGNED, 8, myRank);
        length = 12;
    }

    private void ensure(final long extra)
    {
        if (length + extra > frame.byteSize())
        {
            final MemorySegment bigger = Arena.ofAuto().allocate(Math.max(frame.byteSize() * 2, length + extra), 8);
            MemorySegment.copy(frame, 0, bigger, 0, length);
            frame = bigger;
        }
    }

    private void op(final byte kind, final long rowOffset, final int n)
    {
        frame.set(ValueLayout.JAVA_BYTE, length, kind);
        frame.set(ValueLayout.JAVA_LONG_UNALIGNED, length + 1, rowOffset);
        frame.set(ValueLayout.JAVA_INT_UNALIGNED, length + 9, n);
        length += 13;
    }

    /**
     * The thread applying frames (see {@link TcpEndpoint}): applies {@code lengthBytes} of a frame from the node of
     * the rank it names (any other node's frame is refused), then runs the
     * context's {@code received} (an inline pass of the view's triggers on this thread, or the doorbell).
     */
    @Override
    public void apply(final int sourceNodeId, final MemorySegment bytes, final long lengthBytes)
    {
        // a row is written only by the node of its rank: a frame naming another node's rank is refused
        final int from = lengthBytes >= 12 ? bytes.get(ValueLayout.JAVA_INT_UNALIGNED, 8) : -1;
        if (from >= 0 && from < nodeIds.length && nodeIds[from] != sourceNodeId)
        {
            throw new IllegalArgumentException("row frame for rank " + from + " (node " + nodeIds[from]
                + ") came from node " + sourceNodeId);
        }
        TcpEndpoint.apply(bytes, lengthBytes, table, rowLengthBytes, frozen.length);
        received.run();
    }

    /** Any thread: whether {@link #close()} has not been called. */
    @Override
    public boolean isOpen()
    {
        return !closed;
    }

    @Override
    public MemorySegment table()
    {
        return table;
    }

    @Override
    public boolean sharesRows()
    {
        return false;
    }

    @Override
    public boolean eventDriven()
    {
        // Every frame is applied by the endpoint's receiving thread, which then runs the received hook.
        return true;
    }

    @Override
    public void pushBytes(final long rowOffset, final long lengthBytes)
    {
        ensure(13 + lengthBytes);
        op(RowFrame.BYTES, rowOffset, (int)lengthBytes);
        MemorySegment.copy(table, rowBase + rowOffset, frame, length, lengthBytes);
        length += (int)lengthBytes;
    }

    @Override
    public void pushCounters(final long rowOffset, final int count)
    {
        ensure(13 + 8L * count);
        op(RowFrame.COUNTERS, rowOffset, count);
        for (int i = 0; i < count; i++)
        {
            final long value = SstTable.getAcquireAt(table, rowBase + rowOffset + 8L * i);
            frame.set(ValueLayout.JAVA_LONG_UNALIGNED, length, value);
            length += 8;
        }
    }

    @Override
    public void pushGuard(final long rowOffset, final long value)
    {
        ensure(21);
        op(RowFrame.COUNTERS, rowOffset, 1);
        frame.set(ValueLayout.JAVA_LONG_UNALIGNED, length, value);
        length += 8;
    }

    /** Crash detection on a TCP reset: a peer that ends its row connection is reported at once. */
    @Override
    public void suspicionListener(final RowSuspicionListener listener)
    {
        if (lossReporter != null)
        {
            lossReporter.unregister();
        }
        lossReporter = PeerLossReporter.register(endpoint.service, nodeIds, served, myRank, listener);
    }

    @Override
    public void flush()
    {
        if (!coalesce || !passDriven)
        {
            send();
        }
    }

    @Override
    public void endOfPass()
    {
        passDriven = true;
        if (!inPassRun)
        {
            send();
        }
    }

    @Override
    public void beginPassRun()
    {
        inPassRun = runFrame;
    }

    @Override
    public void endPassRun()
    {
        inPassRun = false;
        if (passDriven)
        {
            send();
        }
    }

    /**
     * Sends the pending frame, if any, to every live peer that can take it now, and keeps it in the peer's backlog
     * for every other one; first sends each backlog as far as its peer can take it. Never waits (on any thread) for
     * one peer's credits, ring space or connection: a lagging or connecting peer must not hold up the pushes, and so
     * the heartbeats, to the others. Per peer the order is push order: while a peer has a backlog, new frames go
     * behind it. Only a backlog frame too large to ever pass {@code canSendNow} ({@link #WAITING_SEND_BYTES}) is
     * sent with the waiting send, and not on the receiving thread.
     */
    private void send()
    {
        final boolean framed = length > 12;
        if (!framed && backlogged == 0)
        {
            return;
        }
        final boolean receivingThread = endpoint.onReceivingThread();
        if (framed)
        {
            message.wrap(frame, 0, length);
        }
        boolean kept = false;
        for (int r = 0; r < nodeIds.length; r++)
        {
            if (r == myRank || frozen[r])
            {
                continue;
            }
            final PeerBacklog b = backlogs[r];
            if (b != null && !b.isEmpty())
            {
                drain(r, b, receivingThread);
            }
            if (!framed || frozen[r])
            {
                continue;
            }
            if ((b == null || b.isEmpty()) && endpoint.service.canSendNow(nodeIds[r], length))
            {
                sendTo(r, message);
            }
            else
            {
                keep(r);
                kept = true;
            }
        }
        if (framed)
        {
            startFrame();
        }
        if (kept && receivingThread)
        {
            // The predicate thread retries at its next pass; ring it so that pass comes soon.
            doorbell.run();
        }
    }

    /** Sends rank {@code r}'s backlog, first frame first, while the peer can take it without a wait. */
    private void drain(final int r, final PeerBacklog b, final boolean receivingThread)
    {
        final String failure = connector.takeFailure(r);
        if (failure != null)
        {
            // Retried at the next request; the failure detector, not one connect, decides whether the peer died.
            connectFailures.warn("view {}: connect to member rank {} (node {}) failed, retrying: {}", viewId, r,
                nodeIds[r], failure);
        }
        while (!b.isEmpty())
        {
            final int n = b.firstLength();
            final boolean fits = endpoint.service.canSendNow(nodeIds[r], n);
            if (!fits && (n < WAITING_SEND_BYTES || receivingThread))
            {
                connector.request(r, System.nanoTime(), false);
                return;
            }
            backlogMessage.wrap(b.buffer(), b.firstOffset(), n);
            if (!sendTo(r, backlogMessage))
            {
                return;
            }
            b.removeFirst();
        }
        backlogged--;
    }

    /** Keeps the pending frame for rank {@code r}, which cannot take it now; freezes the peer past the bound. */
    private void keep(final int r)
    {
        PeerBacklog b = backlogs[r];
        if (b == null)
        {
            b = new PeerBacklog();
            backlogs[r] = b;
        }
        final boolean first = b.isEmpty();
        if (b.bytes() + length > backlogBound)
        {
            LOG.warn("view {}: member rank {} (node {}) took no row frames for {} bytes of pushes (bound {}: {});"
                + " no more pushes to it, failure detection decides", viewId, r, nodeIds[r], b.bytes() + length,
                backlogBound, BACKLOG_PROP);
            freeze(r);
            return;
        }
        b.append(frame, length);
        deferred++;
        if (first)
        {
            backlogged++;
            connector.request(r, System.nanoTime(), true);
        }
    }

    /** Sends one frame to rank {@code r}; false (and the rank frozen) if it is unreachable. */
    private boolean sendTo(final int r, final RowFrame m)
    {
        try
        {
            endpoint.service.send(m, nodeIds[r]);
            pushes++;
            pushesTo[r]++;
            return true;
        }
        catch (final NodeUnreachableException ex)
        {
            freezeUnreachable(r, ex.getMessage());
            return false;
        }
    }

    private void freezeUnreachable(final int r, final String why)
    {
        LOG.warn("view {}: member rank {} (node {}) unreachable, no more pushes to it: {}", viewId, r, nodeIds[r], why);
        freeze(r);
    }

    @Override
    public void freeze(final int rank)
    {
        frozen[rank] = true;
        final PeerBacklog b = backlogs[rank];
        if (b != null && !b.isEmpty())
        {
            b.clear();
            backlogged--;
        }
    }

    @Override
    public long pushCount()
    {
        return pushes;
    }

    @Override
    public long pushCount(final int rank)
    {
        return pushesTo[rank];
    }

    @Override
    public void close()
    {
        closed = true;
        if (lossReporter != null)
        {
            lossReporter.unregister();
        }
        // Pushes of the view's last pass (its final counters) still reach the peers that wait for them: a lagging
        // peer's backlog is sent for a bounded time (off the receiving thread), then dropped.
        try
        {
            send();
            final long deadline = System.nanoTime() + CLOSE_DRAIN_NS;
            while (backlogged > 0 && !endpoint.onReceivingThread() && System.nanoTime() - deadline < 0)
            {
                LockSupport.parkNanos(100_000L);
                send();
            }
            PeerBacklog.warnUntaken(LOG, backlogs, viewId, nodeIds);
        }
        catch (final RuntimeException ex)
        {
            LOG.debug("view {}: last frame not sent at close: {}", viewId, ex.toString());
        }
        endpoint.closed(viewId);
        LOG.debug("view {}: {} pushes, {} frames kept for a peer that could not take them", viewId, pushes, deferred);
        // The table stays mapped until the GC frees its automatic arena: a late frame may still be applied.
    }
}
