package io.sirocco.multicast.smc;

/**
 * The Spindle optimizations, each switchable so it can be measured off and on.
 *
 * @param sendBatching     publish every contiguous committed slot in one pass (else one message per pass).
 * @param receiveBatching  take every new slot of every sender in one pass and push counters once (else one).
 * @param deliveryBatching deliver every stable message in one pass with one {@code delivered} push (else one).
 * @param nullSends        ORDERED senders send nulls so a quiet sender does not stall the round-robin order.
 * @param pushOutsideLock  push after releasing the subgroup's sender lock (else push while holding it).
 * @param selfReceipt      ORDERED stability counts a sender as having received its own published messages: a
 *                         receiver takes the sender's {@code COMMITTED} in place of its {@code RECEIVED} entry for
 *                         itself, so a one-sender subgroup delivers after one hop instead of waiting for the sender's
 *                         own receive trigger. Sound because the view change drains (every member receives what it
 *                         published) before the ragged trim is computed.
 * @param publishOnCommit  on a transport whose rows are shared ({@code shm}), {@code commit} publishes the guard
 *                         itself (one release store on the committing thread) instead of waiting for the send
 *                         trigger on the predicate thread.
 */
public record SpindleOptions(
    boolean sendBatching,
    boolean receiveBatching,
    boolean deliveryBatching,
    boolean nullSends,
    boolean pushOutsideLock,
    boolean selfReceipt,
    boolean publishOnCommit)
{
    public static final SpindleOptions ALL_ON = new SpindleOptions(true, true, true, true, true, true, true);

    public SpindleOptions withBatching(final boolean on)
    {
        return new SpindleOptions(on, on, on, nullSends, pushOutsideLock, selfReceipt, publishOnCommit);
    }

    public SpindleOptions withNullSends(final boolean on)
    {
        return new SpindleOptions(sendBatching, receiveBatching, deliveryBatching, on, pushOutsideLock, selfReceipt,
            publishOnCommit);
    }

    public SpindleOptions withPushOutsideLock(final boolean on)
    {
        return new SpindleOptions(sendBatching, receiveBatching, deliveryBatching, nullSends, on, selfReceipt,
            publishOnCommit);
    }

    /** Switches {@link #selfReceipt()} and {@link #publishOnCommit()} together (the one-hop shm fast path). */
    public SpindleOptions withFastPath(final boolean on)
    {
        return new SpindleOptions(sendBatching, receiveBatching, deliveryBatching, nullSends, pushOutsideLock, on, on);
    }
}
