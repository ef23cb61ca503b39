package io.sirocco.ib.row;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ThreadLocalRandom;

import io.sirocco.ib.verbs.CompletionQueue;
import io.sirocco.ib.verbs.Libibverbs;
import io.sirocco.ib.verbs.MemoryRegion;
import io.sirocco.ib.verbs.QpEndpoint;
import io.sirocco.ib.verbs.QueuePair;
import io.sirocco.ib.verbs.RdmaDevice;
import io.sirocco.ib.verbs.Verbs;
import io.sirocco.ib.verbs.VerbsException;

/**
 * {@link RowViewVerbs} over a real device: the whole table ({@code members} rows) is one 4096-aligned off-heap
 * segment registered once ({@code LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ}); each peer gets one RC queue pair on one
 * shared completion queue. Hardware-verified only: CI has no RDMA device. Threading as {@link RowViewVerbs}.
 */
final class VerbsRowView implements RowViewVerbs
{
    private static final int ACCESS = Verbs.ACCESS_LOCAL_WRITE | Verbs.ACCESS_REMOTE_WRITE | Verbs.ACCESS_REMOTE_READ;

    private final RdmaRowConfig config;
    private final int myRank;
    private final long rowLengthBytes;
    private final RdmaDevice device;
    private final QueuePair[] queuePairs;
    private final int[] psn;
    private final long[] remoteRow;
    private final int[] rkeys;
    private MemoryRegion table;
    private CompletionQueue cq;
    private int lid;
    private int mtu;
    private byte[] gid;
    private boolean closed;

    /**
     * Opens the device and registers the table.
     *
     * @throws VerbsException naming the device and the verb that failed
     */
    VerbsRowView(final RdmaRowConfig config, final int myRank, final int members, final long rowLengthBytes)
    {
        this.config = config;
        this.myRank = myRank;
        this.rowLengthBytes = rowLengthBytes;
        this.queuePairs = new QueuePair[members];
        this.psn = new int[members];
        this.remoteRow = new long[members];
        this.rkeys = new int[members];
        final Libibverbs verbs = Libibverbs.load();
        this.device = RdmaDevice.open(verbs, config.deviceName().isEmpty() ? firstDevice(verbs) : config.deviceName());
        try
        {
            table = MemoryRegion.allocate(device, rowLengthBytes * members, ACCESS);
            cq = new CompletionQueue(device, Math.max(16, config.queuePair().maxSendWr() * (members - 1)), 64);
            final var port = device.queryPort(config.queuePair().portNum());
            lid = port.lid();
            mtu = Math.min(config.queuePair().mtu(), port.activeMtu());
            gid = device.gid(config.queuePair().portNum(), config.queuePair().gidIndex());
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    @Override
    public MemorySegment table()
    {
        return table.segment();
    }

    @Override
    public RowRegionInfo localInfo(final int peer)
    {
        if (null == queuePairs[peer])
        {
            queuePairs[peer] = new QueuePair(device, config.queuePair(), cq, cq, null);
            queuePairs[peer].toInit(Verbs.ACCESS_LOCAL_WRITE | Verbs.ACCESS_REMOTE_WRITE);
            psn[peer] = ThreadLocalRandom.current().nextInt() & 0xFFFFFF;
        }
        return new RowRegionInfo(new QpEndpoint(lid, queuePairs[peer].qpNum(), psn[peer], gid), table.address(),
            table.rkey(), table.segment().byteSize());
    }

    @Override
    public void connect(final int peer, final RowRegionInfo remote)
    {
        queuePairs[peer].toRtr(remote.endpoint(), mtu);
        queuePairs[peer].toRts(psn[peer]);
        remoteRow[peer] = remote.tableAddress() + myRank * rowLengthBytes;
        rkeys[peer] = remote.rkey();
    }

    @Override
    public RowWriteVerbs writer()
    {
        return new VerbsRowWriter(queuePairs, cq, table, myRank * rowLengthBytes, remoteRow, rkeys);
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
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

    private static String firstDevice(final Libibverbs verbs)
    {
        final var devices = verbs.deviceList();
        if (devices.isEmpty())
        {
            throw new VerbsException("no RDMA device: ibv_get_device_list returned 0 devices");
        }
        return devices.get(0).name();
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
