package io.sirocco.pubsub.sub.cache;

import java.util.Arrays;

/**
 * The instances of a reader's cache that hold samples, in handle order, so that a read or take visits those and not
 * every instance the reader has seen: with one new sample among 64 instances a take looks at one instance, not 64.
 *
 * <p>Invariant: every instance with at least one sample is in the array, once ({@link ReaderInstance#holding} says
 * whether it is). An instance that emptied stays in it until the next {@link #sweep} (the cache sweeps after a read or
 * take that emptied one); a visit of such an instance finds no sample, so a stale entry costs a look, never a wrong
 * answer. Handles grow as instances are created, so a new instance is appended; only an instance that held samples
 * before, emptied and is written again is inserted in the middle.
 *
 * <p>Concurrency: not thread-safe. It belongs to one {@link ReaderHistoryCache} and, like it, is only used under the
 * owning reader's lock. It allocates only when it grows past its largest size so far.
 */
final class HoldingInstances<T>
{
    private ReaderInstance<T>[] items = newArray(8);
    private int size;

    @SuppressWarnings("unchecked")
    private static <T> ReaderInstance<T>[] newArray(final int length)
    {
        return (ReaderInstance<T>[])new ReaderInstance<?>[length];
    }

    /** The instance now holds a sample: adds it in handle order unless it is already in. */
    void add(final ReaderInstance<T> instance)
    {
        if (instance.holding)
        {
            return;
        }
        instance.holding = true;
        if (size == items.length)
        {
            items = Arrays.copyOf(items, size * 2);
        }
        final int at = firstAfter(instance.handle);
        System.arraycopy(items, at, items, at + 1, size - at);
        items[at] = instance;
        size++;
    }

    int size()
    {
        return size;
    }

    ReaderInstance<T> get(final int index)
    {
        return items[index];
    }

    /** Index of the first instance with a handle above {@code handle} ({@link #size} if none). */
    int firstAfter(final long handle)
    {
        int low = 0;
        int high = size;
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (items[mid].handle <= handle)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        return low;
    }

    /** Drops the instances that hold no sample any more, keeping the order of the others. */
    void sweep()
    {
        int kept = 0;
        for (int i = 0; i < size; i++)
        {
            final ReaderInstance<T> instance = items[i];
            if (instance.samples.isEmpty())
            {
                instance.holding = false;
            }
            else
            {
                items[kept++] = instance;
            }
        }
        Arrays.fill(items, kept, size, null);
        size = kept;
    }
}
