package io.sirocco.multicast.predicate;

import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The predicate/trigger pairs of one {@link PredicateEngine}, in registration order, and one pass over them.
 *
 * <p><b>Threads.</b> Registrations and removals may come from any thread: they go through two concurrent queues and
 * are applied by the thread running the next pass, at its start ({@link #applyChanges()}). The list itself, and each
 * entry's {@code lastHeld} and {@code dead}, belong to the pass-lock holder (the engine's lock orders one pass after
 * the previous), so nothing here is locked.
 */
final class TriggerList
{
    private final ArrayList<Entry> entries = new ArrayList<>();
    private final ConcurrentLinkedQueue<Entry> added = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Object> removed = new ConcurrentLinkedQueue<>();

    /** Any thread: queues a pair for the next pass. */
    void add(final Object owner, final PredicateKind kind, final Condition condition, final Trigger trigger,
        final boolean inline)
    {
        added.add(new Entry(owner, kind, condition, trigger, inline));
    }

    /** Pass-lock holder: the rest of the current pass skips every pair of {@code owner}. */
    void markDead(final Object owner)
    {
        for (int i = 0; i < entries.size(); i++)
        {
            if (entries.get(i).owner == owner)
            {
                entries.get(i).dead = true;
            }
        }
    }

    /** Any thread: queues the removal of every pair of {@code owner} for the next pass. */
    void remove(final Object owner)
    {
        removed.add(owner);
    }

    /** Any thread: whether registrations or removals wait for the next pass. */
    boolean changesPending()
    {
        return !added.isEmpty() || !removed.isEmpty();
    }

    /** Pass-lock holder: applies the queued registrations and removals, and drops dead pairs. */
    void applyChanges()
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

    /**
     * Pass-lock holder: evaluates every live pair in order and fires the triggers whose predicates hold.
     *
     * @param inline run by another thread than the engine's: skips the engine-only triggers.
     * @return whether a trigger reported progress.
     */
    boolean fire(final boolean inline)
    {
        boolean progress = false;
        for (int i = 0; i < entries.size(); i++)
        {
            final Entry e = entries.get(i);
            if (e.dead || (inline && !e.inline))
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
        return progress;
    }

    private static final class Entry
    {
        final Object owner;
        final PredicateKind kind;
        final Condition condition;
        final Trigger trigger;
        boolean lastHeld;
        boolean dead;

        /** False for {@link PredicateEngine#registerEngineOnly} triggers. */
        final boolean inline;

        Entry(final Object owner, final PredicateKind kind, final Condition condition, final Trigger trigger,
            final boolean inline)
        {
            this.inline = inline;
            this.owner = owner;
            this.kind = kind;
            this.condition = condition;
            this.trigger = trigger;
        }
    }
}
