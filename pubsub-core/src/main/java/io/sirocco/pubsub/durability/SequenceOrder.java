package io.sirocco.pubsub.durability;

import java.util.Arrays;

/**
 * Sorts a recovered history's table (three parallel arrays) by sequence number, with primitive sorts only: each row
 * becomes one long, its sequence number above its row index, when both fit (sequence numbers below 2^40, fewer than
 * 2^23 rows: a history of millions of samples); otherwise an index sort. A stateless helper.
 */
final class SequenceOrder
{
    private static final int INDEX_BITS = 23;

    private SequenceOrder()
    {
    }

    /** Reorders rows {@code [0, n)} of the three arrays so that {@code sequences} ascend. */
    static void sort(final long[] sequences, final long[] places, final int[] lengths, final int n)
    {
        final int[] order = order(sequences, n);
        final long[] s = Arrays.copyOf(sequences, n);
        final long[] p = Arrays.copyOf(places, n);
        final int[] l = Arrays.copyOf(lengths, n);
        for (int i = 0; i < n; i++)
        {
            sequences[i] = s[order[i]];
            places[i] = p[order[i]];
            lengths[i] = l[order[i]];
        }
    }

    /** The row indices in ascending order of sequence number. */
    private static int[] order(final long[] sequences, final int n)
    {
        final int[] order = new int[n];
        boolean packs = n < (1 << INDEX_BITS);
        for (int i = 0; i < n && packs; i++)
        {
            packs = sequences[i] >= 0 && sequences[i] < (1L << (63 - INDEX_BITS));
        }
        if (packs)
        {
            final long[] keys = new long[n];
            for (int i = 0; i < n; i++)
            {
                keys[i] = (sequences[i] << INDEX_BITS) | i;
            }
            Arrays.parallelSort(keys);
            for (int i = 0; i < n; i++)
            {
                order[i] = (int)(keys[i] & ((1 << INDEX_BITS) - 1));
            }
            return order;
        }
        final Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++)
        {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> Long.compareUnsigned(sequences[a], sequences[b]));
        for (int i = 0; i < n; i++)
        {
            order[i] = boxed[i];
        }
        return order;
    }
}
