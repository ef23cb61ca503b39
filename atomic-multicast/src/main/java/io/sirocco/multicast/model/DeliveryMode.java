package io.sirocco.multicast.model;

/** How a subgroup orders and protects its messages. */
public enum DeliveryMode
{
    /**
     * Total order: every member delivers the same sequence, round-robin over the senders ({@code seq = index *
     * senders + senderRank}), once the message is stable (received by every member). Flow control from
     * {@code delivered_num}. DDS RELIABLE.
     */
    ORDERED,

    /** Per-sender FIFO, delivered on receipt, reliable: a slow receiver throttles the sender (window). */
    UNORDERED,

    /**
     * Per-sender FIFO, delivered on receipt, lossy: the sender reuses its slots without waiting for anybody, a lapped
     * receiver skips what was overwritten and reports the exact count through
     * {@link DeliveryHandler#onLost(long, long)}; a torn slot is never delivered (seqlock check). DDS BEST_EFFORT.
     */
    UNORDERED_LOSSY
}
