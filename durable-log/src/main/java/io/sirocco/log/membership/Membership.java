package io.sirocco.log.membership;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The current set of live members as the durable log sees it, with join/leave events. The feeder (tests now, the
 * atomic-multicast view change later) calls {@link #join}/{@link #leave}; listeners run on the feeder's thread.
 * Thread-safe: the member set is replaced copy-on-write under this object's monitor (control path only).
 */
public final class Membership
{
    private volatile SortedSet<Integer> members = new TreeSet<>();
    private final List<MembershipListener> listeners = new CopyOnWriteArrayList<>();

    public SortedSet<Integer> members()
    {
        return members;
    }

    public void addListener(final MembershipListener listener)
    {
        listeners.add(listener);
    }

    public void join(final int member)
    {
        synchronized (this)
        {
            final TreeSet<Integer> next = new TreeSet<>(members);
            if (!next.add(member))
            {
                return;
            }
            members = java.util.Collections.unmodifiableSortedSet(next);
        }
        for (final MembershipListener listener : new ArrayList<>(listeners))
        {
            listener.onMemberJoined(member);
        }
    }

    public void leave(final int member)
    {
        synchronized (this)
        {
            final TreeSet<Integer> next = new TreeSet<>(members);
            if (!next.remove(member))
            {
                return;
            }
            members = java.util.Collections.unmodifiableSortedSet(next);
        }
        for (final MembershipListener listener : new ArrayList<>(listeners))
        {
            listener.onMemberLeft(member);
        }
    }
}
