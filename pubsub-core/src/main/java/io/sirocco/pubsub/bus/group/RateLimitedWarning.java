package io.sirocco.pubsub.bus.group;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;

/**
 * A WARN that a remote peer can trigger (a malformed or foreign discovery message): logged at most once per period,
 * with the number of warnings left out since the last one, so a peer that sends bad input repeatedly cannot flood
 * the log. The ones left out go to DEBUG. Thread-safe (a CAS on the next allowed time).
 */
final class RateLimitedWarning
{
    private final Logger log;
    private final long periodNs;
    private final AtomicLong nextNs = new AtomicLong(System.nanoTime());
    private final AtomicLong suppressed = new AtomicLong();

    RateLimitedWarning(final Logger log, final long periodMs)
    {
        this.log = log;
        this.periodNs = TimeUnit.MILLISECONDS.toNanos(periodMs);
    }

    /** Logs {@code format} with {@code args} at WARN, unless one was logged within the period (then at DEBUG). */
    void warn(final String format, final Object... args)
    {
        final long now = System.nanoTime();
        final long next = nextNs.get();
        if (now - next >= 0 && nextNs.compareAndSet(next, now + periodNs))
        {
            final long skipped = suppressed.getAndSet(0);
            log.warn(skipped == 0 ? format : format + " ({} similar warnings suppressed)",
                skipped == 0 ? args : append(args, skipped));
            return;
        }
        suppressed.incrementAndGet();
        log.debug(format, args);
    }

    private static Object[] append(final Object[] args, final long value)
    {
        final Object[] all = new Object[args.length + 1];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = value;
        return all;
    }
}
