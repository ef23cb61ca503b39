package io.sirocco.pubsub.bus.group;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * RELIABLE topic subgroups: copies of this member's messages not yet delivered back to it, oldest first. In ORDERED
 * mode a member delivers its own message exactly when every member of the view does, so what is still here when a
 * new view is installed was removed by the view change's ragged trim and is sent again (readers drop duplicates by
 * writer sequence number).
 *
 * <p>A confirmed message is not dropped at once: {@link RetainedMessages} keeps it for members that left the view
 * without closing their readers, and puts it back in front of the unconfirmed ones when such a member returns.
 *
 * <p>Concurrency: the writers of the subgroup add (under their send locks), the predicate thread confirms and reports
 * members leaving and returning; every method holds this object's monitor. A pool of returned copies bounds
 * allocation.
 */
final class UnconfirmedMessages
{
    private final ArrayDeque<byte[]> unconfirmed = new ArrayDeque<>();
    private final ArrayDeque<byte[]> pool = new ArrayDeque<>();
    private final RetainedMessages retained;
    /** Whether {@code retained} keeps messages for a member away: read without the monitor by the re-send. */
    private volatile boolean retaining;

    /** @param lookback how many confirmed messages stay kept even while no member is away. */
    UnconfirmedMessages(final String channelName, final int lookback)
    {
        this.retained = new RetainedMessages(channelName, lookback);
    }

    /** A writer sent {@code length} bytes from {@code buffer}: keep a copy until it is delivered back. */
    synchronized void remember(final MemorySegment buffer, final int length)
    {
        byte[] copy = pool.pollFirst();
        if (copy == null || copy.length != length)
        {
            copy = new byte[length];
        }
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, copy, 0, length);
        unconfirmed.addLast(copy);
    }

    /** Predicate thread: this member's oldest message was delivered back to it. */
    synchronized void confirmOldest()
    {
        final byte[] done = unconfirmed.pollFirst();
        if (done != null)
        {
            retained.confirmed(done, pool);
        }
    }

    /** Predicate thread, at a view install: a member left while it had a reader of this topic. */
    synchronized void memberLeft(final long member, final long nowNs)
    {
        retained.left(member, nowNs);
        retaining = true;
    }

    /**
     * Predicate thread, at a view install, before any writer sends in the new view: a member is back; what was kept
     * for it goes in front of the unconfirmed messages, so the view's re-send sends it first, in order.
     *
     * @return how many messages were put back.
     */
    synchronized int memberReturned(final long member, final long nowNs)
    {
        final List<byte[]> back = retained.returned(member, nowNs);
        for (int i = back.size() - 1; i >= 0; i--)
        {
            unconfirmed.addFirst(back.get(i));
        }
        retaining = retained.anyAway();
        return back.size();
    }

    /** Predicate thread, at a view install: gives up the members away for too long. */
    synchronized void expireAway(final long nowNs)
    {
        retained.expire(nowNs);
        retaining = retained.anyAway();
    }

    /** Whether messages are kept for a member away from the view (the re-send then waits for the view install). */
    boolean retaining()
    {
        return retaining;
    }

    synchronized int size()
    {
        return unconfirmed.size();
    }

    /** Takes every unconfirmed message, oldest first (to re-send them). */
    synchronized List<byte[]> takeAll()
    {
        final List<byte[]> all = new ArrayList<>(unconfirmed);
        unconfirmed.clear();
        return all;
    }

    /** Puts back the messages a re-send could not send, in order. */
    synchronized void restore(final List<byte[]> notSent)
    {
        unconfirmed.addAll(notSent);
    }
}
