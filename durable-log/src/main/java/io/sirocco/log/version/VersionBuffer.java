package io.sirocco.log.version;

/**
 * A zone's version buffer: the versions given out in the current epoch, keyed by entry key. The first write of a
 * key in an epoch gets version 0 and each later one the next version, with no disk read; (epoch, version) pairs
 * order every write of a key. When the buffer reaches its fill limit the epoch ends: the buffer is appended to the
 * version log and cleared, and the epoch advances.
 *
 * <p>Single writer: the store's flusher thread, under the store's log lock (the cleaner reads it under that lock).
 */
public final class VersionBuffer
{
    private final KeyTable table;
    private final int flushAt;

    public VersionBuffer(final int slots, final double flushFill)
    {
        table = new KeyTable(slots, 0.75, true);
        flushAt = (int)(slots * flushFill);
    }

    /** Assigns and records the next version of a key in the current epoch. */
    public int nextVersion(final long keyHash, final long sequence, final boolean tombstone)
    {
        final int slot = table.find(keyHash, sequence);
        final int version = slot >= 0 ? VersionCodec.version(table.valueAt(slot)) + 1 : 0;
        table.putAt(slot, keyHash, sequence, ((version & 0xFFFF_FFFFL) << 1) | (tombstone ? 1 : 0));
        return version;
    }

    /**
     * The epoch should end (checked by the flusher after the cycle's data is written, so the version log never
     * gets ahead of the data; the table grows meanwhile).
     */
    public boolean full()
    {
        return table.size() >= flushAt;
    }

    public int size()
    {
        return table.size();
    }

    public KeyTable table()
    {
        return table;
    }

    public void clear()
    {
        table.clear();
    }
}
