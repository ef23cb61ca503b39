package io.sirocco.pubsub.core;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The WaitSets a condition is attached to. Attach/detach are rare (application threads); {@link #signal()} runs
 * on whichever thread changed the condition's trigger (delivery, discovery or application) and only reads the
 * copy-on-write array, so it takes no lock of the condition's.
 */
public final class WaitSetLinks
{
    private final CopyOnWriteArrayList<WaitSetWaker> waitSets = new CopyOnWriteArrayList<>();

    void attach(final WaitSetWaker waitSet)
    {
        waitSets.addIfAbsent(waitSet);
    }

    void detach(final WaitSetWaker waitSet)
    {
        waitSets.remove(waitSet);
    }

    public boolean isEmpty()
    {
        return waitSets.isEmpty();
    }

    /** Wakes every attached WaitSet so that it re-evaluates its conditions. */
    public void signal()
    {
        for (final WaitSetWaker waitSet : waitSets)
        {
            waitSet.wakeUp();
        }
    }
}
