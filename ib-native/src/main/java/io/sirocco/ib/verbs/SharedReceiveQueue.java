package io.sirocco.ib.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.sirocco.ib.verbs.VerbsLayouts.IBV_RECV_WR;
import static io.sirocco.ib.verbs.VerbsLayouts.IBV_SGE;
import static io.sirocco.ib.verbs.VerbsLayouts.IBV_SRQ_INIT_ATTR;
import static io.sirocco.ib.verbs.VerbsLayouts.offset;

/**
 * A shared receive queue: one pool of receive buffers for every QP of a transport, so memory grows with traffic,
 * not with the number of peers (Ibdxnet's design). One thread posts (the receive poller that also recycles buffers).
 */
public final class SharedReceiveQueue implements AutoCloseable
{
    private static final long WR_ID = offset(IBV_RECV_WR, "wr_id");
    private static final long SGE_ADDR = offset(IBV_SGE, "addr");
    private static final long SGE_LENGTH = offset(IBV_SGE, "length");
    private static final long SGE_LKEY = offset(IBV_SGE, "lkey");

    private final RdmaDevice device;
    private final MemorySegment srq;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment recvWr;
    private final MemorySegment sge;
    private final MemorySegment badWr;
    private boolean closed;

    /** Creates an SRQ holding up to {@code maxWr} single-SGE receives. */
    public SharedReceiveQueue(final RdmaDevice device, final int maxWr)
    {
        this.device = device;
        try (Arena init = Arena.ofConfined())
        {
            final MemorySegment attr = init.allocate(IBV_SRQ_INIT_ATTR);
            attr.set(ValueLayout.JAVA_INT, offset(IBV_SRQ_INIT_ATTR, "attr.max_wr"), maxWr);
            attr.set(ValueLayout.JAVA_INT, offset(IBV_SRQ_INIT_ATTR, "attr.max_sge"), 1);
            this.srq = device.verbs().createSrq(device.protectionDomain(), attr);
        }
        this.recvWr = arena.allocate(IBV_RECV_WR);
        this.sge = arena.allocate(IBV_SGE);
        this.badWr = arena.allocate(ValueLayout.ADDRESS);
        recvWr.set(ValueLayout.ADDRESS, offset(IBV_RECV_WR, "sg_list"), sge);
        recvWr.set(ValueLayout.JAVA_INT, offset(IBV_RECV_WR, "num_sge"), 1);
    }

    /** {@code struct ibv_srq *}. */
    public MemorySegment srq()
    {
        return srq;
    }

    /** Posts one buffer; 0 or an errno value. */
    public int postRecv(final long wrId, final long address, final int length, final int lkey)
    {
        recvWr.set(ValueLayout.JAVA_LONG, WR_ID, wrId);
        sge.set(ValueLayout.JAVA_LONG, SGE_ADDR, address);
        sge.set(ValueLayout.JAVA_INT, SGE_LENGTH, length);
        sge.set(ValueLayout.JAVA_INT, SGE_LKEY, lkey);
        return device.ops().postSrqRecv(srq, recvWr, badWr);
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                device.verbs().destroySrq(srq);
            }
            finally
            {
                arena.close();
            }
        }
    }
}
