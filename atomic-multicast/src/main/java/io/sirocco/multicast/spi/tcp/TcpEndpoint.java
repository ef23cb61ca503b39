package io.sirocco.multicast.spi.tcp;

import java.lang.foreign.ValueLayout;
import io.sirocco.multicast.config.MulticastSettings;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.sst.SstTable;
import io.sirocco.transport.Importer;
import io.sirocco.transport.InboundFrame;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One member's messaging endpoint for a group, shared by the tables of its successive views: binds the member's
 * {@code host:port}, receives row frames and applies them to the table of their view. Frames for a view this member
 * has not opened yet are kept and applied when it opens (so no push is lost); frames for closed views are dropped.
 *
 * <p><b>Threads.</b> With {@link #INLINE_RECEIVE_PROP} on (the default) the messaging transport runs its coordinator
 * and the frame handler on the thread that read the bytes (the NIO selector), so a frame is applied and the predicate
 * thread's doorbell rung without a hand-off to a coordinator and a handler thread (each of which parks when idle:
 * ~50 µs of timer slack per wake-up on a loaded machine). Off, one handler thread applies frames (the earlier
 * behaviour). Either way frames are applied by one thread at a time, in arrival order: the inline coordinator is a
 * try-lock whose holder drains the queue, and ordered messages of one node go to one handler.
 *
 * <p>{@link #onFrame} reads a frame into {@code scratch}, a buffer confined to the thread applying frames (one at a
 * time, the hand-over ordered by the coordinator's lock or queue); only a frame for a view not open yet is copied to
 * the heap.
 */
final class TcpEndpoint
{
    private static final Logger LOG = LoggerFactory.getLogger(TcpEndpoint.class);

    /** System property: apply row frames on the transport's receiving thread (default true). */
    static final String INLINE_RECEIVE_PROP = MulticastSettings.TCP_INLINE_RECEIVE;

    final MessagingService service;
    private final Map<Long, RowFrameTarget> open = new ConcurrentHashMap<>();
    private final Map<Long, List<EarlyFrame>> pending = new ConcurrentHashMap<>();
    /**
     * Bytes kept in {@code pending} (guarded by this object's monitor, like the keeping). A peer can send frames for
     * any view id it likes, so what is kept for views not open yet is bounded ({@link #PENDING_BOUND_BYTES}); past it
     * a frame is dropped, counted and logged at a bounded rate. Legitimate early frames are a view change's first
     * pushes, far below the bound.
     */
    private long pendingBytes;
    private long pendingDropped;
    /** Frames a view's transport refused (malformed, or a rank that is not the sending node's); receiving thread. */
    private final AtomicLong refusedFrames = new AtomicLong();

    /** A frame for a view not open yet, with the node it came from (checked when the view opens). */
    private record EarlyFrame(int sourceNodeId, byte[] bytes)
    {
    }
    /** The most bytes of frames kept for views not open yet (see {@code pendingBytes}). */
    static final long PENDING_BOUND_BYTES = 16L << 20;
    private long closedUpTo = -1;
    /** Confined to the thread applying frames (see the class note); grows to the largest frame seen. */
    private MemorySegment scratch = Arena.ofAuto().allocate(64 * 1024, 8);
    /** Confined like {@code scratch}: the table the previous frame went to, so a frame needs no map look-up. */
    private RowFrameTarget lastTransport;
    private long lastViewId = -1;
    /** Receiving thread: when a dropped frame may be logged again, and how many were not logged since. */
    private long nextDropLogNs = System.nanoTime();
    private long dropsNotLogged;
    private static final long DROP_LOG_INTERVAL_NS = 1_000_000_000L;
    /**
     * The thread inside {@link #onFrame}, or null: set on entry and cleared on exit by that thread, so a thread reads
     * itself here only while it applies a frame (its own latest write); any other value means "not me".
     */
    private Thread receiving;

    TcpEndpoint(final int ownNodeId, final String host, final int port)
    {
        final boolean inline = MulticastSettings.tcpInlineReceive();
        final TransportContext ctx = new TransportContext().ownNodeId(ownNodeId).transport("nio")
            .connectTimeoutMs(1000).handlerThreads(inline ? 0 : 1).inlineCoordinator(inline)
            .idleMaxParkNs(MulticastSettings.tcpMaxParkNs())
            // Room for a few seconds of pushes to a silent peer before the heartbeat timeout freezes it.
            .ringBufferBytes(1 << 22).flowControlWindowBytes(1 << 22);
        ctx.addressMap().put(ownNodeId, host, port);
        this.service = MessagingService.start(ctx);
        service.registerMessageType(RowFrame.TYPE, RowFrame.SUBTYPE, RowFrame::new);
        service.registerRawHandler(RowFrame.TYPE, RowFrame.SUBTYPE, this::onFrame);
    }

    static int nodeId(final long memberId)
    {
        return (int)(memberId % 65_000) + 1;
    }

    void addPeers(final RowTransportContext context)
    {
        for (final RowTransportContext.MemberAddress m : context.members())
        {
            final String ep = m.endpoint();
            final int colon = ep.lastIndexOf(':');
            if (colon <= 0)
            {
                throw new IllegalArgumentException("tcp transport: member " + m.memberId() + " has no host:port"
                    + " endpoint (got '" + ep + "'); set GroupConfig.endpoint");
            }
            service.addressMap().put(nodeId(m.memberId()), ep.substring(0, colon),
                Integer.parseInt(ep.substring(colon + 1)));
        }
    }

    void opened(final long viewId, final RowFrameTarget transport)
    {
        synchronized (this)
        {
            final List<EarlyFrame> early = pending.remove(viewId);
            if (early != null)
            {
                for (final EarlyFrame frame : early)
                {
                    pendingBytes -= frame.bytes().length;
                    applyEarly(viewId, transport, frame);
                }
            }
            open.put(viewId, transport);
            pending.entrySet().removeIf(e -> e.getKey() < viewId && forget(e.getValue()));
        }
    }

    /**
     * The member is out of its group and will be taken into one again (a rejoin, or a merge into a group whose view
     * ids may be lower than the ones it saw): frames of any view id not opened yet are kept again, so the first frames
     * of the view that takes it in are not dropped when they arrive before it opens that view. Frames kept for a view
     * id it never opens are dropped when a higher one opens. (Frames of its old view still in flight are kept too;
     * they could only be applied if a group it merges into reached that same view id, a risk the docs name.)
     */
    synchronized void forgetClosedViews()
    {
        closedUpTo = -1;
    }

    /** Holding the monitor: the bytes of dropped kept frames leave the count; true, for {@code removeIf}. */
    private boolean forget(final List<EarlyFrame> frames)
    {
        for (final EarlyFrame frame : frames)
        {
            pendingBytes -= frame.bytes().length;
        }
        return true;
    }

    /** Holding the monitor: applies a kept frame to the view that opened; a refused one is dropped, not thrown. */
    private void applyEarly(final long viewId, final RowFrameTarget transport, final EarlyFrame frame)
    {
        try
        {
            transport.apply(frame.sourceNodeId(), MemorySegment.ofArray(frame.bytes()), frame.bytes().length);
        }
        catch (final RuntimeException ex)
        {
            refusedFrames.incrementAndGet();
            LOG.warn("dropped a kept row frame from node {} for view {}: {}", frame.sourceNodeId(), viewId,
                ex.toString());
        }
    }

    /** Frames a view's transport refused: malformed, or naming a rank that is not the sending node's. */
    long refusedFrames()
    {
        return refusedFrames.get();
    }

    /** Frames for views not open yet that were dropped because too many bytes were kept already. */
    synchronized long pendingDropped()
    {
        return pendingDropped;
    }

    synchronized void closed(final long viewId)
    {
        open.remove(viewId);
        closedUpTo = Math.max(closedUpTo, viewId);
    }

    /** Whether the caller is the thread applying a frame (and so, in an inline pass, must not wait in a send). */
    boolean onReceivingThread()
    {
        return receiving == Thread.currentThread();
    }

    private void onFrame(final InboundFrame frame)
    {
        receiving = Thread.currentThread();
        try
        {
            applyFrame(frame);
        }
        finally
        {
            receiving = null;
        }
    }

    private void applyFrame(final InboundFrame frame)
    {
        final Importer in = frame.importer();
        final int length = frame.payloadLength();
        if (length > scratch.byteSize())
        {
            scratch = Arena.ofAuto().allocate(Math.max(length, 2 * scratch.byteSize()), 8);
        }
        // One copy out of the transport's buffer keeps the apply code transport-neutral; no allocation per frame.
        in.readSegment(scratch, 0, length);
        if (length < 12)
        {
            if (dropLogAdmits())
            {
                LOG.warn("dropped a row frame of {} bytes from node {} (shorter than its 12-byte header){}", length,
                    frame.sourceNodeId(), droppedNotLogged());
            }
            return;
        }
        final long viewId = scratch.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        RowFrameTarget t = lastTransport;
        if (t == null || lastViewId != viewId || !t.isOpen())
        {
            t = lookup(viewId, length, frame.sourceNodeId());
            if (t == null)
            {
                return;
            }
            lastViewId = viewId;
            lastTransport = t;
        }
        try
        {
            t.apply(frame.sourceNodeId(), scratch, length);
        }
        catch (final RuntimeException ex)
        {
            refusedFrames.incrementAndGet();
            if (dropLogAdmits())
            {
                LOG.warn("dropped a malformed row frame from node {} for view {}: {}{}", frame.sourceNodeId(), viewId,
                    ex.toString(), droppedNotLogged());
            }
        }
    }

    /**
     * Receiving thread: whether a dropped frame may be logged now. A peer can send malformed frames at will, so at
     * most one WARN a second; the others are counted.
     */
    private boolean dropLogAdmits()
    {
        final long now = System.nanoTime();
        if (now - nextDropLogNs < 0)
        {
            dropsNotLogged++;
            return false;
        }
        nextDropLogNs = now + DROP_LOG_INTERVAL_NS;
        return true;
    }

    private String droppedNotLogged()
    {
        final long n = dropsNotLogged;
        dropsNotLogged = 0;
        return n == 0 ? "" : " (" + n + " more dropped frames not logged)";
    }

    /**
     * The open table of a view (boxes the key: once per view, not per frame), or null after keeping the frame in
     * {@code scratch} for a view not opened yet (or dropping it for a closed one).
     */
    private RowFrameTarget lookup(final long viewId, final int length, final int sourceNodeId)
    {
        RowFrameTarget t = open.get(viewId);
        if (t != null)
        {
            return t;
        }
        synchronized (this)
        {
            t = open.get(viewId);
            if (t == null && viewId > closedUpTo)
            {
                if (pendingBytes + length > PENDING_BOUND_BYTES)
                {
                    pendingDropped++;
                    if (dropLogAdmits())
                    {
                        LOG.warn("dropped a row frame for view {} not open yet: {} bytes are kept for such views "
                            + "already (bound {}){}", viewId, pendingBytes, PENDING_BOUND_BYTES, droppedNotLogged());
                    }
                    return null;
                }
                pendingBytes += length;
                pending.computeIfAbsent(viewId, v -> new ArrayList<>()).add(
                    new EarlyFrame(sourceNodeId, scratch.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE)));
            }
            return t;
        }
    }

    /** Applies a frame to a table: bytes copied, counters released one by one, in frame order. */
    static void apply(final MemorySegment frame, final long end, final MemorySegment table,
        final long rowLengthBytes, final int rows)
    {
        final ValueLayout.OfLong l = ValueLayout.JAVA_LONG_UNALIGNED;
        final ValueLayout.OfInt i32 = ValueLayout.JAVA_INT_UNALIGNED;
        final int from = frame.get(i32, 8);
        if (from < 0 || from >= rows)
        {
            throw new IllegalArgumentException("row frame from rank " + from + " outside a table of " + rows);
        }
        final long rowBase = from * rowLengthBytes;
        long at = 12;
        while (at < end)
        {
            if (at + 13 > end)
            {
                throw new IllegalArgumentException("operation header cut at " + at + " of " + end + " bytes");
            }
            final byte kind = frame.get(ValueLayout.JAVA_BYTE, at);
            final long off = frame.get(l, at + 1);
            final int n = frame.get(i32, at + 9);
            at += 13;
            if (kind == RowFrame.BYTES)
            {
                if (off < 0 || n < 0 || off + n > rowLengthBytes || at + n > end)
                {
                    throw new IllegalArgumentException("byte range " + off + "+" + n + " outside a row");
                }
                MemorySegment.copy(frame, at, table, rowBase + off, n);
                at += n;
            }
            else if (kind == RowFrame.COUNTERS)
            {
                if (off < 0 || (off & 7) != 0 || n < 0 || off + 8L * n > rowLengthBytes || at + 8L * n > end)
                {
                    throw new IllegalArgumentException("counter range " + off + "x" + n + " outside a row");
                }
                for (int k = 0; k < n; k++)
                {
                    SstTable.setReleaseAt(table, rowBase + off + 8L * k, frame.get(l, at));
                    at += 8;
                }
            }
            else
            {
                throw new IllegalArgumentException("unknown row frame operation " + kind);
            }
        }
    }
}
