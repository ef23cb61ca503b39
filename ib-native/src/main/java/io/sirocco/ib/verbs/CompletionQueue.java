package io.sirocco.ib.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A completion queue polled by one thread (its owner's poller), with a pre-allocated array of
 * {@code struct ibv_wc} so {@link #poll} allocates nothing. Not thread-safe: exactly one thread polls.
 */
public final class CompletionQueue implements AutoCloseable
{
    private static final long WC_SIZE = VerbsLayouts.IBV_WC.byteSize();
    private static final long WR_ID = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "wr_id");
    private static final long STATUS = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "status");
    private static final long OPCODE = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "opcode");
    private static final long BYTE_LEN = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "byte_len");
    private static final long IMM_DATA = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "imm_data");
    private static final long QP_NUM = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "qp_num");
    private static final long WC_FLAGS = VerbsLayouts.offset(VerbsLayouts.IBV_WC, "wc_flags");

    private static final ValueLayout.OfInt NETWORK_INT = ValueLayout.JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN);

    private final RdmaDevice device;
    private final MemorySegment cq;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment completions;
    private final int batch;
    private boolean closed;

    /** Creates a CQ of {@code entries} on {@code device}, polled {@code batch} completions at a time. */
    public CompletionQueue(final RdmaDevice device, final int entries, final int batch)
    {
        this.device = device;
        this.batch = batch;
        this.cq = device.verbs().createCq(device.context(), entries);
        this.completions = arena.allocate(WC_SIZE * batch, 8);
    }

    /** {@code struct ibv_cq *}. */
    public MemorySegment cq()
    {
        return cq;
    }

    /**
     * Polls up to one batch of completions and hands each to {@code handler}.
     *
     * @return the number handled; 0 when the queue was empty.
     */
    public int poll(final CompletionHandler handler)
    {
        final int n = device.ops().pollCq(cq, batch, completions);
        if (n < 0)
        {
            throw new VerbsException("ibv_poll_cq on " + device.name() + " failed: " + n);
        }
        for (int i = 0; i < n; i++)
        {
            final long base = i * WC_SIZE;
            // imm_data is in network byte order on the wire and in the wc; hand it out in host order.
            handler.onCompletion(
                completions.get(ValueLayout.JAVA_LONG, base + WR_ID),
                completions.get(ValueLayout.JAVA_INT, base + STATUS),
                completions.get(ValueLayout.JAVA_INT, base + OPCODE),
                completions.get(ValueLayout.JAVA_INT, base + BYTE_LEN),
                completions.get(NETWORK_INT, base + IMM_DATA),
                completions.get(ValueLayout.JAVA_INT, base + QP_NUM),
                completions.get(ValueLayout.JAVA_INT, base + WC_FLAGS));
        }
        return n;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                device.verbs().destroyCq(cq);
            }
            finally
            {
                arena.close();
            }
        }
    }

    /** Receives one work completion's fields; called on the polling thread, must not block. */
    @FunctionalInterface
    public interface CompletionHandler
    {
        /**
         * @param status  {@code enum ibv_wc_status}; {@link Verbs#WC_SUCCESS} or an error
         * @param opcode  {@code enum ibv_wc_opcode}
         * @param immData immediate data in host order (valid when {@code wcFlags} has {@link Verbs#WC_WITH_IMM})
         */
        void onCompletion(long wrId, int status, int opcode, int byteLen, int immData, int qpNum, int wcFlags);
    }
}
