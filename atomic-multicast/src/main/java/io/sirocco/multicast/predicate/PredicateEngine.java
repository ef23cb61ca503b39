package io.sirocco.multicast.predicate;

import io.sirocco.multicast.config.MulticastSettings;
import io.sirocco.transport.agent.Agents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

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
 * it unparks the thread only when it is parked (a volatile flag), so ringing is cheap, and never when rung by the
 * thread running a pass (that pass, or the next one of the same inline run, serves it).
 * With an {@link IdleWait} ({@link #idleWait(IdleWait)}: on shm a futex word in the shared table, which the other
 * members' pushes ring across processes) the thread sleeps on that bell instead of a timed park: it arms it, runs one
 * more pass, and sleeps only if that pass found nothing, up to {@value #EVENT_DRIVEN_PARK_PROP} (at least
 * {@code maxParkNs}); a bell that cannot sleep (no futex) falls back to the timed park.
 *
 * <p><b>Threading.</b> {@link #register} and {@link #remove} may be called from any thread; the changes are applied by
 * the thread running the next pass, at its start. Triggers registered from inside a trigger also take effect next
 * pass.
 *
 * <p><b>Inline passes.</b> A pass runs under the pass lock, so triggers run one thread at a time and each pass sees
 * everything the previous one did (the lock's happens-before): "confined to the predicate thread" means "confined to
 * the pass lock's holder". Besides the engine thread, a thread that just produced work (a transport's receiving
 * thread that applied a frame, an application thread that committed) may run a pass itself with
 * {@link #tryRunInline()} when the lock is free, instead of waking the engine thread: one thread hand-off less per
 * hop. An inline pass runs only the triggers registered as inline-safe (every trigger except those registered with
 * {@link #registerEngineOnly}, such as membership changes, which may block or close transports); it never waits for
 * the lock, and a nested call (from inside a trigger) does nothing, the pass in progress covers it.
 * {@link #onEngineThread()} is true for any thread running a pass.
 *
 * <p><b>Where the parts live.</b> The pass lock and the flags paired with it ({@code pending}, {@code rung},
 * {@code parked}, {@code running}) form one protocol between the engine thread, inline runners and ringers; they are
 * kept together in {@link PassState}. The engine thread's loop and idle policy are {@link EngineLoop} (its counts
 * {@link IdleStretch}), the inline passes {@link InlinePasses}, the trigger list {@link TriggerList}. This class is
 * the API and the doorbell.
 *
 * <p><b>Why not an Agrona {@code Agent}.</b> The thread comes from {@link Agents#threadFactory} (a named daemon
 * platform thread, {@code sirocco-<role>}), but its loop stays in {@link EngineLoop} rather than an
 * {@code AgentRunner}: its idle policy is not a function of the work count alone. It parks only after re-checking,
 * with {@code parked} published, the doorbell flags and the trigger queues (a Dekker pair with {@link #wake()}),
 * sleeps on the view's {@link IdleWait} after one more pass run between arming and sleeping, counts a pass that found
 * the pass lock taken as idle while an inline attempt's {@code pending} counts as work, and learns its spins from the
 * yields of the stretch that just ended ({@link AdaptiveSpin}). An {@code IdleStrategy} sees none of that, so
 * wrapping the loop would change its timing and lose wake-ups. A trigger's exception also stops this engine (its
 * {@link #failure()} is the member's death), where an {@code AgentRunner} logs and carries on.
 */
public final class PredicateEngine implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(PredicateEngine.class);

    /** The pass protocol's shared state: triggers, pass lock and flags (see the class note). */
    private final PassState state = new PassState();
    private final TriggerList triggers = state.triggers;
    private final ReentrantLock passLock = state.passLock;
    /** The engine thread's loop and idle policy. */
    private final EngineLoop loop;
    private final IdleStretch stretch;
    private final Thread thread;
    private final InlinePasses inline;

    /**
     * System property (default true): while the group is event-driven ({@link #eventDriven(boolean)}), an idle engine
     * thread parks right after its first idle pass instead of spinning {@code spinPasses} and yielding
     * {@code yieldPasses} passes first. Every pass takes the pass lock, so those idle passes (2 200 by default, after
     * every pass with progress, such as a heartbeat it sent) made frames arriving meanwhile find the lock held: the
     * engine thread then served their hop instead of the receiving thread, and they cost CPU on a small host
     * (docs/benchmarks.md, "Over tcp: where an awake hop goes, and the idle gate"). Event-driven work arrives through
     * the receiving thread's inline passes or rings the doorbell, so the spins found nothing the parks would miss. False
     * restores the spins and yields.
     */
    public static final String EVENT_DRIVEN_IDLE_GATE_PROP = MulticastSettings.EVENT_DRIVEN_IDLE_GATE;

    /**
     * System property: the longest park of an idle predicate thread while its group is event-driven (see
     * {@link #eventDriven(boolean)}); bounds the delay of the work nobody rings for (heartbeats, registry polls).
     */
    public static final String EVENT_DRIVEN_PARK_PROP = MulticastSettings.EVENT_DRIVEN_PARK_NS;

    /**
     * @param role        the thread's role: it is named {@code sirocco-<role>} ({@link Agents#threadFactory}).
     * @param spinPasses  idle passes spent spinning before yielding.
     * @param yieldPasses idle passes spent yielding before parking.
     * @param maxParkNs   longest single park; bounds the latency of work nobody rings the doorbell for.
     */
    public PredicateEngine(final String role, final int spinPasses, final int yieldPasses, final long maxParkNs)
    {
        // Longest park while event-driven: EVENT_DRIVEN_PARK_PROP, default 1 ms.
        this.stretch = new IdleStretch(spinPasses, yieldPasses, maxParkNs,
            MulticastSettings.eventDrivenParkNs());
        // Not an Agrona Agent run by Agents.start (see the class note): only the thread comes from Agents.
        this.loop = new EngineLoop(state, stretch);
        this.thread = Agents.threadFactory(role).newThread(loop::run);
        this.inline = new InlinePasses(state, thread, this::wake);
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
        stretch.spinWindowNs(ns);
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
        stretch.adaptiveSpinNs(switchNs);
    }

    /** @return the spins the next idle stretch will make (any thread; {@code spinPasses} unless adaptive). */
    public int currentSpins()
    {
        return stretch.currentSpins();
    }

    public void start()
    {
        state.started = true;
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
        triggers.add(owner, kind, condition, trigger, true);
        ring();
    }

    /**
     * Registers a recurrent trigger that only the engine thread runs, never an inline pass (see the class note): for
     * triggers that may block, sleep or change what the other triggers are (membership and view changes).
     */
    public void registerEngineOnly(final Object owner, final Trigger trigger)
    {
        triggers.add(owner, PredicateKind.RECURRENT, () -> true, trigger, false);
        ring();
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
            triggers.markDead(owner);
        }
        triggers.remove(owner);
        ring();
    }

    /**
     * Declares whether the current view's pushes all arrive through a transport thread that runs the triggers itself
     * (tcp rows with inline receive passes): then nothing needs this thread to poll the table, so an idle pass skips
     * the hot window and parks up to {@value #EVENT_DRIVEN_PARK_PROP} (at least {@code maxParkNs}) instead of
     * competing for the cores with the threads that do the work. Any thread.
     *
     * @param on true when event-driven.
     */
    public void eventDriven(final boolean on)
    {
        state.eventDriven = on;
    }

    /**
     * Sets the bell an idle engine thread sleeps on instead of a timed park (see the class note), or null. Any
     * thread (the one building a view); takes effect at the next park.
     *
     * @param bell the current view's bell, or null.
     */
    public void idleWait(final IdleWait bell)
    {
        state.idleWait = bell;
    }

    /** Unsets {@code bell} if it is still the current one (a view closing after the next one set its own). */
    public void clearIdleWait(final IdleWait bell)
    {
        if (bell != null && state.idleWait == bell)
        {
            state.idleWait = null;
        }
    }

    /**
     * The doorbell. Rung by the thread running a pass (a listener's answer committed inside an inline pass), it wakes
     * nobody: the pass in progress is there to serve it, and an inline pass during which it rang counts as progress,
     * so the same run's next pass sends the answer. Unparking the engine thread there cost every tcp hop a futex wake
     * and, on a loaded core, a preemption of the receiving thread before its write (docs/benchmarks.md, "Over tcp
     * under load"). Rung by any other thread, it announces itself (re-checked by the engine thread before it parks,
     * so a ring between its last pass and its park is not lost) and unparks a parked engine thread.
     */
    public void wake()
    {
        if (passLock.isHeldByCurrentThread())
        {
            state.rungInPass = true;
            return;
        }
        ring();
    }

    /** Any thread: announces work to the engine thread and unparks it if it is parked (a Dekker pair with run()). */
    private void ring()
    {
        state.rung = true;
        if (state.parked)
        {
            final IdleWait bell = state.idleWait;
            if (bell != null)
            {
                bell.ring();
            }
            LockSupport.unpark(thread);
        }
    }

    /**
     * Whether the engine thread is parked: a committing thread pushes its own frame only then (waking the engine
     * costs more than the push); while the engine thread runs, it batches the commits it finds, as Spindle's send
     * batching needs.
     */
    public boolean isParked()
    {
        return state.parked;
    }

    /** Whether the caller runs a pass: it is the engine thread, or it runs an inline pass. */
    public boolean onEngineThread()
    {
        return Thread.currentThread() == thread || passLock.isHeldByCurrentThread();
    }

    /**
     * Runs the inline-safe triggers on the calling thread if no other thread runs a pass (see the class note), and
     * keeps running passes while they make progress (a bounded number), so that the work the first pass caused (a
     * listener's answer) goes out on this thread too. Never waits. When the lock is taken by another thread, rings the
     * doorbell instead (the holder may be past the trigger that would see the new work).
     *
     * @return true if this thread ran at least one pass, or is already inside one (a nested call: the pass in progress
     * covers the new work).
     */
    public boolean tryRunInline()
    {
        return tryRunInline(null);
    }

    /**
     * Like {@link #tryRunInline()}, but runs only {@code only} (once, however much progress it reports): for a caller
     * that knows which trigger its work needs (a committing thread: the send trigger and the end of pass).
     *
     * @param only the trigger to run, or null for passes over every inline-safe trigger.
     * @return true if this thread ran it, or is already inside a pass.
     */
    public boolean tryRunInline(final Trigger only)
    {
        return inline.tryRun(only);
    }

    /** Any thread: the hooks the next inline runs call (the current view's transport), or null for none. */
    public void inlineRun(final InlineRun hooks)
    {
        inline.hooks(hooks);
    }

    /** @return the number of passes run inline by other threads. */
    public long inlinePasses()
    {
        return inline.inlinePasses();
    }

    public Thread thread()
    {
        return thread;
    }

    /** @return the exception that stopped the engine, or null. */
    public Throwable failure()
    {
        return state.failure;
    }

    public long passes()
    {
        return loop.passes();
    }

    public long idleParks()
    {
        return loop.idleParks();
    }

    @Override
    public void close()
    {
        LOG.debug("predicate engine {}: {} passes on its thread, {} run inline, {} inline attempts found it busy",
            thread.getName(), loop.passes(), inline.inlinePasses(), inline.inlineBusy());
        state.running = false;
        final IdleWait bell = state.idleWait;
        if (bell != null)
        {
            bell.ring();
        }
        LockSupport.unpark(thread);
        if (Thread.currentThread() != thread)
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
        if (!passLock.isHeldByCurrentThread())
        {
            // Waits out an inline pass in progress (bounded like the join): the caller closes the transports next.
            // Later inline calls see !running.
            try
            {
                if (passLock.tryLock(10, TimeUnit.SECONDS))
                {
                    passLock.unlock();
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
