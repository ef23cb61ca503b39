package io.sirocco.multicast.model;

import java.lang.foreign.MemorySegment;

/**
 * Receives a subgroup's messages, in batches, on the group's predicate thread.
 *
 * <p><b>Handlers must be fast, or hand off.</b> The upcall runs on the one thread that also receives, orders and
 * acknowledges for every subgroup of the group: a handler that takes 100 µs per message caps the whole group near
 * 10,000 messages/s (Spindle §3.5 measured 9%/90%/99% loss for 1 µs/100 µs/1 ms upcalls). Copy what you need and
 * return; do heavy work on your own executor.
 *
 * <p><b>Zero copy.</b> In ORDERED and UNORDERED mode {@code payload} is the sender's slot itself (shared memory, or
 * this member's copy of the sender's row): valid only during the call, since the sender reuses the slot once every
 * member delivered it. In UNORDERED_LOSSY mode it is a private copy already checked against tearing. The message is
 * the first {@code length} bytes of {@code payload}.
 *
 * <p><b>Back-pressure ({@link #canAccept()}).</b> A handler that cannot take a message now (its consumer's window is
 * full) answers false, and delivery stops before that message: it stays undelivered, so in ORDERED mode this member's
 * {@code DELIVERED} does not pass it (UNORDERED: {@code RECEIVED} does not), the senders' window test fails and their
 * claims wait, which is the back-pressure. Nothing is lost and nothing reordered: the member delivers the same
 * sequence later. The predicate thread is not held, so heartbeats, views and every other subgroup go on. The handler
 * must ring the group's doorbell ({@code PredicateEngine.wake()}) once it can accept again. Exception: the view
 * change's ragged trim delivers everything below the trim without asking (the view cannot be installed before), so
 * {@link #onMessage} must then take the message anyway, beyond its window; the amount is bounded by the subgroup's
 * window times its senders.
 */
public interface DeliveryHandler
{
    /**
     * One message.
     *
     * @param senderId   member id of the sender.
     * @param senderRank the sender's rank among the subgroup's senders in this view.
     * @param index      the sender's message index in this view (0, 1, 2, ...; nulls take indices too).
     * @param seq        {@code index * senders + senderRank}: the position in the subgroup's round-robin order.
     * @param payload    the bytes (see the class comment for their lifetime).
     * @param length     message length in bytes.
     */
    void onMessage(long senderId, int senderRank, long index, long seq, MemorySegment payload, int length);

    /**
     * Whether the next message can be taken now (ORDERED and UNORDERED modes; UNORDERED_LOSSY never asks). Called on
     * the predicate thread before each message, so it must be cheap; false stops the pass's delivery at that
     * message (see the class comment). Default: always.
     */
    default boolean canAccept()
    {
        return true;
    }

    /**
     * The end of a delivery batch: every message of one trigger pass has been handed over.
     *
     * @param messages number of messages in the batch.
     */
    default void onBatchEnd(final int messages)
    {
    }

    /**
     * UNORDERED_LOSSY only: this receiver was lapped by a sender (or a slot was overwritten while it was copied) and
     * skipped exactly {@code count} of its messages.
     *
     * @param senderId the sender.
     * @param count    messages skipped since the previous report.
     */
    default void onLost(final long senderId, final long count)
    {
    }
}
