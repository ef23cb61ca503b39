package io.sirocco.transport.nio;

/**
 * Decides whether the NIO selector thread polls again without blocking ({@code selectNow}) or blocks in
 * {@code select}: the spin window of {@code sirocco.transport.selector.spin.ns}.
 *
 * <p>The selector spins for at most {@code windowNs} after it last found work, and only while it is <i>armed</i>:
 * the work before that came back within the window too. Request/response traffic (a DDS ping/pong over tcp, whose
 * answer the inline receive pass writes from this thread) keeps it armed, so the peer's {@code write} finds this
 * thread running instead of blocked in {@code epoll_wait}; that saves a thread wake-up on each side of a hop. Sparse
 * traffic (heartbeats of an idle node, large batched frames) has longer gaps and disarms it, so the thread blocks at
 * once and costs nothing. An empty poll that took longer than {@link #PREEMPTED_NS} means another thread had this
 * core while we polled: that disarms it until the next work within the window (a short preemption, such as this
 * process's predicate thread waking, costs one blocking hop). One that took longer than {@link #STALLED_NS}, a
 * scheduler slice, means the core is contended (the JIT's compiler threads in a process's first seconds, other
 * processes): spinning would take the core from the threads doing the work and make hops wait for slices, so that
 * disarms it for the next {@link #REARM_WORKS} works within the window; the selector blocks meanwhile, as with no
 * window, and tries spinning again after them.
 *
 * <p>Windows shorter than the hop's usual gap are worse than none (measured: 20-200 µs windows on the 2-core host;
 * docs/benchmarks.md, "Over tcp: the selector's spin window"), hence a window of about a millisecond.
 *
 * <p>Concurrency: confined to the selector thread that leads the loop (no fields are shared). Times are
 * {@link System#nanoTime()} values passed in by the caller, so the rule is testable without a clock.
 */
final class SelectorSpinWindow
{
    /** An empty {@code selectNow} poll takes ~0.5 µs; one this long means the polling thread was descheduled. */
    static final long PREEMPTED_NS = 20_000L;
    /** An empty poll this long lost the core for about a scheduler slice: the core is contended. */
    static final long STALLED_NS = 200_000L;
    /**
     * Works within the window a stalled spin waits for before it spins again. Measured (docs/benchmarks.md, "Over
     * tcp: the selector's spin window"): without it, the first seconds of a ping/pong, while the JIT compiled, had
     * p90s of 0.5-1 ms (a hop waited for a compiler thread's slice on the spinning core) against ~12 µs after.
     */
    static final int REARM_WORKS = 64;

    private final long windowNs;
    private long lastWorkNs;
    private boolean armed;
    private int worksBeforeRearm;

    /**
     * @param windowNs the window, ns; 0 never spins
     * @param nowNs    the time the loop starts (the first work's gap is measured from it)
     */
    SelectorSpinWindow(final long windowNs, final long nowNs)
    {
        if (windowNs < 0)
        {
            throw new IllegalArgumentException("selector spin window must be >= 0 ns, was " + windowNs);
        }
        this.windowNs = windowNs;
        this.lastWorkNs = nowNs;
    }

    /** Whether the next poll should be a non-blocking one. */
    boolean shouldSpin(final long nowNs)
    {
        return armed && nowNs - lastWorkNs < windowNs;
    }

    /** A poll found work at {@code nowNs}: arms the window if this work came within the window of the last. */
    void onWork(final long nowNs)
    {
        final boolean withinWindow = nowNs - lastWorkNs < windowNs;
        lastWorkNs = nowNs;
        if (withinWindow && worksBeforeRearm > 0)
        {
            worksBeforeRearm--;
            armed = false;
            return;
        }
        armed = withinWindow;
    }

    /** A non-blocking poll found nothing and took {@code pollNs}. */
    void onEmptyPoll(final long pollNs)
    {
        if (pollNs > PREEMPTED_NS)
        {
            armed = false;
        }
        if (pollNs > STALLED_NS)
        {
            worksBeforeRearm = REARM_WORKS;
        }
    }
}
