package io.sirocco.transport.log;

import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;

/**
 * A WARN that a remote peer can trigger again and again (garbage on a socket, failed handshakes, protocol errors):
 * logged at most once per interval, with the number of occurrences not logged since the last one; the ones in
 * between go to DEBUG, so nothing is lost at that level. One instance per kind of warning.
 *
 * <p>Thread-safe: any thread may call {@link #warn}; a CAS on the last logged time elects the one that logs, and the
 * skipped count is an atomic counter. The race between two threads near an interval's end at worst logs both.
 */
public final class RateLimitedWarning
{
    /** The default interval: one WARN a second per kind. */
    public static final long DEFAULT_INTERVAL_NS = 1_000_000_000L;

    private final Logger log;
    private final long intervalNs;
    private final AtomicLong lastLogNs = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong skipped = new AtomicLong();

    public RateLimitedWarning(final Logger log)
    {
        this(log, DEFAULT_INTERVAL_NS);
    }

    public RateLimitedWarning(final Logger log, final long intervalNs)
    {
        this.log = log;
        this.intervalNs = intervalNs;
    }

    /** Logs {@code format} with {@code arguments} at WARN unless one was logged within the interval. */
    public void warn(final String format, final Object... arguments)
    {
        final long nowNs = System.nanoTime();
        final long last = lastLogNs.get();
        if ((last != Long.MIN_VALUE && nowNs - last < intervalNs) || !lastLogNs.compareAndSet(last, nowNs))
        {
            skipped.incrementAndGet();
            if (log.isDebugEnabled())
            {
                log.debug(format, arguments);
            }
            return;
        }
        final long notLogged = skipped.getAndSet(0);
        if (notLogged > 0 && log.isWarnEnabled())
        {
            log.warn(format + " ({} more like it in the last interval were not logged at WARN)",
                append(arguments, notLogged));
        }
        else
        {
            log.warn(format, arguments);
        }
    }

    /** How many warnings were not logged at WARN since the last one that was. */
    public long skipped()
    {
        return skipped.get();
    }

    private static Object[] append(final Object[] arguments, final long count)
    {
        // a trailing Throwable stays last, where SLF4J looks for it
        final boolean throwable = arguments.length > 0 && arguments[arguments.length - 1] instanceof Throwable;
        final Object[] all = new Object[arguments.length + 1];
        if (throwable)
        {
            System.arraycopy(arguments, 0, all, 0, arguments.length - 1);
            all[arguments.length - 1] = count;
            all[arguments.length] = arguments[arguments.length - 1];
        }
        else
        {
            System.arraycopy(arguments, 0, all, 0, arguments.length);
            all[arguments.length] = count;
        }
        return all;
    }
}
