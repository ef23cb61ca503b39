package io.sirocco.ib.msg;

import java.lang.foreign.MemorySegment;

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

/**
 * {@link MessagingVerbs} over libibverbs: a thin adapter, hardware-verified only. Threading as the interface says.
 */
final class VerbsMessaging implements MessagingVerbs
{
    private final QpConfig qpConfig;
    private final String deviceName;
    private RdmaDevice device;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private SharedReceiveQueue srq;
    private MemoryRegion receiveBuffers;
    private int receiveBytes;
    private int mtu;
    private int lid;
    private byte[] gid;
    private SendSink sendSink;
    private ReceiveSink receiveSink;
    private final CompletionQueue.CompletionHandler sendHandler =
        (wrId, status, opcode, byteLen, imm, qpNum, flags) -> sendSink.onSend(wrId, status, qpNum);
    private final CompletionQueue.CompletionHandler recvHandler =
        (wrId, status, opcode, byteLen, imm, qpNum, flags) -> receiveSink.onReceive((int)wrId, status, byteLen, imm,
            receiveBuffers.segment(), wrId * receiveBytes);

    /** @param deviceName RDMA device ({@code ""}: the first listed) */
    VerbsMessaging(final QpConfig qpConfig, final String deviceName)
    {
        this.qpConfig = qpConfig;
        this.deviceName = deviceName;
    }

    @Override
    public void open(final int srqDepth, final int receiveBytes, final int sendCqEntries)
    {
        final Libibverbs verbs = Libibverbs.load();
        device = RdmaDevice.open(verbs, deviceName.isEmpty() ? verbs.deviceList().get(0).name() : deviceName);
        final var port = device.queryPort(qpConfig.portNum());
        lid = port.lid();
        mtu = Math.min(qpConfig.mtu(), port.activeMtu());
        gid = device.gid(qpConfig.portNum(), qpConfig.gidIndex());
        this.receiveBytes = receiveBytes;
        sendCq = new CompletionQueue(device, sendCqEntries, 64);
        recvCq = new CompletionQueue(device, 2 * srqDepth, 64);
        srq = new SharedReceiveQueue(device, srqDepth);
        receiveBuffers = MemoryRegion.allocate(device, (long)srqDepth * receiveBytes, Verbs.ACCESS_LOCAL_WRITE);
        for (int i = 0; i < srqDepth; i++)
        {
            repost(i);
        }
    }

    @Override
    public String description()
    {
        return device.name() + " port " + qpConfig.portNum() + " (LID " + lid + ", MTU " + Verbs.mtuBytes(mtu) + ")";
    }

    @Override
    public Qp createQp(final int stagingBytes)
    {
        final QueuePair qp = new QueuePair(device, qpConfig, sendCq, recvCq, srq);
        try
        {
            qp.toInit(Verbs.ACCESS_LOCAL_WRITE);
            final MemoryRegion staging = stagingBytes > 0
                ? MemoryRegion.allocate(device, stagingBytes, Verbs.ACCESS_LOCAL_WRITE) : null;
            return new VerbsQp(qp, staging);
        }
        catch (final VerbsException ex)
        {
            qp.close();
            throw ex;
        }
    }

    @Override
    public QpEndpoint endpoint(final Qp qp, final int psn)
    {
        return new QpEndpoint(lid, qp.qpNum(), psn, gid);
    }

    @Override
    public void connect(final Qp qp, final QpEndpoint remote, final int psn)
    {
        final QueuePair queuePair = ((VerbsQp)qp).queuePair;
        queuePair.toRtr(remote, mtu);
        queuePair.toRts(psn);
    }

    @Override
    public int postSend(final Qp qp, final long wrId, final long stagingOffset, final int length, final int immediate)
    {
        final VerbsQp v = (VerbsQp)qp;
        final long address = null == v.staging ? 0 : v.staging.address() + stagingOffset;
        final int lkey = null == v.staging ? 0 : v.staging.lkey();
        return v.queuePair.postSend(wrId, address, length, lkey, true, immediate, Verbs.SEND_SIGNALED);
    }

    @Override
    public int pollSend(final SendSink sink)
    {
        sendSink = sink;
        return sendCq.poll(sendHandler);
    }

    @Override
    public int pollReceive(final ReceiveSink sink)
    {
        receiveSink = sink;
        return recvCq.poll(recvHandler);
    }

    @Override
    public void repost(final int index)
    {
        final int rc = srq.postRecv(index, receiveBuffers.address() + (long)index * receiveBytes, receiveBytes,
            receiveBuffers.lkey());
        if (0 != rc)
        {
            throw new VerbsException("re-posting receive buffer " + index + " failed: errno " + rc);
        }
    }

    @Override
    public void toError(final Qp qp)
    {
        quietly(((VerbsQp)qp).queuePair::toError);
    }

    @Override
    public void destroy(final Qp qp)
    {
        final VerbsQp v = (VerbsQp)qp;
        quietly(v.queuePair::close);
        if (null != v.staging)
        {
            quietly(v.staging::close);
        }
    }

    @Override
    public String statusString(final int status)
    {
        return device.verbs().wcStatusString(status);
    }

    @Override
    public void close()
    {
        if (null != srq)
        {
            quietly(srq::close);
        }
        if (null != sendCq)
        {
            quietly(sendCq::close);
        }
        if (null != recvCq)
        {
            quietly(recvCq::close);
        }
        if (null != receiveBuffers)
        {
            quietly(receiveBuffers::close);
        }
        if (null != device)
        {
            quietly(device::close);
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
            // teardown: one failed step must not keep the others from running
        }
    }

    private static final class VerbsQp implements Qp
    {
        private final QueuePair queuePair;
        private final MemoryRegion staging;

        VerbsQp(final QueuePair queuePair, final MemoryRegion staging)
        {
            this.queuePair = queuePair;
            this.staging = staging;
        }

        @Override
        public int qpNum()
        {
            return queuePair.qpNum();
        }

        @Override
        public MemorySegment staging()
        {
            return null == staging ? MemorySegment.NULL : staging.segment();
        }
    }
}
