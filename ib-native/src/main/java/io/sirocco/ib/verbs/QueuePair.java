package io.sirocco.ib.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.function.Consumer;

import static io.sirocco.ib.verbs.VerbsLayouts.IBV_QP_ATTR;
import static io.sirocco.ib.verbs.VerbsLayouts.IBV_RECV_WR;
import static io.sirocco.ib.verbs.VerbsLayouts.IBV_SEND_WR;
import static io.sirocco.ib.verbs.VerbsLayouts.IBV_SGE;
import static io.sirocco.ib.verbs.VerbsLayouts.offset;

/**
 * One reliable-connected queue pair, its state transitions (RESET, INIT, RTR, RTS) and its posting verbs over
 * pre-allocated work-request structs, so posting allocates nothing.
 *
 * <p>Threading: the send side ({@link #postWrite}, {@link #postInlineLong}, {@link #postSend}) has one poster at a
 * time (the owner's pusher or sender thread); {@link #postRecv} has one poster at a time; the two may be different
 * threads because they use separate WR structs. Transitions happen once, before any post.
 */
public final class QueuePair implements AutoCloseable
{
    private static final ValueLayout.OfInt NETWORK_INT = ValueLayout.JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN);
    private static final long SEND_WR_ID = offset(IBV_SEND_WR, "wr_id");
    private static final long SEND_SG_LIST = offset(IBV_SEND_WR, "sg_list");
    private static final long SEND_NUM_SGE = offset(IBV_SEND_WR, "num_sge");
    private static final long SEND_OPCODE = offset(IBV_SEND_WR, "opcode");
    private static final long SEND_FLAGS = offset(IBV_SEND_WR, "send_flags");
    private static final long SEND_IMM = offset(IBV_SEND_WR, "imm_data");
    private static final long SEND_REMOTE_ADDR = offset(IBV_SEND_WR, "wr.rdma.remote_addr");
    private static final long SEND_RKEY = offset(IBV_SEND_WR, "wr.rdma.rkey");
    private static final long RECV_WR_ID = offset(IBV_RECV_WR, "wr_id");
    private static final long RECV_SG_LIST = offset(IBV_RECV_WR, "sg_list");
    private static final long RECV_NUM_SGE = offset(IBV_RECV_WR, "num_sge");
    private static final long SGE_ADDR = offset(IBV_SGE, "addr");
    private static final long SGE_LENGTH = offset(IBV_SGE, "length");
    private static final long SGE_LKEY = offset(IBV_SGE, "lkey");

    private final RdmaDevice device;
    private final QpConfig config;
    private final MemorySegment qp;
    private final int qpNum;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment sendWr;
    private final MemorySegment sendSge;
    private final MemorySegment inlineScratch;
    private final MemorySegment recvWr;
    private final MemorySegment recvSge;
    private final MemorySegment badSendWr;
    private final MemorySegment badRecvWr;
    private boolean closed;

    /**
     * Creates an RC QP in RESET.
     *
     * @param srq the shared receive queue, or {@code null} for a private receive queue
     */
    public QueuePair(
        final RdmaDevice device, final QpConfig config, final CompletionQueue sendCq, final CompletionQueue recvCq,
        final SharedReceiveQueue srq)
    {
        this.device = device;
        this.config = config;
        try (Arena init = Arena.ofConfined())
        {
            final MemorySegment attr = init.allocate(VerbsLayouts.IBV_QP_INIT_ATTR);
            final var layout = VerbsLayouts.IBV_QP_INIT_ATTR;
            attr.set(ValueLayout.ADDRESS, offset(layout, "send_cq"), sendCq.cq());
            attr.set(ValueLayout.ADDRESS, offset(layout, "recv_cq"), recvCq.cq());
            attr.set(ValueLayout.ADDRESS, offset(layout, "srq"), null == srq ? MemorySegment.NULL : srq.srq());
            attr.set(ValueLayout.JAVA_INT, offset(layout, "cap.max_send_wr"), config.maxSendWr());
            attr.set(ValueLayout.JAVA_INT, offset(layout, "cap.max_recv_wr"), null == srq ? config.maxRecvWr() : 0);
            attr.set(ValueLayout.JAVA_INT, offset(layout, "cap.max_send_sge"), 1);
            attr.set(ValueLayout.JAVA_INT, offset(layout, "cap.max_recv_sge"), 1);
            attr.set(ValueLayout.JAVA_INT, offset(layout, "cap.max_inline_data"), config.maxInlineBytes());
            attr.set(ValueLayout.JAVA_INT, offset(layout, "qp_type"), Verbs.QPT_RC);
            attr.set(ValueLayout.JAVA_INT, offset(layout, "sq_sig_all"), 0); // unsignaled unless asked
            this.qp = device.verbs().createQp(device.protectionDomain(), attr);
        }
        this.qpNum = qp.get(ValueLayout.JAVA_INT, offset(VerbsLayouts.IBV_QP, "qp_num"));
        this.sendWr = arena.allocate(IBV_SEND_WR);
        this.sendSge = arena.allocate(IBV_SGE);
        this.inlineScratch = arena.allocate(8, 8);
        this.recvWr = arena.allocate(IBV_RECV_WR);
        this.recvSge = arena.allocate(IBV_SGE);
        this.badSendWr = arena.allocate(ValueLayout.ADDRESS);
        this.badRecvWr = arena.allocate(ValueLayout.ADDRESS);
        sendWr.set(ValueLayout.ADDRESS, SEND_SG_LIST, sendSge);
        sendWr.set(ValueLayout.JAVA_INT, SEND_NUM_SGE, 1);
        recvWr.set(ValueLayout.ADDRESS, RECV_SG_LIST, recvSge);
        recvWr.set(ValueLayout.JAVA_INT, RECV_NUM_SGE, 1);
    }

    /** This QP's number, for the peer's {@code dest_qp_num}. */
    public int qpNum()
    {
        return qpNum;
    }

    /** RESET to INIT on the configured port, allowing the peer the given {@code IBV_ACCESS_*} rights. */
    public void toInit(final int accessFlags)
    {
        modify("RESET->INIT", Verbs.QP_STATE | Verbs.QP_PKEY_INDEX | Verbs.QP_PORT | Verbs.QP_ACCESS_FLAGS, attr ->
        {
            attr.set(ValueLayout.JAVA_INT, offset(IBV_QP_ATTR, "qp_state"), Verbs.QPS_INIT);
            attr.set(ValueLayout.JAVA_SHORT, offset(IBV_QP_ATTR, "pkey_index"), (short)0);
            attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "port_num"), (byte)config.portNum());
            attr.set(ValueLayout.JAVA_INT, offset(IBV_QP_ATTR, "qp_access_flags"), accessFlags);
        });
    }

    /** INIT to RTR towards {@code remote}; uses a GRH when the remote advertised a GID (RoCE, or routed IB). */
    public void toRtr(final QpEndpoint remote, final int pathMtu)
    {
        final int mask = Verbs.QP_STATE | Verbs.QP_AV | Verbs.QP_PATH_MTU | Verbs.QP_DEST_QPN | Verbs.QP_RQ_PSN
            | Verbs.QP_MAX_DEST_RD_ATOMIC | Verbs.QP_MIN_RNR_TIMER;
        modify("INIT->RTR", mask, attr ->
        {
            attr.set(ValueLayout.JAVA_INT, offset(IBV_QP_ATTR, "qp_state"), Verbs.QPS_RTR);
            attr.set(ValueLayout.JAVA_INT, offset(IBV_QP_ATTR, "path_mtu"), pathMtu);
            attr.set(ValueLayout.JAVA_INT, offset(IBV_QP_ATTR, "dest_qp_num"), remote.qpNum());
            attr.set(ValueLayout.JAVA_INT, offset(IBV_QP_ATTR, "rq_psn"), remote.psn());
            attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "max_dest_rd_atomic"), (byte)1);
            attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "min_rnr_timer"), (byte)config.minRnrTimer());
            attr.set(ValueLayout.JAVA_SHORT, offset(IBV_QP_ATTR, "ah_attr.dlid"), (short)remote.lid());
            attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "ah_attr.sl"), (byte)0);
            attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "ah_attr.port_num"), (byte)config.portNum());
            if (remote.hasGid())
            {
                attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "ah_attr.is_global"), (byte)1);
                MemorySegment.copy(remote.gid(), 0, attr, ValueLayout.JAVA_BYTE,
                    offset(IBV_QP_ATTR, "ah_attr.grh.dgid"), 16);
                attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "ah_attr.grh.sgid_index"),
                    (byte)config.gidIndex());
                attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "ah_attr.grh.hop_limit"), (byte)1);
            }
        });
    }

    /** RTR to RTS with our own starting PSN {@code sqPsn}. */
    public void toRts(final int sqPsn)
    {
        final int mask = Verbs.QP_STATE | Verbs.QP_TIMEOUT | Verbs.QP_RETRY_CNT | Verbs.QP_RNR_RETRY
            | Verbs.QP_SQ_PSN | Verbs.QP_MAX_QP_RD_ATOMIC;
        modify("RTR->RTS", mask, attr ->
        {
            attr.set(ValueLayout.JAVA_INT, offset(IBV_QP_ATTR, "qp_state"), Verbs.QPS_RTS);
            attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "timeout"), (byte)config.timeout());
            attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "retry_cnt"), (byte)config.retryCount());
            attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "rnr_retry"), (byte)config.rnrRetry());
            attr.set(ValueLayout.JAVA_INT, offset(IBV_QP_ATTR, "sq_psn"), sqPsn & 0xFFFFFF);
            attr.set(ValueLayout.JAVA_BYTE, offset(IBV_QP_ATTR, "max_rd_atomic"), (byte)1);
        });
    }

    /** Any state to ERR: flushes every outstanding WR with {@code IBV_WC_WR_FLUSH_ERR}. */
    public void toError()
    {
        modify("->ERR", Verbs.QP_STATE,
            attr -> attr.set(ValueLayout.JAVA_INT, offset(IBV_QP_ATTR, "qp_state"), Verbs.QPS_ERR));
    }

    /**
     * Posts one RDMA WRITE of {@code length} bytes at {@code localAddress} (inside a region with {@code lkey}) to
     * {@code remoteAddress} under {@code rkey}. The NIC reads the local bytes when it executes the WQE, not now.
     *
     * @param flags {@link Verbs#SEND_SIGNALED} or 0
     * @return 0, or the errno value the provider returned (ENOMEM: send queue full)
     */
    public int postWrite(
        final long wrId, final long localAddress, final int length, final int lkey, final long remoteAddress,
        final int rkey, final int flags)
    {
        sendSge.set(ValueLayout.JAVA_LONG, SGE_ADDR, localAddress);
        sendSge.set(ValueLayout.JAVA_INT, SGE_LENGTH, length);
        sendSge.set(ValueLayout.JAVA_INT, SGE_LKEY, lkey);
        return post(wrId, Verbs.WR_RDMA_WRITE, flags, 0, remoteAddress, rkey);
    }

    /**
     * Posts an 8-byte RDMA WRITE with {@link Verbs#SEND_INLINE}: the value is copied into the WQE now, so what
     * the peer sees is {@code value} as of this call, whatever happens to local memory afterwards.
     */
    public int postInlineLong(final long wrId, final long value, final long remoteAddress, final int rkey,
        final int flags)
    {
        inlineScratch.set(ValueLayout.JAVA_LONG, 0, value);
        sendSge.set(ValueLayout.JAVA_LONG, SGE_ADDR, inlineScratch.address());
        sendSge.set(ValueLayout.JAVA_INT, SGE_LENGTH, 8);
        sendSge.set(ValueLayout.JAVA_INT, SGE_LKEY, 0);
        return post(wrId, Verbs.WR_RDMA_WRITE, flags | Verbs.SEND_INLINE, 0, remoteAddress, rkey);
    }

    /**
     * Posts an RDMA WRITE of {@code bytes} (off-heap, at most the QP's inline limit) with {@link Verbs#SEND_INLINE}:
     * the provider copies them into the WQE during this call, so {@code bytes} may be reused as soon as it returns.
     */
    public int postInline(final long wrId, final MemorySegment bytes, final long remoteAddress, final int rkey,
        final int flags)
    {
        sendSge.set(ValueLayout.JAVA_LONG, SGE_ADDR, bytes.address());
        sendSge.set(ValueLayout.JAVA_INT, SGE_LENGTH, (int)bytes.byteSize());
        sendSge.set(ValueLayout.JAVA_INT, SGE_LKEY, 0);
        return post(wrId, Verbs.WR_RDMA_WRITE, flags | Verbs.SEND_INLINE, 0, remoteAddress, rkey);
    }

    /**
     * Posts a SEND (with immediate data when {@code withImmediate}) of {@code length} bytes at
     * {@code localAddress}; {@code length} 0 sends the immediate alone.
     *
     * @param immediate host-order 32 bits, put on the wire in network order
     */
    public int postSend(
        final long wrId, final long localAddress, final int length, final int lkey, final boolean withImmediate,
        final int immediate, final int flags)
    {
        sendSge.set(ValueLayout.JAVA_LONG, SGE_ADDR, localAddress);
        sendSge.set(ValueLayout.JAVA_INT, SGE_LENGTH, length);
        sendSge.set(ValueLayout.JAVA_INT, SGE_LKEY, lkey);
        sendWr.set(ValueLayout.JAVA_INT, SEND_NUM_SGE, 0 == length ? 0 : 1);
        try
        {
            return post(wrId, withImmediate ? Verbs.WR_SEND_WITH_IMM : Verbs.WR_SEND, flags, immediate, 0, 0);
        }
        finally
        {
            sendWr.set(ValueLayout.JAVA_INT, SEND_NUM_SGE, 1);
        }
    }

    /** Posts one receive buffer on this QP's own receive queue; 0 or an errno value. */
    public int postRecv(final long wrId, final long address, final int length, final int lkey)
    {
        recvWr.set(ValueLayout.JAVA_LONG, RECV_WR_ID, wrId);
        recvSge.set(ValueLayout.JAVA_LONG, SGE_ADDR, address);
        recvSge.set(ValueLayout.JAVA_INT, SGE_LENGTH, length);
        recvSge.set(ValueLayout.JAVA_INT, SGE_LKEY, lkey);
        return device.ops().postRecv(qp, recvWr, badRecvWr);
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                device.verbs().destroyQp(qp);
            }
            finally
            {
                arena.close();
            }
        }
    }

    private int post(
        final long wrId, final int opcode, final int flags, final int immediate, final long remoteAddress,
        final int rkey)
    {
        sendWr.set(ValueLayout.JAVA_LONG, SEND_WR_ID, wrId);
        sendWr.set(ValueLayout.JAVA_INT, SEND_OPCODE, opcode);
        sendWr.set(ValueLayout.JAVA_INT, SEND_FLAGS, flags);
        sendWr.set(NETWORK_INT, SEND_IMM, immediate); // __be32 on the wire, whatever the host order
        sendWr.set(ValueLayout.JAVA_LONG, SEND_REMOTE_ADDR, remoteAddress);
        sendWr.set(ValueLayout.JAVA_INT, SEND_RKEY, rkey);
        return device.ops().postSend(qp, sendWr, badSendWr);
    }

    private void modify(final String what, final int mask, final Consumer<MemorySegment> fill)
    {
        try (Arena init = Arena.ofConfined())
        {
            final MemorySegment attr = init.allocate(IBV_QP_ATTR);
            fill.accept(attr);
            device.verbs().modifyQp(qp, attr, mask, what + " qpn " + qpNum + " on " + device.name());
        }
    }
}
