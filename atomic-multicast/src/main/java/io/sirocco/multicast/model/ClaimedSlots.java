package io.sirocco.multicast.model;

/**
 * What a {@link SlotClaim} needs from the sender ring that granted it: publishing or giving back the claimed index.
 * The subgroup's sender side implements it, so a claim knows nothing of the engine behind it (no import circle
 * between the public claim and the protocol's internals).
 *
 * <p><b>Threads.</b> Called only by the thread that holds the claim, which holds the ring's sender lock from the
 * successful claim until one of these calls releases it.
 */
public interface ClaimedSlots
{
    /** Publishes the message at {@code index} with its claimed length; releases the sender lock. */
    void commit(long index);

    /** Publishes the message at {@code index} with its final {@code length}; releases the sender lock. */
    void commit(long index, int length);

    /** Turns the claimed slot at {@code index} into a skip record; releases the sender lock. */
    void abort(long index);
}
