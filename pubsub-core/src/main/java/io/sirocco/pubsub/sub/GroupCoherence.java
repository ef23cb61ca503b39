package io.sirocco.pubsub.sub;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.pubsub.bus.CoherentSetMark;

/**
 * A GROUP-scope Subscriber's coherent sets (PRESENTATION coherent_access, DDS 1.4 §2.2.3.6): a set of a Publisher
 * spans its writers of several topics, each in its own topic subgroup with its own total order, so the subscriber's
 * readers each hold their part ({@link Part}, one per reader and writer) until the writer's end mark, and this class
 * makes the set visible when every part it needs has arrived: the part of each listed writer in each reader that
 * receives that writer. A set with a part short of its count, or whose writer went away before its part ended, is
 * discarded whole. While an access is open ({@code beginAccess}), no set is applied, so the application sees the
 * readers unchanged until {@code endAccess}.
 *
 * <p>Concurrency: parts arrive from the readers' delivery threads under their readers' locks, through a lock-free
 * queue ({@code arrived}), so no reader lock is ever held while taking {@code lock}. {@link #settle} (a delivery
 * thread after its batch released its reader's lock, the discovery thread after a writer went away, or the thread
 * that ends an access) takes {@code lock}, and under it each reader's lock in turn ({@link Member}, {@link Part}):
 * the one lock order is this lock, then a reader's. Applying a set under this lock, reader by reader, makes an access
 * (which takes this lock to begin) see a set either in every reader or in none. The readers are told of new data
 * after the lock is released (their listeners run on the settling thread).
 */
public final class GroupCoherence
{
    /** A reader of this subscriber as the coherent sets see it. Each method takes the reader's lock. */
    interface Member
    {
        /** Whether the reader is matched with the writer now. */
        boolean receives(long writerGuid);

        /** Whether the writer was matched and went away (its unfinished parts were dropped). */
        boolean departed(long writerGuid);

        /** Outside every lock: the reader got new samples (statuses, WaitSets, listeners). */
        void applied();
    }

    /** One reader's part of a set: what one writer sent it in the set, held until the set is applied. */
    interface Part
    {
        Member member();

        long writerGuid();

        CoherentSetMark mark();

        /** Whether the reader holds as many messages of the writer as its mark counts. */
        boolean complete();

        /** Under the reader's lock (taken here): stores the held messages in the reader's cache. */
        void apply();

        /** Under the reader's lock (taken here): drops the held messages, counted as lost. */
        void discard();
    }

    /** What {@link #verdict} says of a pending set. */
    private static final int WAITING = 0;
    private static final int COMPLETE = 1;
    private static final int BROKEN = 2;

    /** A set: its publisher and number. */
    private record SetKey(long publisherGuid, long setNumber)
    {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final ConcurrentLinkedQueue<Part> arrived = new ConcurrentLinkedQueue<>();
    private final CopyOnWriteArrayList<Member> members = new CopyOnWriteArrayList<>();
    /** The sets with parts arrived, not yet applied or discarded; under {@code lock}. */
    private final Map<SetKey, List<Part>> pending = new HashMap<>();
    /** How many sets are pending: read without the lock to skip a settle with nothing to do. */
    private volatile int pendingCount;
    /** Open accesses (beginAccess without endAccess); under {@code lock}. */
    private int accesses;

    void join(final Member member)
    {
        members.add(member);
    }

    void leave(final Member member)
    {
        members.remove(member);
    }

    /** Any thread, any lock held: a reader's part ended (the writer's end mark arrived). */
    void offer(final Part part)
    {
        arrived.add(part);
    }

    /** No reader lock held: applies (or discards) every pending set that can be decided now. */
    void settle()
    {
        if (arrived.isEmpty() && pendingCount == 0)
        {
            return;
        }
        final Set<Member> changed = new HashSet<>();
        lock.lock();
        try
        {
            for (Part part = arrived.poll(); part != null; part = arrived.poll())
            {
                pending.computeIfAbsent(new SetKey(part.mark().publisherGuid(), part.mark().setNumber()),
                    k -> new ArrayList<>()).add(part);
            }
            if (accesses == 0)
            {
                decide(changed);
            }
            pendingCount = pending.size();
        }
        finally
        {
            lock.unlock();
        }
        for (final Member member : changed)
        {
            member.applied();
        }
    }

    /** Under {@code lock}: applies the complete sets, discards the broken ones, leaves the others pending. */
    private void decide(final Set<Member> changed)
    {
        for (final Iterator<List<Part>> it = pending.values().iterator(); it.hasNext(); )
        {
            final List<Part> parts = it.next();
            parts.removeIf(part -> !members.contains(part.member())); // a reader closed meanwhile
            final int verdict = parts.isEmpty() ? BROKEN : verdict(parts);
            if (verdict == WAITING)
            {
                continue;
            }
            it.remove();
            for (final Part part : parts)
            {
                if (verdict == COMPLETE)
                {
                    part.apply();
                }
                else
                {
                    part.discard();
                }
                changed.add(part.member()); // new samples, or lost ones to report
            }
        }
    }

    /**
     * Whether the set of these parts is complete: every part holds its count, and for every listed writer each reader
     * that receives it has its part; broken when a part is short or a listed writer went away from a reader before its
     * part arrived.
     */
    private int verdict(final List<Part> parts)
    {
        final CoherentSetMark mark = parts.get(0).mark();
        for (final Part part : parts)
        {
            if (!part.complete())
            {
                return BROKEN;
            }
        }
        for (int w = 0; w < mark.writerCount(); w++)
        {
            final long writer = mark.writer(w);
            for (final Member member : members)
            {
                if (!hasPart(parts, member, writer))
                {
                    if (member.departed(writer))
                    {
                        return BROKEN;
                    }
                    if (member.receives(writer))
                    {
                        return WAITING;
                    }
                }
            }
        }
        return COMPLETE;
    }

    private static boolean hasPart(final List<Part> parts, final Member member, final long writerGuid)
    {
        for (final Part part : parts)
        {
            if (part.member() == member && part.writerGuid() == writerGuid)
            {
                return true;
            }
        }
        return false;
    }

    /** beginAccess: from now until the matching {@link #endAccess}, no set is applied. */
    void beginAccess()
    {
        lock.lock();
        try
        {
            accesses++;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** endAccess: the sets completed during the access are applied now, on this thread. */
    void endAccess()
    {
        lock.lock();
        try
        {
            accesses = Math.max(0, accesses - 1);
            pendingCount = Math.max(pendingCount, 1); // settle looks, even with nothing newly arrived
        }
        finally
        {
            lock.unlock();
        }
        settle();
    }
}
