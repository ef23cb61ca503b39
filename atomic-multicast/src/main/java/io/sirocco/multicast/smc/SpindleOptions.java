package io.sirocco.multicast.smc;

/**
 * The Spindle optimizations, each switchable so it can be measured off and on.
 *
 * @param sendBatching     publish every contiguous committed slot in one pass (else one message per pass).
 * @param receiveBatching  take every new slot of every sender in one pass and push counters once (else one).
 * @param deliveryBatching deliver every stable message in one pass with one {@code delivered} push (else one).
 * @param nullSends        ORDERED senders send nulls so a quiet sender does not stall the round-robin order.
 * @param pushOutsideLock  push after releasing the subgroup's sender lock (else push while holding it).
 */
public record SpindleOptions(
    boolean sendBatching,
    boolean receiveBatching,
    boolean deliveryBatching,
    boolean nullSends,
    boolean pushOutsideLock)
{
    public static final SpindleOptions ALL_ON = new SpindleOptions(true, true, true, true, true);

    public SpindleOptions withBatching(final boolean on)
    {
        return new SpindleOptions(on, on, on, nullSends, pushOutsideLock);
    }

    public SpindleOptions withNullSends(final boolean on)
    {
        return new SpindleOptions(sendBatching, receiveBatching, deliveryBatching, on, pushOutsideLock);
    }

    public SpindleOptions withPushOutsideLock(final boolean on)
    {
        return new SpindleOptions(sendBatching, receiveBatching, deliveryBatching, nullSends, on);
    }
}
