package io.sirocco.log.version;

import java.util.Arrays;

/**
 * Open-addressing hash table from an entry key (instance key hash, sequence) to one long value, with linear
 * probing and no per-entry objects. Grows by doubling when {@code maxFill} is passed, unless created fixed.
 * Not thread-safe: owned by one thread at a time (the flusher under the store's log lock, or a recovery/cleaner
 * thread for its private tables).
 */
public final class KeyTable
{
    private long[] keyHashes;
    private long[] sequences;
    private long[] values;
    private boolean[] used;
    private int mask;
    private int size;
    private int resizeAt;
    private final double maxFill;
    private final boolean growable;

    public KeyTable(final int initialCapacity, final double maxFill, final boolean growable)
    {
        final int capacity = Integer.highestOneBit(Math.max(16, initialCapacity - 1)) << 1;
        this.maxFill = maxFill;
        this.growable = growable;
        allocate(capacity);
    }

    private void allocate(final int capacity)
    {
        keyHashes = new long[capacity];
        sequences = new long[capacity];
        values = new long[capacity];
        used = new boolean[capacity];
        mask = capacity - 1;
        resizeAt = (int)(capacity * maxFill);
    }

    public int size()
    {
        return size;
    }

    public int capacity()
    {
        return mask + 1;
    }

    /** Whether a fixed-size table reached its fill limit. */
    public boolean full()
    {
        return size >= resizeAt;
    }

    private static int hash(final long keyHash, final long sequence)
    {
        long h = keyHash * 0x9E37_79B9_7F4A_7C15L ^ sequence * 0xC2B2_AE3D_27D4_EB4FL;
        h ^= h >>> 29;
        return (int)(h ^ (h >>> 32));
    }

    /** Slot holding the key, or the negative (-slot - 1) of the empty slot where it would go. */
    public int find(final long keyHash, final long sequence)
    {
        int slot = hash(keyHash, sequence) & mask;
        while (used[slot])
        {
            if (keyHashes[slot] == keyHash && sequences[slot] == sequence)
            {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return -slot - 1;
    }

    /** The value for a key, or {@code missing}. */
    public long get(final long keyHash, final long sequence, final long missing)
    {
        final int slot = find(keyHash, sequence);
        return slot >= 0 ? values[slot] : missing;
    }

    /** Sets a key's value; returns the slot. May grow (which moves slots). */
    public int put(final long keyHash, final long sequence, final long value)
    {
        int slot = find(keyHash, sequence);
        if (slot >= 0)
        {
            values[slot] = value;
            return slot;
        }
        if (size >= resizeAt && growable)
        {
            grow();
            slot = find(keyHash, sequence);
        }
        slot = -slot - 1;
        used[slot] = true;
        keyHashes[slot] = keyHash;
        sequences[slot] = sequence;
        values[slot] = value;
        size++;
        return slot;
    }

    /** Keeps the larger (signed compare) of the present value and {@code value}. */
    public void putMax(final long keyHash, final long sequence, final long value)
    {
        final int slot = find(keyHash, sequence);
        if (slot >= 0)
        {
            if (value > values[slot])
            {
                values[slot] = value;
            }
            return;
        }
        put(keyHash, sequence, value);
    }

    public boolean usedAt(final int slot)
    {
        return used[slot];
    }

    public long keyHashAt(final int slot)
    {
        return keyHashes[slot];
    }

    public long sequenceAt(final int slot)
    {
        return sequences[slot];
    }

    public long valueAt(final int slot)
    {
        return values[slot];
    }

    public void valueAt(final int slot, final long value)
    {
        values[slot] = value;
    }

    public void clear()
    {
        Arrays.fill(used, false);
        size = 0;
    }

    private void grow()
    {
        final long[] oldKeys = keyHashes;
        final long[] oldSeqs = sequences;
        final long[] oldValues = values;
        final boolean[] oldUsed = used;
        allocate((mask + 1) << 1);
        size = 0;
        for (int i = 0; i < oldUsed.length; i++)
        {
            if (oldUsed[i])
            {
                put(oldKeys[i], oldSeqs[i], oldValues[i]);
            }
        }
    }
}
