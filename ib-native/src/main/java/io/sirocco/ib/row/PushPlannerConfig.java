package io.sirocco.ib.row;

/**
 * Tuning of the RDMA push path.
 *
 * @param signalEvery          every k-th work request per peer is signaled (the others are not), so the send queue
 *                             drains with one completion per k writes; Derecho signals only on demand, we bound it
 * @param sendQueueDepth       work requests a peer's send queue holds ({@code max_send_wr}); the request that fills
 *                             it is always signaled
 * @param maxInlineBytes       largest inline write ({@code max_inline_data}), a multiple of 8, at least 8
 * @param completionTimeoutNs  how long a signaled request may stay incomplete, or the queue full, before the peer's
 *                             row is frozen and the peer suspected (Derecho's {@code sst_poll_cq_timeout_ms})
 */
public record PushPlannerConfig(int signalEvery, int sendQueueDepth, int maxInlineBytes, long completionTimeoutNs)
{
    /** Validates. */
    public PushPlannerConfig
    {
        if (signalEvery < 1 || sendQueueDepth < 2 || signalEvery > sendQueueDepth)
        {
            throw new IllegalArgumentException("need 1 <= signalEvery (" + signalEvery + ") <= sendQueueDepth ("
                + sendQueueDepth + "), depth >= 2");
        }
        if (maxInlineBytes < 8 || 0 != (maxInlineBytes & 7))
        {
            throw new IllegalArgumentException("maxInlineBytes must be a multiple of 8, >= 8: " + maxInlineBytes);
        }
        if (completionTimeoutNs <= 0)
        {
            throw new IllegalArgumentException("completionTimeoutNs must be positive: " + completionTimeoutNs);
        }
    }

    /** k = 16, depth 256, 64 inline bytes, 2 s (Derecho's default completion timeout). */
    public static PushPlannerConfig defaults()
    {
        return new PushPlannerConfig(16, 256, 64, 2_000_000_000L);
    }
}
