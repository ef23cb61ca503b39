package io.sirocco.multicast.predicate;

/**
 * How many idle passes the predicate thread spins before it yields, learned from what its yields did.
 *
 * <p>Why: when the thread that will produce our next piece of work (the other end of a ping/pong, in another
 * process) runs on the <em>same</em> core, it cannot make progress while we spin: every spin only delays it, and the
 * wait ends only when we yield and the scheduler switches to it. On a 2-core machine that is the stable placement
 * whenever the other core is busy (the load balancer sees two half-busy threads on one core against one busy thread
 * on the other), and with 50 spins of ~0.2 µs each it cost ~10 µs per hop: the "slow mode" of docs/benchmarks.md.
 * A yield tells us which case we are in: one that took longer than {@code switchNs} let another thread run on our
 * core, and one that took up to {@link #HOG_FACTOR} times that let a thread run that quickly handed the core back,
 * which is what our partner does. So an idle stretch that ended with work after such a yield halves the spins (down
 * to 0: yield at once). Any other stretch doubles them back, up to the configured {@code maxSpins}: its yields came
 * back at once (nobody else wanted our core, the partner runs elsewhere), or it ended while still spinning, or one of
 * its yields gave the core to a CPU hog for a whole time slice (another process's build: spinning keeps our core
 * while the partner answers from the other one, yielding at once would hand the hog a slice per hop).
 *
 * <p>Confined to the engine thread except {@link #switchNs(long)} (a volatile the engine reads per yield) and
 * {@link #limit()}, which any thread may read (a volatile copy written only when the limit changes, so the steady
 * state writes nothing).
 */
final class AdaptiveSpin
{
    /** A yield longer than this many {@code switchNs} ran a CPU hog's time slice, not a quick partner. */
    static final int HOG_FACTOR = 32;

    /** What a yield did. */
    static final int RETURNED = 0;
    static final int PARTNER = 1;
    static final int HOG = 2;

    private final int maxSpins;
    private volatile long switchNs;
    private int limit;
    private volatile int published;

    /**
     * @param maxSpins the configured spins, the most this ever allows (and what it allows when off).
     * @param switchNs yield duration above which another thread ran on our core; 0 = off (always {@code maxSpins}).
     */
    AdaptiveSpin(final int maxSpins, final long switchNs)
    {
        if (maxSpins < 0 || switchNs < 0)
        {
            throw new IllegalArgumentException("spins and switch threshold must be >= 0, got " + maxSpins + " and " +
                switchNs + " ns");
        }
        this.maxSpins = maxSpins;
        this.switchNs = switchNs;
        this.limit = maxSpins;
        this.published = maxSpins;
    }

    /** Any thread: changes the threshold; 0 turns adaptation off ({@code maxSpins} again from the next stretch). */
    void switchNs(final long ns)
    {
        if (ns < 0)
        {
            throw new IllegalArgumentException("switch threshold must be >= 0 ns, got " + ns);
        }
        switchNs = ns;
    }

    /** Engine thread: the spins of the next idle stretch. */
    int spins()
    {
        return limit;
    }

    /**
     * @return what a yield that took {@code yieldNs} did: {@link #RETURNED} at once, ran a quick {@link #PARTNER} on
     *         this core, or ran a {@link #HOG} for its slice.
     */
    int classify(final long yieldNs)
    {
        final long threshold = switchNs;
        if (threshold == 0 || yieldNs <= threshold)
        {
            return RETURNED;
        }
        return yieldNs <= threshold * HOG_FACTOR ? PARTNER : HOG;
    }

    /** @return whether yields need timing at all. */
    boolean enabled()
    {
        return switchNs > 0;
    }

    /**
     * Engine thread: an idle stretch ended with work (not after a park: a wait that long says nothing about spins).
     *
     * @param yields what its yields did: the bitwise or of {@code 1 << } {@link #classify} of each.
     */
    void stretchEnded(final int yields)
    {
        if (switchNs == 0)
        {
            set(maxSpins);
        }
        else if ((yields & 1 << PARTNER) != 0 && (yields & 1 << HOG) == 0)
        {
            set(limit >> 1);
        }
        else if (limit < maxSpins)
        {
            set(Math.min(maxSpins, Math.max(1, limit << 1)));
        }
    }

    /** Any thread: the current limit (for diagnostics and tests). */
    int limit()
    {
        return published;
    }

    private void set(final int value)
    {
        if (value != limit)
        {
            limit = value;
            published = value;
        }
    }
}
