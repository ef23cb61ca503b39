package io.sirocco.pubsub.core;

/**
 * A WaitSet as the conditions attached to it see it: something to wake when a trigger may have changed. The
 * conditions' {@link WaitSetLinks} hold this, not {@code WaitSetImpl}, so the WaitSet depends on its conditions and
 * not the other way round.
 *
 * <p>Threads: {@link #wakeUp} is called from whichever thread changed a trigger (delivery, discovery, application).
 */
interface WaitSetWaker
{
    /** Makes the WaitSet's waiters re-evaluate their conditions. */
    void wakeUp();
}
