package io.sirocco.pubsub.timer;

/**
 * A check the participant's {@link ParticipantTimers} runs when its deadline comes (a DataWriter's or DataReader's
 * deadline scan): it does its work and says when it wants to run next.
 */
@FunctionalInterface
public interface TimedCheck
{
    /** Returned by {@link #onDeadline} to be dropped from the wheel. */
    long DONE = Long.MIN_VALUE;

    /**
     * The timer thread, when {@code nowNs} (System.nanoTime) reached the check's deadline; must not block.
     *
     * @param nowNs the wheel's current time.
     * @return the next deadline (System.nanoTime), or {@link #DONE}.
     */
    long onDeadline(long nowNs);
}
