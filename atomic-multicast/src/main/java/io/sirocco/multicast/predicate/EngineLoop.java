package io.sirocco.multicast.predicate;

import java.util.concurrent.locks.LockSupport;

import io.sirocco.multicast.config.MulticastSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop of a {@link PredicateEngine}'s own thread and its idle policy (see the engine's class note): a pass when
 * the pass lock is free, then spins, yields (with the hot window), and parks, timed or on the view's
 * {@link IdleWait} bell after one more pass. The counts of the idle stretch are in {@link IdleStretch}.
 *
 * <p>Concurrency: {@link #run} runs on the engine thread only, and so do {@code passes} and {@code idleParks}'
 * writes (read racily as statistics). The protocol's shared flags are in {@link PassState}.
 */
final class EngineLoop
{
    private static final Logger LOG = LoggerFactory.getLogger(EngineLoop.class);

    private final PassState state;
    /** Engine thread: the idle policy's counts (see the class note). */
    private final IdleStretch stretch;
    /** {@code EVENT_DRIVEN_IDLE_GATE_PROP}: while event-driven, park after the first idle pass (no spins or yields). */
    private final boolean idleGate = MulticastSettings.eventDrivenIdleGate();
    private long passes;
    private long idleParks;

    EngineLoop(final PassState state, final IdleStretch stretch)
    {
        this.state = state;
        this.stretch = stretch;
    }

    long passes()
    {
        return passes;
    }

    long idleParks()
    {
        return idleParks;
    }

    /** The engine thread's body, until the engine closes or a trigger throws. */
    void run()
    {
        stretch.begin();
        try
        {
            while (state.running)
            {
                boolean progress = false;
                // Another thread runs an inline pass: this one counts as an idle pass.
                if (state.passLock.tryLock())
                {
                    try
                    {
                        state.pending = false;
                        state.rung = false;
                        progress = state.pass(false);
                    }
                    finally
                    {
                        state.passLock.unlock();
                    }
                }
                // Work announced by an inline attempt that found the lock taken: pass again at once.
                progress |= state.pending;
                passes++;
                if (progress)
                {
                    stretch.busy();
                }
                else if (!stretch.hotYield(state.eventDriven))
                {
                    // Hot: after the spins, hotYield yields (without counting passes) until the window since the
                    // first yield ran out; yielding lets a descheduled partner (the other end of a ping/pong) run.
                    if (stretch.countIdleThenPark(state.eventDriven && idleGate))
                    {
                        park();
                    }
                    else
                    {
                        stretch.spinOrYield();
                    }
                }
            }
        }
        catch (final Throwable t)
        {
            state.failure = t;
            LOG.error("predicate thread {} stopped by an exception", Thread.currentThread().getName(), t);
        }
    }

    /** Engine thread, idle past its spins and yields: one park, timed or on the view's bell. */
    private void park()
    {
        state.parked = true;
        boolean work = false;
        // Re-checked after publishing "parked" (a Dekker pair with wake()'s read of it).
        if (!state.triggers.changesPending() && !state.pending && !state.rung)
        {
            final IdleWait bell = state.idleWait;
            if (bell == null)
            {
                LockSupport.parkNanos(this, stretch.parkNs());
            }
            else
            {
                work = sleepOnBell(bell, stretch.parkNs());
            }
        }
        state.parked = false;
        idleParks++;
        // Work found by the pass after arming: a busy stretch again, as after any progress.
        stretch.parked(work, state.eventDriven);
    }

    /**
     * Engine thread, idle: sleeps on {@code bell} (the {@link IdleWait} protocol): arms it, runs one more pass (the
     * look that a ringer who saw the bell unarmed relies on), and sleeps only if that pass found nothing, up to the
     * event-driven bound; a bell that cannot sleep falls back to a timed park of {@code parkNs}.
     *
     * @return whether the pass after arming made progress (or another thread announced work).
     */
    private boolean sleepOnBell(final IdleWait bell, final long parkNs)
    {
        final int token = bell.arm();
        try
        {
            boolean work = state.pending;
            if (!work)
            {
                if (state.passLock.tryLock())
                {
                    try
                    {
                        work = state.pass(false);
                    }
                    finally
                    {
                        state.passLock.unlock();
                    }
                    passes++;
                }
                else
                {
                    // Another thread runs a pass: look again rather than sleep past what it leaves.
                    work = true;
                }
            }
            // A pass that installed a new view closed this bell's table: never sleep on an unmapped word.
            work |= state.pending || state.triggers.changesPending() || !state.running || state.idleWait != bell;
            if (!work && !bell.await(token, stretch.longestSleepNs()))
            {
                LockSupport.parkNanos(this, parkNs);
            }
            return work;
        }
        finally
        {
            bell.disarm();
        }
    }
}
