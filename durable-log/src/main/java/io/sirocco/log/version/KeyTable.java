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
    // Slot i occupies table[4i .. 4i+3] = keyHash, sequence, value, used (0/1): one probe touches one cache line.
    private long[] table;
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
        table = new long[capacity * 4];
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

    /** Whether the table reached its fill limit (a fixed table must not take more). */
    public boolean full()
    {
        return size >= resizeAt;
    }

    private static int hash(final long keyHash, final long sequence)
    {
        long h = keyHash * 0xC2B2_AE3D_27D4_EB4FL + sequence; // a plain xor would cancel for keyHash = sequence * c
        h = (h ^ (h >>> 33)) * 0xFF51_AFD7_ED55_8CCDL;
        h = (h ^ (h >>> 33)) * 0xC4CE_B9FE_1A85_EC53L;
        return (int)(h ^ (h >>> 33));
    }

    /** Slot holding the key, or the negative (-slot - 1) of the empty slot where it would go. */
    public int find(final long keyHash, final long sequence)
    {
        final long[] t = table;
        int slot = hash(keyHash, sequence) & mask;
        while (t[slot * 4 + 3] != 0)
        {
            if (t[slot * 4] == keyHash && t[slot * 4 + 1] == sequence)
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
        return slot >= 0 ? table[slot * 4 + 2] : missing;
    }

    /** Sets a key's value; returns the slot. May grow (which moves slots). */
    public int put(final long keyHash, final long sequence, final long value)
    {
        int slot = find(keyHash, sequence);
        if (slot >= 0)
        {
            table[slot * 4 + 2] = value;
            return slot;
        }
        if (size >= resizeAt && growable)
        {
            grow();
            slot = find(keyHash, sequence);
        }
        slot = -slot - 1;
        final int base = slot * 4;
        table[base] = keyHash;
        table[base + 1] = sequence;
        table[base + 2] = value;
        table[base + 3] = 1;
        size++;
        return slot;
    }

    /**
     * Stores a value at a slot found by {@link #find}: {@code found >= 0} overwrites, a negative result inserts
     * there (only valid if nothing was inserted since the find and the table need not grow).
     */
    public void putAt(final int found, final long keyHash, final long sequence, final long value)
    {
        if (found >= 0)
        {
            table[found * 4 + 2] = value;
            return;
        }
        if (size >= resizeAt)
        {
            put(keyHash, sequence, value);
            return;
        }
        final int base = (-found - 1) * 4;
        table[base] = keyHash;
        table[base + 1] = sequence;
        table[base + 2] = value;
        table[base + 3] = 1;
        size++;
    }

    /** Keeps the larger (signed compare) of the present value and {@code value}. */
    public void putMax(final long keyHash, final long sequence, final long value)
    {
        final int slot = find(keyHash, sequence);
        if (slot >= 0)
        {
            if (value > table[slot * 4 + 2])
            {
                table[slot * 4 + 2] = value;
            }
            return;
        }
        put(keyHash, sequence, value);
    }

    public boolean usedAt(final int slot)
    {
        return table[slot * 4 + 3] != 0;
    }

    public long keyHashAt(final int slot)
    {
        return table[slot * 4];
    }

    public long sequenceAt(final int slot)
    {
        return table[slot * 4 + 1];
    }

    public long valueAt(final int slot)
    {
        return table[slot * 4 + 2];
    }

    public void valueAt(final int slot, final long value)
    {
        table[slot * 4 + 2] = value;
    }

    public void clear()
    {
        Arrays.fill(table, 0);
        size = 0;
    }

    private void grow()
    {
        final long[] old = table;
        allocate((mask + 1) << 1);
        size = 0;
        for (int i = 0; i < old.length; i += 4)
        {
            if (old[i + 3] != 0)
            {
                put(old[i], old[i + 1], old[i + 2]);
            }
        }
    }
}
