package io.sirocco.pubsub.bus;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;

/**
 * The slots of a reader's receive window ({@link ReaderQueue}): a bounded ring of reusable {@link BusMessage}s
 * between {@code head} (the oldest not yet freed) and {@code tail}, and the overflow beyond it.
 *
 * <p><b>Overflow.</b> Messages that must be kept while the ring is full go to an overflow queue beyond the window,
 * moved into the ring (by reference, oldest first) as delivery frees slots. Two uses, both bounded: a reliable window
 * takes there what a view change's ragged trim delivers without asking (at most the subgroup's window times its
 * senders per view change, see docs/dds.md), and a KEEP_LAST best-effort window keeps there at most one message while
 * delivery holds every ring slot (it is that message that a later offer then replaces). Invariant: the overflow is
 * empty unless the ring is full.
 *
 * <p>Concurrency: not locked itself; every method but {@link #hasRoom()} runs under the owning queue's lock.
 * {@code head} and {@code tail} are also stored with release semantics so that {@link #hasRoom()} can read them
 * (acquire) without the lock: {@link #endDispatch} stores {@code tail} before {@code head}, and {@code hasRoom} loads
 * {@code head} first, so it never sees room the overflow has already taken. Release stores rather than volatile ones
 * keep the per-sample offer free of a full fence. Slots in {@code [head, dispatchEnd)} are being handed over by the
 * delivering thread outside the lock: nobody rewrites or moves them.
 */
final class ReaderRing
{
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(ReaderRing.class, "head", long.class);
            TAIL = lookup.findVarHandle(ReaderRing.class, "tail", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final BusMessage[] slots;
    private final ArrayDeque<BusMessage> overflow = new ArrayDeque<>();
    private final ArrayDeque<BusMessage> spare = new ArrayDeque<>();
    /** Written under the lock, with release ({@link #HEAD}, {@link #TAIL}); see the class comment. */
    private long head;
    private long tail;
    /** End of the slots being handed over; {@code head} when none are. */
    private long dispatchEnd;

    ReaderRing(final int window, final int initialSlotBytes)
    {
        this.slots = new BusMessage[Math.max(2, window)];
        for (int i = 0; i < slots.length; i++)
        {
            slots[i] = new BusMessage(initialSlotBytes);
        }
    }

    /** Whether the ring has a free slot; no lock. */
    boolean hasRoom()
    {
        final long h = (long)HEAD.getAcquire(this);
        return (long)TAIL.getAcquire(this) - h < slots.length;
    }

    boolean full()
    {
        return tail - head == slots.length;
    }

    boolean empty()
    {
        return tail == head;
    }

    long tail()
    {
        return tail;
    }

    /** The position after the last message kept, the overflow included. */
    long end()
    {
        return tail + overflow.size();
    }

    /** Copies the message into the tail slot (the ring is not full). */
    void append(final BusMessage message)
    {
        slots[(int)(tail % slots.length)].copyFrom(message);
        TAIL.setRelease(this, tail + 1);
    }

    /** Ring full: appends a copy of the message to the overflow. */
    void keepInOverflow(final BusMessage message)
    {
        BusMessage copy = spare.pollFirst();
        if (copy == null)
        {
            copy = new BusMessage(message.payloadLength());
        }
        copy.copyFrom(message);
        overflow.addLast(copy);
    }

    /**
     * Ring full, KEEP_LAST best effort: makes room for the new message by dropping the oldest one not yet handed to
     * the reader. When delivery holds every ring slot, the newest message waits in the overflow (one at most: a later
     * offer replaces it).
     *
     * @return whether a message was dropped (the caller counts it).
     */
    boolean dropOldest(final BusMessage message)
    {
        final int n = slots.length;
        if (dispatchEnd == head)
        {
            // Nobody is handing slots over: the oldest is at head, and its slot is the next tail slot.
            slots[(int)(head % n)].copyFrom(message);
            TAIL.setRelease(this, tail + 1);
            HEAD.setRelease(this, head + 1);
            dispatchEnd = head;
            return true;
        }
        if (dispatchEnd < tail)
        {
            // Drop the oldest slot after the ones being handed over: shift the later ones down (by reference).
            final BusMessage victim = slots[(int)(dispatchEnd % n)];
            for (long j = dispatchEnd; j < tail - 1; j++)
            {
                slots[(int)(j % n)] = slots[(int)((j + 1) % n)];
            }
            victim.copyFrom(message);
            slots[(int)((tail - 1) % n)] = victim;
            return true;
        }
        if (overflow.isEmpty())
        {
            keepInOverflow(message);
            return false;
        }
        overflow.peekLast().copyFrom(message);
        return true;
    }

    /** Starts handing over every full slot: returns the first position; {@link #dispatchEnd()} is the end. */
    long beginDispatch()
    {
        dispatchEnd = tail;
        return head;
    }

    long dispatchEnd()
    {
        return dispatchEnd;
    }

    /** The message at a position being handed over (outside the lock). */
    BusMessage slot(final long position)
    {
        return slots[(int)(position % slots.length)];
    }

    /**
     * Frees the slots handed over up to {@code to} and refills them from the overflow, by reference; {@code tail} is
     * stored before {@code head} ({@link #hasRoom()}).
     */
    void endDispatch(final long to)
    {
        long t = tail;
        while (!overflow.isEmpty() && t - to < slots.length)
        {
            final int pos = (int)(t % slots.length);
            spare.addLast(slots[pos]);
            slots[pos] = overflow.pollFirst();
            t++;
        }
        TAIL.setRelease(this, t);
        HEAD.setRelease(this, to);
        dispatchEnd = to;
    }
}
