package io.sirocco.multicast.spi.tcp;

import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.sst.SstTable;
import io.sirocco.transport.Importer;
import io.sirocco.transport.InboundFrame;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One member's messaging endpoint for a group, shared by the tables of its successive views: binds the member's
 * {@code host:port}, receives row frames on the transport's handler thread and applies them to the table of their
 * view. Frames for a view this member has not opened yet are kept and applied when it opens (so no push is lost);
 * frames for closed views are dropped.
 */
final class TcpEndpoint
{
    private static final Logger LOG = LoggerFactory.getLogger(TcpEndpoint.class);

    final MessagingService service;
    private final Map<Long, TcpRowTransport> open = new ConcurrentHashMap<>();
    private final Map<Long, List<byte[]>> pending = new ConcurrentHashMap<>();
    private long closedUpTo = -1;

    TcpEndpoint(final int ownNodeId, final String host, final int port)
    {
        final TransportContext ctx = new TransportContext().ownNodeId(ownNodeId).transport("nio")
            .connectTimeoutMs(1000).handlerThreads(1)
            .idleMaxParkNs(Long.getLong("sirocco.mcast.tcp.maxParkNs", 50_000))
            // Room for a few seconds of pushes to a silent peer before the heartbeat timeout freezes it.
            .ringBufferBytes(1 << 24).flowControlWindowBytes(1 << 24);
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

    void opened(final long viewId, final TcpRowTransport transport)
    {
        synchronized (this)
        {
            final List<byte[]> early = pending.remove(viewId);
            if (early != null)
            {
                for (final byte[] frame : early)
                {
                    transport.apply(MemorySegment.ofArray(frame));
                }
            }
            open.put(viewId, transport);
            pending.keySet().removeIf(v -> v < viewId);
        }
    }

    synchronized void closed(final long viewId)
    {
        open.remove(viewId);
        closedUpTo = Math.max(closedUpTo, viewId);
    }

    private void onFrame(final InboundFrame frame)
    {
        final Importer in = frame.importer();
        final int length = frame.payloadLength();
        final byte[] copy = new byte[length];
        // Frames are small relative to the data they carry; copying once keeps the apply code transport-neutral.
        in.readBytes(copy, 0, length);
        final MemorySegment seg = MemorySegment.ofArray(copy);
        final long viewId = seg.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0);
        TcpRowTransport t = open.get(viewId);
        if (t == null)
        {
            synchronized (this)
            {
                t = open.get(viewId);
                if (t == null)
                {
                    if (viewId > closedUpTo)
                    {
                        pending.computeIfAbsent(viewId, v -> new ArrayList<>()).add(copy);
                    }
                    return;
                }
            }
        }
        try
        {
            t.apply(seg);
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("dropped a malformed row frame from node {} for view {}: {}", frame.sourceNodeId(), viewId,
                ex.toString());
        }
    }

    /** Applies a frame to a table: bytes copied, counters released one by one, in frame order. */
    static void apply(final MemorySegment frame, final MemorySegment table, final long rowLengthBytes,
        final int rows)
    {
        final java.lang.foreign.ValueLayout.OfLong l = java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
        final java.lang.foreign.ValueLayout.OfInt i32 = java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
        final int from = frame.get(i32, 8);
        if (from < 0 || from >= rows)
        {
            throw new IllegalArgumentException("row frame from rank " + from + " outside a table of " + rows);
        }
        final long rowBase = from * rowLengthBytes;
        long at = 12;
        final long end = frame.byteSize();
        while (at < end)
        {
            final byte kind = frame.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at);
            final long off = frame.get(l, at + 1);
            final int n = frame.get(i32, at + 9);
            at += 13;
            if (kind == RowFrame.BYTES)
            {
                if (off < 0 || n < 0 || off + n > rowLengthBytes)
                {
                    throw new IllegalArgumentException("byte range " + off + "+" + n + " outside a row");
                }
                MemorySegment.copy(frame, at, table, rowBase + off, n);
                at += n;
            }
            else if (kind == RowFrame.COUNTERS)
            {
                if (off < 0 || (off & 7) != 0 || n < 0 || off + 8L * n > rowLengthBytes)
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
