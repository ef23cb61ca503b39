package io.sirocco.ib.row;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import io.sirocco.ib.verbs.CompletionQueue;
import io.sirocco.ib.verbs.Libibverbs;
import io.sirocco.ib.verbs.MemoryRegion;
import io.sirocco.ib.verbs.QpEndpoint;
import io.sirocco.ib.verbs.QueuePair;
import io.sirocco.ib.verbs.RdmaDevice;
import io.sirocco.ib.verbs.Verbs;
import io.sirocco.ib.verbs.VerbsException;
import io.sirocco.ib.bootstrap.EndpointExchange;
import io.sirocco.multicast.spi.RowTransport;

/**
 * The SST over one-sided RDMA writes (Derecho's verbs mode). Per view: the whole table ({@code members} rows) is one
 * 4096-aligned off-heap segment registered once; each peer gets one RC queue pair; QP numbers, PSNs, GIDs and the
 * table's address and rkey are swapped over a TCP exchange, then a second exchange round is the barrier that
 * guarantees every peer's QP is ready before the first write. Pushes go through {@link PushPlanner}.
 *
 * <p>Memory: this member writes only its own row, locally with plain stores and release stores for counters; peers'
 * rows are written by their NICs. Readers poll counters in the table with acquire and never poll inside a data range
 * (bytes within one RDMA write have no order). The doorbell is never rung: remote writes land silently, so the
 * predicate thread polls.
 *
 * <p>Threading: one pushing thread (the group's predicate thread) calls every method, as the row-transport contract
 * requires. Hardware-verified only: CI has no RDMA device, so only the planner and the set-up codecs are tested there.
 */
public final class RdmaRowTransport implements RowTransport
{
    private static final int ACCESS = Verbs.ACCESS_LOCAL_WRITE | Verbs.ACCESS_REMOTE_WRITE | Verbs.ACCESS_REMOTE_READ;

    private final MemorySegment table;
    private final PushPlanner planner;
    private final long rowLengthBytes;
    private final Runnable release;
    private boolean closed;

    /**
     * @param table   the registered local table
     * @param planner the planner writing this member's row of {@code table}
     * @param release frees the verbs resources of the view (QPs, CQ, MR, device), run once by {@link #close()}
     */
    RdmaRowTransport(final MemorySegment table, final PushPlanner planner, final long rowLengthBytes,
        final Runnable release)
    {
        this.table = table;
        this.planner = planner;
        this.rowLengthBytes = rowLengthBytes;
        this.release = release;
    }

