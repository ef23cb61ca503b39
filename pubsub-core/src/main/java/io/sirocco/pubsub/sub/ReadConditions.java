package io.sirocco.pubsub.sub;

import java.util.ArrayList;

/**
 * A DataReader's ReadConditions, signalled (their WaitSets woken) when data arrives or a read or take changes what
 * they select.
 *
 * <p>Concurrency: added and removed by application threads, signalled by the delivery thread and by readers and
 * takers, under no reader lock. Changes are made under this object's monitor and published as a new array through a
 * volatile field, so {@link #signalAll} walks a snapshot without a lock and without an iterator.
 */
final class ReadConditions
{
    private static final Object[] NONE = new Object[0];

    /** Guarded by {@code this}. */
    private final ArrayList<ReadConditionImpl<?>> conditions = new ArrayList<>();
    /** Snapshot of {@code conditions}; replaced on every change. */
    private volatile Object[] snapshot = NONE;

    synchronized void add(final ReadConditionImpl<?> condition)
    {
        conditions.add(condition);
        snapshot = conditions.toArray();
    }

    synchronized void remove(final ReadConditionImpl<?> condition)
    {
        conditions.remove(condition);
        snapshot = conditions.toArray();
    }

    synchronized void clear()
    {
        conditions.clear();
        snapshot = NONE;
    }

    boolean isEmpty()
    {
        return snapshot.length == 0;
    }

    /** Wakes the WaitSets of every condition. */
    void signalAll()
    {
        final Object[] current = snapshot;
        for (int i = 0; i < current.length; i++)
        {
            ((ReadConditionImpl<?>)current[i]).links().signal();
        }
    }
}
