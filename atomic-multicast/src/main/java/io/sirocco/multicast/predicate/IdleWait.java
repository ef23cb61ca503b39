package io.sirocco.multicast.predicate;

/**
 * How an idle predicate thread sleeps until another thread, possibly in another process, rings for it: an event count
 * (Dekker's pattern) instead of a timed park it has to wake from to poll.
 *
 * <p>Protocol. The sleeper {@link #arm()}s (publishes "about to sleep", then a full fence, and returns the bell's current
 * value), looks once more for work, and only if it found none {@link #await}s that value; it {@link #disarm()}s after.
 * A ringer first publishes its data (release stores), then {@link #ring()}s: a full fence, then, only if the sleeper is
 * armed, it changes the value and wakes it. So either the sleeper's last look sees the data, or the ringer sees it armed
 * and the value it waits on moved (its wait returns at once or is woken). Ringing an unarmed bell costs a fence and a
 * read, no system call.
 *
 * <p>Threads: {@link #arm()}, {@link #await} and {@link #disarm()} only on the one sleeping thread; {@link #ring()} on
 * any thread of any process sharing the bell.
 */
public interface IdleWait
{
    /**
     * Sleeper: announces the sleep.
     *
     * @return the token to pass to {@link #await}.
     */
    int arm();

    /**
     * Sleeper: sleeps while nobody rang since {@link #arm()}, at most {@code timeoutNs}; may return early.
     *
     * @param token     what {@link #arm()} returned.
     * @param timeoutNs longest sleep.
     * @return false when this bell cannot sleep (it failed: the caller parks on its own instead).
     */
    boolean await(int token, long timeoutNs);

    /** Sleeper: the sleep is over (woken, timed out, or work found after arming). */
    void disarm();

    /** Any thread: wakes the sleeper if it is armed. */
    void ring();
}
