package io.sirocco.ib.row;

import java.lang.foreign.MemorySegment;

/**
 * The verbs layer as the {@link PushPlanner} sees it: one RC queue pair per peer rank, writing into the peer's copy
 * of this member's row at the same row offset, and one completion queue for all of them. The real implementation
 * ({@link VerbsRowWriter}) is a thin adapter over {@code ibv_post_send} and {@code ibv_poll_cq}; tests use a
 * recording fake. Called by the pushing thread only.
 */
public interface RowWriteVerbs
{
    /**
     * Posts one RDMA WRITE of {@code lengthBytes} at {@code rowOffset} of the local row to the same offset of
     * {@code peer}'s copy. The NIC reads the local bytes when it executes the request, not at post time.
     *
     * @return 0, or the errno value of the failed post
     */
    int postWrite(int peer, long wrId, long rowOffset, int lengthBytes, boolean signaled);

    /**
     * Posts one RDMA WRITE with the INLINE flag: {@code bytes} (at most the QP's inline limit) are copied into the
     * work request now, so the peer receives them as they are at this call.
     *
     * @return 0, or the errno value of the failed post
     */
    int postInline(int peer, long wrId, long rowOffset, MemorySegment bytes, boolean signaled);

    /**
     * Polls the completion queue once.
     *
     * @return the number of completions handed to {@code sink}
     */
    int poll(CompletionSink sink);

    /** The planner stopped writing to {@code peer}; the transport may move its QP to the error state. */
    default void frozen(final int peer)
    {
    }

    /** Receives completions: {@code status} is {@code IBV_WC_SUCCESS} (0) or an error status. */
    @FunctionalInterface
    interface CompletionSink
    {
        void onCompletion(long wrId, int status);
    }
}
