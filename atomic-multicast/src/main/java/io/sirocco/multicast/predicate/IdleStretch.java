package io.sirocco.multicast.predicate;

/**
 * The idle policy of a {@link PredicateEngine}'s thread across one idle stretch (the passes since its last progress):
 * spin {@code spinPasses} passes (learned by {@link AdaptiveSpin} when adaptive), yield through the hot window
 * ({@link #spinWindowNs(long)}) and then {@code yieldPasses} passes, then park for 1 µs doubling up to the longest
 * park. The engine decides when to park and how (a timed park or its {@link IdleWait}); this class keeps the counts,
 * the clock reads of the hot window and the yields.
 *
 * <p><b>Threads.</b> Engine thread only, except {@link #spinWindowNs(long)}, {@link #adaptiveSpinNs(long)} and
 * {@link #currentSpins()} (any thread: a volatile field, and {@link AdaptiveSpin}'s own).
 */
final class IdleStretch
{
    private final int yieldPasses;
    private final long maxParkNs;
    private final long eventDrivenParkNs;
    private final AdaptiveSpin adaptive;
    private volatile long spinWindowNs;

    private int idle;
    private long parkNs = 1_000;
    private boolean hotStarted;
    /** Of the current idle stretch: what its yields did (AdaptiveSpin.classify bits), and whether it parked. */
    private int yields;
    private boolean parkedInStretch;
    private int spins;
    /** The current idle stretch's hot window ran out (reset by progress). */
    private boolean hotSpent;
    /** When the current idle stretch's hot window began. */
    private long hotStartNs;

    IdleStretch(final int spinPasses, final int yieldPasses, final long maxParkNs, final long eventDrivenParkNs)
    {
        this.yieldPasses = yieldPasses;
        this.maxParkNs = maxParkNs;
        this.eventDrivenParkNs = eventDrivenParkNs;
        this.adaptive = new AdaptiveSpin(spinPasses, 0);
    }

    /** Engine thread, as its loop starts: the first stretch's spins. */
    void begin()
    {
        spins = adaptive.spins();
    }

    /** Any thread: see {@link PredicateEngine#spinWindowNs(long)}. */
    void spinWindowNs(final long ns)
    {
        spinWindowNs = ns;
    }

    /** Any thread: see {@link PredicateEngine#adaptiveSpinNs(long)}. */
    void adaptiveSpinNs(final long switchNs)
    {
        adaptive.switchNs(switchNs);
    }

    /** Any thread: the spins the next idle stretch will make. */
    int currentSpins()
    {
        return adaptive.limit();
    }

    /** The longest sleep on an {@link IdleWait}: the event-driven bound, at least the longest park. */
    long longestSleepNs()
    {
        return Math.max(maxParkNs, eventDrivenParkNs);
    }

    /** The next timed park. */
    long parkNs()
    {
        return parkNs;
    }

    /** A pass made progress: the stretch ends (and teaches the adaptive spins, unless it parked). */
    void busy()
    {
        if ((idle > 0 || hotStarted) && !parkedInStretch)
        {
            adaptive.stretchEnded(yields);
        }
        restart();
    }

    /** Starts a busy stretch again, as after any progress. */
    private void restart()
    {
        spins = adaptive.spins();
        yields = 0;
        parkedInStretch = false;
        idle = 0;
        parkNs = 1_000;
        hotStarted = false;
        hotSpent = false;
    }

    /**
     * An idle pass after the spins, inside the hot window (not while event-driven): yields without counting the pass,
     * so a descheduled partner (the other end of a ping/pong) can run.
     *
     * @return whether it yielded (else the engine counts the pass).
     */
    boolean hotYield(final boolean eventDriven)
    {
        if (idle >= spins && !hotSpent && !eventDriven && inHotWindow(hotStarted))
        {
            hotStarted = true;
            yields |= yieldOnce();
            return true;
        }
        return false;
    }

    /**
     * Counts an idle pass. @return whether the stretch is past its spins and yields (at once with the idle gate): park.
     */
    boolean countIdleThenPark(final boolean gate)
    {
        if (++idle > (gate ? 0 : spins + yieldPasses))
        {
            parkedInStretch = true;
            return true;
        }
        return false;
    }

    /** After a park: work found after arming starts a busy stretch, else the next park doubles. */
    void parked(final boolean work, final boolean eventDriven)
    {
        if (work)
        {
            restart();
        }
        else
        {
            parkNs = Math.min(parkNs << 1, eventDriven ? longestSleepNs() : maxParkNs);
        }
    }

    /** An idle pass that does not park: yields past the spins, else spins. */
    void spinOrYield()
    {
        if (idle > spins)
        {
            yields |= yieldOnce();
        }
        else
        {
            Thread.onSpinWait();
        }
    }

    /**
     * {@code Thread.yield()}, timed when spins are adaptive.
     *
     * @return {@code 1 << AdaptiveSpin.classify} of the yield (RETURNED when not adaptive).
     */
    private int yieldOnce()
    {
        if (!adaptive.enabled())
        {
            Thread.yield();
            return 1 << AdaptiveSpin.RETURNED;
        }
        final long start = System.nanoTime();
        Thread.yield();
        return 1 << adaptive.classify(System.nanoTime() - start);
    }

    /**
     * On an idle pass after the spins: whether the idle stretch is still inside the hot window (which begins at the
     * first such pass). One clock read per such pass, none while busy; sets {@code hotSpent} when the window ran out
     * (or there is none).
     *
     * @param started whether the window of this idle stretch began already.
     */
    private boolean inHotWindow(final boolean started)
    {
        final long window = spinWindowNs;
        if (window == 0)
        {
            hotSpent = true;
            return false;
        }
        final long now = System.nanoTime();
        if (!started)
        {
            hotStartNs = now;
            return true;
        }
        if (now - hotStartNs < window)
        {
            return true;
        }
        hotSpent = true;
        return false;
    }
}
