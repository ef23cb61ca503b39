package io.sirocco.multicast.predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The one platform thread of a group in a process: evaluates every registered predicate in registration order and
 * runs the triggers of those that hold. Nothing here knows the transport underneath.
 *
 * <p><b>Idle policy.</b> A pass in which no trigger reported progress counts as idle. After {@code spinPasses} idle
 * passes it yields; with a hot window ({@link #spinWindowNs(long)}, default 0) it keeps yielding until that long after
 * its first yield, so a hot exchange (a ping/pong) never pays a wake-up while a descheduled partner can still run;
 * after {@code yieldPasses} more it parks, for 1 µs doubling up to {@code maxParkNs}. Any progress resets the policy.
 * Only progress (work done) arms the window; a trigger that merely checked something does not.
 * With {@link #adaptiveSpinNs(long)} set, the spins are learned ({@link AdaptiveSpin}): a yield that took longer than
 * that handed our core to another thread that soon handed it back, so a stretch that ended with work after such a yield
 * halves the spins (a partner on the same core cannot answer while we spin) and other stretches double them back up to
 * {@code spinPasses}.
 * {@link #wake()} is the doorbell: application threads ring it on commit, in-JVM transports when they landed a push;
 * it unparks the thread only when it is parked (a volatile flag), so ringing is cheap.
 *
 * <p><b>Threading.</b> {@link #register} and {@link #remove} may be called from any thread; the changes are applied by
 * the engine thread at the start of its next pass. Triggers registered by the engine thread itself (from inside a
 * trigger) also take effect next pass.
 */
public final class PredicateEngine implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(PredicateEngine.class);

    private final ArrayList<Entry> entries = new ArrayList<>();
    private final ConcurrentLinkedQueue<Entry> added = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Object> removed = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private final int spinPasses;
    private final int yieldPasses;
    private final long maxParkNs;
    private volatile boolean running = true;
    private volatile boolean parked;
    private volatile long spinWindowNs;
    private final AdaptiveSpin adaptive;
    private volatile Throwable failure;
    private long passes;
    private long idleParks;

    /**
     * @param name        thread name.
     * @param spinPasses  idle passes spent spinning before yielding.
     * @param yieldPasses idle passes spent yielding before parking.
     * @param maxParkNs   longest single park; bounds the latency of work nobody rings the doorbell for.
     */
    public PredicateEngine(final String name, final int spinPasses, final int yieldPasses, final long maxParkNs)
    {
        this.spinPasses = spinPasses;
        this.yieldPasses = yieldPasses;
        this.maxParkNs = maxParkNs;
        this.adaptive = new AdaptiveSpin(spinPasses, 0);
        this.thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this::run);
    }

    /**
     * Sets the hot window: how long, after its spins, an idle thread keeps yielding (counted from its first yield)
     * before the yield/park policy resumes. Any thread; takes effect at the next idle pass.
     *
     * @param ns window in nanoseconds, 0 for none.
     */
    public void spinWindowNs(final long ns)
    {
        if (ns < 0)
        {
            throw new IllegalArgumentException("predicate thread " + thread.getName() +
                ": spin window must be >= 0 ns, got " + ns);
        }
        spinWindowNs = ns;
    }

    /**
     * Turns adaptive spinning on ({@link AdaptiveSpin}) or off. Any thread; takes effect at the next idle stretch.
     *
     * @param switchNs a yield longer than this counts as having let another thread run on our core; 0 = off (always
     *                 {@code spinPasses} spins, the default).
     */
    public void adaptiveSpinNs(final long switchNs)
    {
        if (switchNs < 0)
        {
            throw new IllegalArgumentException("predicate thread " + thread.getName() +
                ": adaptive spin threshold must be >= 0 ns, got " + switchNs);
        }
        adaptive.switchNs(switchNs);
    }

    /** @return the spins the next idle stretch will make (any thread; {@code spinPasses} unless adaptive). */
    public int currentSpins()
    {
        return adaptive.limit();
    }

    public void start()
    {
        thread.start();
    }

    /**
     * Registers a predicate/trigger pair.
     *
     * @param owner     key to remove it (and every other pair of the same owner) later.
     * @param kind      one-time, recurrent or transition.
     * @param condition the predicate.
     * @param trigger   the action.
     */
    public void register(final Object owner, final PredicateKind kind, final Condition condition, final Trigger trigger)
    {
        added.add(new Entry(owner, kind, condition, trigger));
        wake();
    }

    /** Registers a recurrent trigger whose own code decides whether there is work (Spindle's "predicate true"). */
    public void register(final Object owner, final Trigger trigger)
    {
        register(owner, PredicateKind.RECURRENT, () -> true, trigger);
    }

    /** Removes every pair registered with this owner (applied at the next pass). */
    public void remove(final Object owner)
    {
        if (onEngineThread())
        {
            // Removed from inside a trigger (a view change): the rest of this pass must not run them any more.
            for (int i = 0; i < entries.size(); i++)
            {
                if (entries.get(i).owner == owner)
                {
                    entries.get(i).dead = true;
                }
            }
        }
        removed.add(owner);
        wake();
    }

    /** The doorbell. */
    public void wake()
    {
        if (parked)
        {
            LockSupport.unpark(thread);
        }
    }

    public boolean onEngineThread()
    {
        return Thread.currentThread() == thread;
    }

    public Thread thread()
    {
        return thread;
    }

    /** @return the exception that stopped the engine, or null. */
    public Throwable failure()
    {
        return failure;
    }

    public long passes()
    {
        return passes;
    }

    public long idleParks()
    {
        return idleParks;
    }

    private void run()
    {
        int idle = 0;
        long parkNs = 1_000;
        boolean hotStarted = false;
        // Of the current idle stretch: what its yields did (AdaptiveSpin.classify bits), and whether it parked.
        int yields = 0;
        boolean parkedInStretch = false;
        int spins = adaptive.spins();
        try
        {
            while (running)
            {
                applyChanges();
                boolean progress = false;
                for (int i = 0; i < entries.size(); i++)
                {
                    final Entry e = entries.get(i);
                    if (e.dead)
                    {
                        continue;
                    }
                    final boolean holds = e.condition.holds();
                    switch (e.kind)
                    {
                        case RECURRENT ->
                        {
                            if (holds)
                            {
                                progress |= e.trigger.fire();
                            }
                        }
                        case ONE_TIME ->
                        {
                            if (holds)
                            {
                                e.dead = true;
                                e.trigger.fire();
                                progress = true;
                            }
                        }
                        case TRANSITION ->
                        {
                            if (holds && !e.lastHeld)
                            {
                                progress |= e.trigger.fire();
                            }
                            e.lastHeld = holds;
                        }
                    }
                }
                passes++;
                if (progress)
                {
                    if ((idle > 0 || hotStarted) && !parkedInStretch)
                    {
                        adaptive.stretchEnded(yields);
                    }
                    spins = adaptive.spins();
                    yields = 0;
                    parkedInStretch = false;
                    idle = 0;
                    parkNs = 1_000;
                    hotStarted = false;
                    hotSpent = false;
                }
                else if (idle >= spins && !hotSpent && inHotWindow(hotStarted))
                {
                    hotStarted = true;
                    // Hot: after the spins, yield (without counting passes) until the window since the first yield
                    // ran out; yielding lets a descheduled partner (the other end of a ping/pong) run.
                    yields |= yieldOnce();
                }
                else if (++idle > spins + yieldPasses)
                {
                    parkedInStretch = true;
                    parked = true;
                    if (added.isEmpty() && removed.isEmpty())
                    {
                        LockSupport.parkNanos(this, parkNs);
                    }
                    parked = false;
                    idleParks++;
                    parkNs = Math.min(parkNs << 1, maxParkNs);
                }
                else if (idle > spins)
                {
                    yields |= yieldOnce();
                }
                else
                {
                    Thread.onSpinWait();
                }
            }
        }
        catch (final Throwable t)
        {
            failure = t;
            LOG.error("predicate thread {} stopped by an exception", thread.getName(), t);
        }
    }

    /**
     * Engine thread: {@code Thread.yield()}, timed when spins are adaptive.
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

    /** Engine thread: the current idle stretch's hot window ran out (reset by progress). */
    private boolean hotSpent;
    /** Engine thread: when the current idle stretch's hot window began. */
    private long hotStartNs;

    /**
     * Engine thread, on an idle pass after the spins: whether the idle stretch is still inside the hot window (which
     * begins at the first such pass). One clock read per such pass, none while busy; sets {@code hotSpent} when the
     * window ran out (or there is none).
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

    private void applyChanges()
    {
        Entry e;
        while ((e = added.poll()) != null)
        {
            entries.add(e);
        }
        Object owner;
        while ((owner = removed.poll()) != null)
        {
            final Object o = owner;
            entries.removeIf(x -> x.owner == o);
        }
        entries.removeIf(x -> x.dead);
    }

    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
        if (!onEngineThread())
        {
            try
            {
                thread.join(10_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static final class Entry
    {
        final Object owner;
        final PredicateKind kind;
        final Condition condition;
        final Trigger trigger;
        boolean lastHeld;
        boolean dead;

        Entry(final Object owner, final PredicateKind kind, final Condition condition, final Trigger trigger)
        {
            this.owner = owner;
            this.kind = kind;
            this.condition = condition;
            this.trigger = trigger;
        }
    }
}
