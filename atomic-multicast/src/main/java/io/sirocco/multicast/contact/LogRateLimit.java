package io.sirocco.multicast.contact;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets through at most one log line a second for one kind of event that a remote peer, or anyone able to send a
 * datagram (a forged beacon), can trigger at will, and counts the lines it held back so the next one can say how
 * many. Thread-safe: the slot is taken by compare-and-set, so of several threads at once only one logs.
 */
final class LogRateLimit
{
    private static final long INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private final AtomicLong nextNs = new AtomicLong(System.nanoTime());
    private final AtomicLong skipped = new AtomicLong();

    /**
     * @return -1 when this event must not be logged; else the number of events not logged since the last one
     *         (to append to the line).
     */
    long admit()
    {
        final long now = System.nanoTime();
        final long next = nextNs.get();
        if (now - next < 0 || !nextNs.compareAndSet(next, now + INTERVAL_NS))
        {
            skipped.incrementAndGet();
            return -1;
        }
        return skipped.getAndSet(0);
    }

    /** @return {@code ""} or {@code " (n more not logged)"} for an {@link #admit()} result. */
    static String suffix(final long skippedCount)
    {
        return skippedCount <= 0 ? "" : " (" + skippedCount + " more not logged)";
    }
}
