package io.sirocco.multicast.predicate;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The state a {@link PredicateEngine}'s pass protocol shares between its engine thread ({@link EngineLoop}), inline
 * runners ({@link InlinePasses}) and the threads that ring its doorbell: the trigger list, the pass lock and the
 * flags paired with it. Kept in one place because each side reads what the others publish (see the class note of
 * {@link PredicateEngine}); the sides' own logic lives in their classes.
 *
 * <p>Concurrency: the fields are read and written directly by those classes. The volatile flags are the Dekker
 * pairs the protocol relies on ({@code parked} with {@code rung} and {@code pending}); {@code rungInPass} and
 * {@link #pass} belong to the pass lock's holder.
 */
final class PassState
{
    final TriggerList triggers = new TriggerList();
    /** Held by whichever thread runs a pass (the engine thread or an inline runner); see the class note. */
    final ReentrantLock passLock = new ReentrantLock();
    volatile boolean running = true;
    volatile boolean parked;
    volatile Throwable failure;
    /**
     * Set by {@link PredicateEngine#start()}: until then no inline pass runs (the owner is still registering triggers
     * and setting up what they read; a frame applied during a join must not run them early).
     */
    volatile boolean started;
    /** Set by an inline attempt before it tries the lock, cleared by a pass holder when its pass starts. */
    volatile boolean pending;
    /**
     * Set by {@link PredicateEngine#wake()} rung by a thread not running a pass; cleared by the engine thread when its
     * pass starts and re-checked before it parks.
     */
    volatile boolean rung;
    /** Pass-lock holder: {@link PredicateEngine#wake()} was rung inside the current pass (see {@link #pass}). */
    boolean rungInPass;
    /** See {@link PredicateEngine#eventDriven(boolean)}. */
    volatile boolean eventDriven;
    /** See {@link PredicateEngine#idleWait(IdleWait)}; null for timed parks. */
    volatile IdleWait idleWait;

    /**
     * One pass over the triggers, holding the pass lock.
     *
     * @param inline run by another thread than the engine's: skips the engine-only triggers.
     * @return whether a trigger reported progress.
     */
    boolean pass(final boolean inline)
    {
        triggers.applyChanges();
        rungInPass = false;
        final boolean progress = triggers.fire(inline);
        // Inline: a ring inside this pass (a commit) is work for the next pass of the same run, which the engine
        // thread is not woken for. The engine thread's own rings are not progress (its next idle pass serves them),
        // so a trigger that rings on every pass cannot keep it from parking.
        return progress || (inline && rungInPass);
    }
}
