package io.sirocco.transport.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded lock-free queue for many producers and many consumers that allocates nothing after construction
 * (Vyukov's sequence-per-cell array queue). Each cell carries a sequence: a producer that wins the tail CAS writes
 * the element plainly and then publishes it with a release store of the cell sequence; a consumer acquires the
 * sequence before reading the element, and releases the cell back by storing {@code index + capacity}.
 */
public final class MpmcArrayQueue<E>
{
    private static final VarHandle SEQUENCES = MethodHandles.arrayElementVarHandle(long[].class);

    private final int mask;
    private final long capacity;
    private final long[] sequences;
    private final Object[] elements;
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();

    public MpmcArrayQueue(final int capacity)
    {
        if (Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        this.mask = capacity - 1;
        this.capacity = capacity;
        this.sequences = new long[capacity];
        this.elements = new Object[capacity];
        for (int i = 0; i < capacity; i++)
        {
            sequences[i] = i;
        }
    }

    /** False if full. */
    public boolean offer(final E element)
    {
        while (true)
        {
            final long t = tail.get();
            final int index = (int)t & mask;
            final long sequence = (long)SEQUENCES.getAcquire(sequences, index);
            if (sequence == t)
            {
                if (tail.compareAndSet(t, t + 1))
                {
                    elements[index] = element;
                    SEQUENCES.setRelease(sequences, index, t + 1); // publishes the element
                    return true;
                }
            }
            else if (sequence < t)
            {
                return false;
            }
        }
    }

    /** Null if empty. */
    @SuppressWarnings("unchecked")
    public E poll()
    {
        while (true)
        {
            final long h = head.get();
            final int index = (int)h & mask;
            final long sequence = (long)SEQUENCES.getAcquire(sequences, index);
            if (sequence == h + 1)
            {
                if (head.compareAndSet(h, h + 1))
                {
                    final E element = (E)elements[index];
                    elements[index] = null;
                    SEQUENCES.setRelease(sequences, index, h + capacity); // frees the cell for the next lap
                    return element;
                }
            }
            else if (sequence < h + 1)
            {
                return null;
            }
        }
    }

    public boolean isEmpty()
    {
        return head.get() >= tail.get();
    }

    public int size()
    {
        return (int)Math.max(0, tail.get() - head.get());
    }
}
