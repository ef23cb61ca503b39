package io.sirocco.pubsub.bus;

import java.lang.foreign.MemorySegment;

/**
 * A writer's attachment to its topic's subgroup. Called by one thread at a time (the DataWriter's lock).
 *
 * <p><b>In-place sends.</b> A bus that sends through slots of shared rows lets the writer claim the slot itself and
 * serialize the payload straight into it: {@link #claim} (which holds the bus's send lock on success), then exactly
 * one of {@link #commitClaim} or {@link #abortClaim} on the same thread. A bus without such slots, or a message that
 * does not fit one, answers {@link #NOT_IN_PLACE} and the writer uses {@link #publish}.
 */
public interface BusWriter extends AutoCloseable
{
    /** {@link #claim}: the slot is claimed; write the payload at {@link #claimedOffset()} of {@link #claimedBuffer()}. */
    int CLAIMED = 0;
    /** {@link #claim}: a reliable reader still had no room after the timeout (or the view kept changing). */
    int TIMED_OUT = -1;
    /** {@link #claim}: no in-place slot for this message (bus kind, size, or no view yet): use {@link #publish}. */
    int NOT_IN_PLACE = -2;

    /**
     * Sends the message to every reader of the topic. Reliable readers that lag a full window behind block the call
     * for up to {@code timeoutNs}; best-effort readers lose the message instead.
     *
     * @return false when a reliable reader still had no room after {@code timeoutNs}.
     */
    boolean publish(BusMessage message, long timeoutNs);

    /**
     * Claims the next send slot for a message whose payload is at most {@code maxPayload} bytes, waiting (same rule
     * as {@link #publish}) up to {@code timeoutNs} for room. On {@link #CLAIMED} the caller holds the bus's send lock
     * until {@link #commitClaim} or {@link #abortClaim}: keep it short and allocation-free.
     *
     * @return {@link #CLAIMED}, {@link #TIMED_OUT} or {@link #NOT_IN_PLACE}.
     */
    default int claim(final int maxPayload, final long timeoutNs)
    {
        return NOT_IN_PLACE;
    }

    /** The claimed slot's bytes (valid from a successful {@link #claim} to its commit or abort). */
    default MemorySegment claimedBuffer()
    {
        throw new IllegalStateException("no in-place claim on this bus");
    }

    /** Where the payload starts in {@link #claimedBuffer()} (the bus's message header comes before it). */
    default int claimedOffset()
    {
        throw new IllegalStateException("no in-place claim on this bus");
    }

    /**
     * Publishes the claimed slot: writes {@code header}'s kind, writer, sequence number, source time and key hash in
     * front of the {@code payloadLength} bytes the caller wrote, and commits. Releases the send lock.
     */
    default void commitClaim(final BusMessage header, final int payloadLength)
    {
        throw new IllegalStateException("no in-place claim on this bus");
    }

    /** Gives the claimed slot back: it keeps its place in the order and is delivered to nobody. Releases the lock. */
    default void abortClaim()
    {
        throw new IllegalStateException("no in-place claim on this bus");
    }

    /**
     * Waits until a view holds this writer in its topic's subgroup, so that what it sends reaches the readers (a
     * send before that reaches nobody, as no reader can be matched yet). A bus without views is ready at once.
     *
     * @return false when no such view was installed within {@code timeoutNs}.
     */
    default boolean awaitSending(final long timeoutNs)
    {
        return true;
    }

    /** Sends the message to one reader only (TRANSIENT_LOCAL history replay); same blocking rule as publish. */
    boolean sendDirected(long readerGuid, BusMessage message, long timeoutNs);

    /**
     * The largest {@link BusBatch} payload this writer sends in one message (to {@link #sendDirected}), or 0 when
     * this bus takes no batches (then send each sample on its own).
     */
    default int batchBytes()
    {
        return 0;
    }

    /** Waits until every reader has delivered everything published so far; false on timeout. */
    boolean awaitDelivered(long timeoutNs);

    @Override
    void close();
}
