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
 * <p>Concurrency: the writers of the subgroup add (under their send locks), the predicate thread confirms; every
 * method holds this object's monitor. A pool of returned copies bounds allocation.
 */
final class UnconfirmedMessages
{
    private final ArrayDeque<byte[]> unconfirmed = new ArrayDeque<>();
    private final ArrayDeque<byte[]> pool = new ArrayDeque<>();

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
            pool.addLast(done);
        }
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
