package io.sirocco.multicast.spi.tcp;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.sst.SstTable;
import io.sirocco.transport.NodeUnreachableException;
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
 * the peer, where a frame per pass cost two. {@link #close()} sends what is still pending. Flushes send at once until the first {@link #endOfPass()}. Off, every flush sends a frame (as a post does on RDMA).
 *
 * <p><b>Threads.</b> Pushes, flushes and {@link #endOfPass()} come from the one thread running a predicate pass
 * (the predicate thread, or a thread running a pass inline under the pass lock, see {@code PredicateEngine}; the first
 * view's constructor push comes from the joining thread before the predicate thread starts). {@link #apply} runs on
 * the endpoint's receiving thread and touches only the other members' rows; it then runs the context's
 * {@code received} hook, which may run a pass (and so push and send) on that same thread.
 */
final class TcpRowTransport implements RowTransport
{
    private static final Logger LOG = LoggerFactory.getLogger(TcpRowTransport.class);

    /** System property, read when a view's table opens: one frame per peer per predicate pass (default true). */
    static final String COALESCE_PROP = "sirocco.mcast.tcp.coalesce";
    /** System property, read when a view's table opens: one frame per inline run of passes (default true). */
    static final String RUN_FRAME_PROP = "sirocco.mcast.tcp.runFrame";

    private final TcpEndpoint endpoint;
    private final long viewId;
    private final int myRank;
    private final int[] nodeIds;
    private final boolean[] frozen;
    private final long rowLengthBytes;
    private final MemorySegment table;
    private final long rowBase;
    private final RowFrame message = new RowFrame();
    private final Runnable doorbell;
    /** Run after a frame was applied (the context's {@code received}: an inline pass, or the doorbell). */
    private final Runnable received;
    private MemorySegment frame;
    private int length;
    private long pushes;
    /** Frames sent per target rank (written under the engine's pass lock): which peers really got data by tcp. */
    private final long[] pushesTo;
    /** Frames the receiving thread left to the predicate thread because a send would have waited (statistics). */
    private long deferred;
    private volatile boolean closed;
    private final boolean coalesce = Boolean.parseBoolean(System.getProperty(COALESCE_PROP, "true"));
    private final boolean runFrame = coalesce && Boolean.parseBoolean(System.getProperty(RUN_FRAME_PROP, "true"));
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
        this.pushesTo = new long[n];
        for (int r = 0; r < n; r++)
        {
            nodeIds[r] = TcpEndpoint.nodeId(context.members().get(r).memberId());
            // A rank this transport does not serve is frozen from the start: no frames to it.
            frozen[r] = targets != null && !targets[r];
        }
        this.table = table != null ? table : SparseTable.allocate(context.groupName(), viewId, n * rowLengthBytes);
        this.rowBase = myRank * rowLengthBytes;
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
     * The thread applying frames (see {@link TcpEndpoint}): applies {@code lengthBytes} of a frame, then runs the
     * context's {@code received} (an inline pass of the view's triggers on this thread, or the doorbell).
     */
    void apply(final MemorySegment bytes, final long lengthBytes)
    {
        TcpEndpoint.apply(bytes, lengthBytes, table, rowLengthBytes, frozen.length);
        received.run();
    }

    /** Any thread: whether {@link #close()} has not been called. */
    boolean isOpen()
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
     * Sends the pending frame, if any, to every live peer. On the endpoint's receiving thread (an inline pass) a send
     * that would wait (flow-control window or ring full, no connection yet) is deferred instead: only that thread reads
     * the credits that would end the wait. The frame stays pending and the doorbell makes the predicate thread send
     * it at the end of its next pass (where waiting is allowed); later pushes append to it, in order.
     */
    private void send()
    {
        if (length == 12)
        {
            return;
        }
        if (endpoint.onReceivingThread() && !readyToSend())
        {
            deferred++;
            doorbell.run();
            return;
        }
        message.wrap(frame, length);
        for (int r = 0; r < nodeIds.length; r++)
        {
            if (r == myRank || frozen[r])
            {
                continue;
            }
            try
            {
                endpoint.service.send(message, nodeIds[r]);
                pushes++;
                pushesTo[r]++;
            }
            catch (final NodeUnreachableException ex)
            {
                LOG.warn("view {}: member rank {} (node {}) unreachable, no more pushes to it: {}", viewId, r,
                    nodeIds[r], ex.getMessage());
                frozen[r] = true;
            }
        }
        startFrame();
    }

    /** Whether every live peer can take the pending frame now, without a wait or a connect. */
    private boolean readyToSend()
    {
        for (int r = 0; r < nodeIds.length; r++)
        {
            if (r != myRank && !frozen[r] && !endpoint.service.canSendNow(nodeIds[r], length))
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public void freeze(final int rank)
    {
        frozen[rank] = true;
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
        // Pushes of the view's last pass (its final counters) still reach the peers that wait for them.
        try
        {
            send();
        }
        catch (final RuntimeException ex)
        {
            LOG.debug("view {}: last frame not sent at close: {}", viewId, ex.toString());
        }
        endpoint.closed(viewId);
        LOG.debug("view {}: {} pushes, {} frames deferred from the receiving thread", viewId, pushes, deferred);
        // The table stays mapped until the GC frees its automatic arena: a late frame may still be applied.
    }
}
