package io.sirocco.multicast.predicate;

import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inline passes of a {@link PredicateEngine} (see its class note): a thread that just produced work runs the
 * inline-safe triggers itself when the pass lock is free, instead of waking the engine thread, and keeps passing
 * while the passes make progress (at most {@link #MAX_INLINE_PASSES}), inside the view's {@link InlineRun} hooks.
 *
 * <p>Concurrency: any thread calls {@link #tryRun}; the passes run under the pass lock of the shared
 * {@link PassState}. {@code inlinePasses} is written under that lock; {@code inlineBusy} is a racy statistic.
 */
final class InlinePasses
{
    private static final Logger LOG = LoggerFactory.getLogger(InlinePasses.class);

    /** Bound on the passes one {@link PredicateEngine#tryRunInline()} runs while they make progress. */
    private static final int MAX_INLINE_PASSES = 4;

    private final PassState state;
    /** The engine thread: named in the log, unparked when an inline pass stops the engine. */
    private final Thread engineThread;
    /** The engine's doorbell ({@link PredicateEngine#wake()}). */
    private final Runnable wake;
    /** The current view's {@link InlineRun} hooks, or null; set by the thread building a view. */
    private volatile InlineRun inlineRun;
    /** Passes run inline by other threads (statistics; written under the pass lock). */
    private long inlinePasses;
    /** Inline attempts that found the pass lock taken (statistics, racy). */
    private volatile long inlineBusy;

    InlinePasses(final PassState state, final Thread engineThread, final Runnable wake)
    {
        this.state = state;
        this.engineThread = engineThread;
        this.wake = wake;
    }

    void hooks(final InlineRun hooks)
    {
        inlineRun = hooks;
    }

    long inlinePasses()
    {
        return inlinePasses;
    }

    long inlineBusy()
    {
        return inlineBusy;
    }

    /** See {@link PredicateEngine#tryRunInline(Trigger)}. */
    boolean tryRun(final Trigger only)
    {
        if (state.passLock.isHeldByCurrentThread())
        {
            return true;
        }
        // Announce the work before trying the lock: a holder re-checks the flag after unlocking, so work announced
        // while it ran (past the trigger that would have seen it) is never left for a parked engine thread.
        state.pending = true;
        if (!state.started)
        {
            // The engine thread's first pass serves it.
            return false;
        }
        boolean ran = false;
        boolean more = false;
        Trigger next = only;
        while (state.pending && state.running && state.passLock.tryLock())
        {
            try
            {
                state.pending = false;
                if (!state.running)
                {
                    break;
                }
                more = runInline(next);
            }
            catch (final RuntimeException | Error t)
            {
                // What the engine thread does with a trigger's exception: record it and stop running passes.
                state.failure = t;
                state.running = false;
                LOG.error("predicate engine {} stopped by an exception in a pass run inline on thread {}",
                    engineThread.getName(), Thread.currentThread().getName(), t);
                LockSupport.unpark(engineThread);
                return true;
            }
            finally
            {
                state.passLock.unlock();
            }
            ran = true;
            // A further round serves work another thread announced meanwhile: every inline-safe trigger.
            next = null;
        }
        if (!ran)
        {
            inlineBusy++;
        }
        if (!ran || more)
        {
            // The holder sees the flag; the engine thread carries on if it was parked or work remains.
            wake.run();
        }
        return ran;
    }

    /**
     * Under the pass lock, on an inline runner: runs {@code next} once, or (null) passes over every inline-safe
     * trigger while they make progress, at most {@link #MAX_INLINE_PASSES}, inside the view's {@link InlineRun}.
     *
     * @return whether work remains: the last pass made progress, or the doorbell rang during the run.
     */
    private boolean runInline(final Trigger next)
    {
        boolean more = false;
        if (next != null)
        {
            state.triggers.applyChanges();
            state.rungInPass = false;
            next.fire();
            inlinePasses++;
        }
        else
        {
            final InlineRun run = inlineRun;
            if (run != null)
            {
                run.begin();
            }
            try
            {
                for (int i = 0; i < MAX_INLINE_PASSES && (more = state.pass(true)); i++)
                {
                    inlinePasses++;
                }
            }
            finally
            {
                if (run != null)
                {
                    run.end();
                }
            }
        }
        // A ring that no pass of this run followed (the end hook deferred a frame, the pass bound was hit):
        // the engine thread serves it, woken by the caller.
        return more | state.rungInPass;
    }
}
