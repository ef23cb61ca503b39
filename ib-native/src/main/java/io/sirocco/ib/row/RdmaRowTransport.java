package io.sirocco.ib.row;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.ib.bootstrap.ControlExchange;
import io.sirocco.multicast.spi.RowSuspicionListener;
import io.sirocco.multicast.spi.RowTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SST over one-sided RDMA writes (Derecho's verbs mode). Per view ({@link #open}): the whole table
 * ({@code members} rows) is registered once; each peer gets one RC queue pair; queue-pair numbers, PSNs, GIDs and
 * the table's address, rkey and length are swapped over the messaging-transport control connection
 * ({@link ControlExchange}), then a second exchange round is the barrier that guarantees every peer's queue pair is
 * ready before the first write. Pushes go through {@link PushPlanner}.
 *
 * <p>Memory: this member writes only its own row, locally with plain stores and release stores for counters; peers'
 * rows are written by their NICs. Readers poll counters in the table with acquire and never poll inside a data range
 * (bytes within one RDMA write have no order). The doorbell is never rung: remote writes land silently, so the
 * predicate thread polls.
 *
 * <p>Failures: an error completion, a failed post or a completion deadline freezes the peer's row (the planner stops
 * writing to it and its queue pair goes to the error state) and is reported to the {@link RowSuspicionListener}
 * registered by the membership layer, which suspects the member. Reports made before a listener is registered are
 * kept and replayed to it.
 *
 * <p>Threading: one pushing thread (the group's predicate thread) calls every method, as the row-transport contract
 * requires; the suspicion bookkeeping is synchronized anyway, since it is off the hot path.
 */
public final class RdmaRowTransport implements RowTransport
{
    private static final Logger LOG = LoggerFactory.getLogger(RdmaRowTransport.class);

    private final MemorySegment table;
    private final PushPlanner planner;
    private final long rowLengthBytes;
    private final Runnable release;
    private final List<Report> unreported = new ArrayList<>();
    private RowSuspicionListener listener;
    private boolean closed;

    private record Report(int rank, String reason)
    {
    }

    /**
     * @param table   the registered local table
     * @param writer  the verbs writing this member's row into the peers' tables
     * @param release frees the verbs resources of the view, run once by {@link #close()}
     */
    RdmaRowTransport(final MemorySegment table, final RowWriteVerbs writer, final int myRank, final int members,
        final long rowLengthBytes, final PushPlannerConfig push, final Runnable release)
    {
        this.table = table;
        this.rowLengthBytes = rowLengthBytes;
        this.release = release;
        this.planner = new PushPlanner(writer, table.asSlice(myRank * rowLengthBytes, rowLengthBytes), myRank,
            members, push, this::suspected, System::nanoTime);
    }

    /**
     * Sets up the RDMA table of one view with every peer and returns its transport. Blocks up to twice the exchange
     * timeout. On failure the view's verbs resources are closed.
     *
     * @param verbs     the view's verbs resources (table registered, no queue pair yet)
     * @param exchange  this member's control exchange (its messaging endpoint)
     * @param nodeIds   every member's messaging node id, by rank
     * @param viewId    the view; identifies the exchange rounds on both sides
     * @param timeoutMs deadline of each exchange round
     * @param afterClose run once after the returned transport closed its verbs resources (not run on failure)
     * @throws IOException if a peer does not answer the exchange in time or describes a table of another geometry
     */
    public static RdmaRowTransport open(final RowViewVerbs verbs, final ControlExchange exchange, final int[] nodeIds,
        final long viewId, final int myRank, final long rowLengthBytes, final PushPlannerConfig push,
        final long timeoutMs, final Runnable afterClose) throws IOException
    {
        final int members = nodeIds.length;
        try
        {
            final byte[][] replies = exchange.exchange(viewId, 0, myRank, nodeIds,
                peer -> verbs.localInfo(peer).encode(), timeoutMs);
            for (int peer = 0; peer < members; peer++)
            {
                if (peer == myRank)
                {
                    continue;
                }
                final RowRegionInfo info = RowRegionInfo.decode(replies[peer]);
                if (info.tableLengthBytes() != rowLengthBytes * members)
                {
                    throw new IOException("view " + viewId + ": rank " + peer + " registered a table of "
                        + info.tableLengthBytes() + " bytes, expected " + rowLengthBytes * members
                        + " (different view geometry?)");
                }
                verbs.connect(peer, info);
            }
            // barrier: nobody writes before every peer's QP is ready to receive (Derecho's sync_with_members)
            exchange.exchange(viewId, 1, myRank, nodeIds, peer -> new byte[0], timeoutMs);
            return new RdmaRowTransport(verbs.table(), verbs.writer(), myRank, members, rowLengthBytes, push, () ->
            {
                verbs.close();
                afterClose.run();
            });
        }
        catch (final IOException | RuntimeException ex)
        {
            verbs.close();
            throw ex;
        }
    }

    /** The local table: {@code members * rowLengthBytes}, row r at {@code r * rowLengthBytes}, registered. */
    @Override
    public MemorySegment table()
    {
        return table;
    }

    /** Rows are copies written by the NICs, never shared in place. */
    @Override
    public boolean sharesRows()
    {
        return false;
    }

    /** One RDMA WRITE of the range per live peer. */
    @Override
    public void pushBytes(final long rowOffset, final long lengthBytes)
    {
        planner.pushBytes(rowOffset, lengthBytes);
    }

    /** The counters, snapshotted now with acquire, INLINE. */
    @Override
    public void pushCounters(final long rowOffset, final int count)
    {
        planner.pushCounters(rowOffset, count);
    }

    /** The caller's snapshotted guard, INLINE, after everything pushed before. */
    @Override
    public void pushGuard(final long rowOffset, final long value)
    {
        planner.pushGuard(rowOffset, value);
    }

    /** Stops writing to {@code rank} and moves its QP to the error state. */
    @Override
    public void freeze(final int rank)
    {
        planner.freeze(rank);
    }

    /** Whether writes to {@code rank} stopped (suspected, or frozen by the caller). */
    public boolean isFrozen(final int rank)
    {
        return planner.isFrozen(rank);
    }

    /** Polls completions (retiring the send queues) and checks completion deadlines. */
    @Override
    public void flush()
    {
        planner.pollCompletions();
    }

    /** Registers the membership layer's listener and replays the failures reported before. */
    @Override
    public synchronized void suspicionListener(final RowSuspicionListener suspicions)
    {
        listener = suspicions;
        for (final Report report : unreported)
        {
            suspicions.onSuspected(report.rank(), report.reason());
        }
        unreported.clear();
    }

    /** Pushes issued, one per push call per live peer. */
    @Override
    public long pushCount()
    {
        return planner.pushCount();
    }

    /** Length of one row. */
    public long rowLengthBytes()
    {
        return rowLengthBytes;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            release.run();
        }
    }

    /** From the planner, once per peer: the row is frozen already. */
    private synchronized void suspected(final int rank, final String reason)
    {
        LOG.warn("RDMA writes to rank {} failed: {}; row frozen, member reported as suspected", rank, reason);
        if (null == listener)
        {
            unreported.add(new Report(rank, reason));
        }
        else
        {
            listener.onSuspected(rank, reason);
        }
    }
}