    /**
     * Opens the table of one view and connects to every peer. Blocks up to twice the exchange timeout.
     *
     * @param session            identifies group and view (both exchange rounds derive from it)
     * @param exchangeAddresses  every member's exchange address by rank; this member binds its own entry's port
     * @param suspicions         told when a peer's writes fail or time out
     * @throws VerbsException if a verb fails; {@link IOException} if a peer does not answer the exchange in time
     */
    public static RdmaRowTransport open(
        final RdmaRowConfig config, final long session, final int myRank, final int members,
        final long rowLengthBytes, final InetSocketAddress[] exchangeAddresses, final SuspicionListener suspicions)
        throws IOException
    {
        final Libibverbs verbs = Libibverbs.load();
        final String name = config.deviceName().isEmpty() ? firstDevice(verbs) : config.deviceName();
        final RdmaDevice device = RdmaDevice.open(verbs, name);
        MemoryRegion table = null;
        CompletionQueue cq = null;
        final QueuePair[] queuePairs = new QueuePair[members];
        try
        {
            table = MemoryRegion.allocate(device, rowLengthBytes * members, ACCESS);
            cq = new CompletionQueue(device, Math.max(16, config.queuePair().maxSendWr() * (members - 1)), 64);
            final var port = device.queryPort(config.queuePair().portNum());
            final int mtu = Math.min(config.queuePair().mtu(), port.activeMtu());
            final byte[] gid = device.gid(config.queuePair().portNum(), config.queuePair().gidIndex());
            final int[] psn = new int[members];
            for (int peer = 0; peer < members; peer++)
            {
                if (peer != myRank)
                {
                    queuePairs[peer] = new QueuePair(device, config.queuePair(), cq, cq, null);
                    queuePairs[peer].toInit(Verbs.ACCESS_LOCAL_WRITE | Verbs.ACCESS_REMOTE_WRITE);
                    psn[peer] = ThreadLocalRandom.current().nextInt() & 0xFFFFFF;
                }
            }
            final MemoryRegion registered = table;
            final Map<Integer, byte[]> replies;
            try (EndpointExchange exchange = new EndpointExchange(
                new InetSocketAddress(exchangeAddresses[myRank].getPort()), myRank))
            {
                replies = exchange.exchange(session, exchangeAddresses, peer -> new RowRegionInfo(
                    new QpEndpoint(port.lid(), queuePairs[peer].qpNum(), psn[peer], gid),
                    registered.address(), registered.rkey(), registered.segment().byteSize()).encode(),
                    config.exchangeTimeoutMs());
                final long[] remoteRow = new long[members];
                final int[] rkeys = new int[members];
                for (final Map.Entry<Integer, byte[]> reply : replies.entrySet())
                {
                    final int peer = reply.getKey();
                    final RowRegionInfo info = RowRegionInfo.decode(reply.getValue());
                    if (info.tableLengthBytes() != rowLengthBytes * members)
                    {
                        throw new IOException("rank " + peer + " registered a table of " + info.tableLengthBytes()
                            + " bytes, expected " + rowLengthBytes * members + " (different view geometry?)");
                    }
                    queuePairs[peer].toRtr(info.endpoint(), mtu);
                    queuePairs[peer].toRts(psn[peer]);
                    remoteRow[peer] = info.tableAddress() + myRank * rowLengthBytes;
                    rkeys[peer] = info.rkey();
                }
                // barrier: nobody writes before every peer's QP is ready to receive (Derecho's sync_with_members)
                exchange.exchange(~session, exchangeAddresses, peer -> new byte[0], config.exchangeTimeoutMs());
                final VerbsRowWriter writer = new VerbsRowWriter(queuePairs, cq, table, myRank * rowLengthBytes,
                    remoteRow, rkeys);
                final PushPlanner planner = new PushPlanner(writer,
                    table.segment().asSlice(myRank * rowLengthBytes, rowLengthBytes), myRank, members,
                    config.push(), suspicions, System::nanoTime);
                final MemoryRegion mr = table;
                final CompletionQueue completions = cq;
                return new RdmaRowTransport(table.segment(), planner, rowLengthBytes,
                    () -> release(device, mr, completions, queuePairs));
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            release(device, table, cq, queuePairs);
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

    /** Polls completions (retiring the send queues) and checks completion deadlines. */
    @Override
    public void flush()
    {
        planner.pollCompletions();
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

    private static String firstDevice(final Libibverbs verbs)
    {
        final var devices = verbs.deviceList();
        if (devices.isEmpty())
        {
            throw new VerbsException("no RDMA device: ibv_get_device_list returned 0 devices");
        }
        return devices.get(0).name();
    }

    private static void release(
        final RdmaDevice device, final MemoryRegion table, final CompletionQueue cq, final QueuePair[] queuePairs)
    {
        // reverse order of creation: QPs reference the CQ and PD, the MR references the PD
        for (final QueuePair qp : queuePairs)
        {
            if (null != qp)
            {
                quietly(qp::close);
            }
        }
        if (null != cq)
        {
            quietly(cq::close);
        }
        if (null != table)
        {
            quietly(table::close);
        }
        quietly(device::close);
    }

    private static void quietly(final Runnable close)
    {
        try
        {
            close.run();
        }
        catch (final VerbsException ex)
        {
            // teardown of a view: one failed destroy must not keep the others from running
        }
    }
}
