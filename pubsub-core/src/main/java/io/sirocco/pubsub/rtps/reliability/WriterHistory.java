package io.sirocco.pubsub.rtps.reliability;

import java.nio.ByteBuffer;

/**
 * A user writer's history cache for KEEP_ALL (DDSI-RTPS 2.5, 8.4.7): the changes from {@link #firstSN()} to
 * {@link #lastSN()}, consecutive, each with its serialized payload, KeyHash and source timestamp, kept until every
 * reliable reader acknowledged it ({@link #releaseBelow}). A ring of {@code capacity} slots whose payload buffers
 * grow to the largest sample written into them and are then reused, so a steady stream allocates nothing.
 *
 * <p>Not thread-safe: guarded by its writer's lock.
 */
public final class WriterHistory
{
    private final ByteBuffer[] payloads;
    private final int[] lengths;
    private final long[] timestamps;
    private final byte[][] keyHashes;
    private long firstSN = 1;
    private long nextSN = 1;
    private long bytes;

    public WriterHistory(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("RTPS writer history capacity " + capacity + " < 1");
        }
        payloads = new ByteBuffer[capacity];
        lengths = new int[capacity];
        timestamps = new long[capacity];
        keyHashes = new byte[capacity][16];
    }

    public int capacity()
    {
        return payloads.length;
    }

    /** The oldest change kept (equal to {@code lastSN() + 1} when empty). */
    public long firstSN()
    {
        return firstSN;
    }

    /** The newest change written (0 before the first). */
    public long lastSN()
    {
        return nextSN - 1;
    }

    public boolean isFull()
    {
        return nextSN - firstSN >= payloads.length;
    }

    public boolean isEmpty()
    {
        return nextSN == firstSN;
    }

    /**
     * Appends a change: {@code payload[offset, +length)}, {@code keyHash} (16 bytes) and {@code rtpsTime}; returns its
     * sequence number. The caller made room first ({@link #isFull()}).
     */
    public long add(final ByteBuffer payload, final int offset, final int length, final byte[] keyHash,
        final long rtpsTime)
    {
        if (isFull())
        {
            throw new IllegalStateException("RTPS writer history full at " + payloads.length + " changes");
        }
        final int slot = slot(nextSN);
        ByteBuffer buffer = payloads[slot];
        if (buffer == null || buffer.capacity() < length)
        {
            buffer = ByteBuffer.allocateDirect(Math.max(length, 64));
            payloads[slot] = buffer;
        }
        buffer.put(0, payload, offset, length);
        lengths[slot] = length;
        bytes += length;
        timestamps[slot] = rtpsTime;
        System.arraycopy(keyHash, 0, keyHashes[slot], 0, 16);
        return nextSN++;
    }

    /** Forgets every change below {@code sn} (all readers acknowledged them, or nobody needs them). */
    public void releaseBelow(final long sn)
    {
        final long newFirst = Math.max(firstSN, Math.min(sn, nextSN));
        for (long released = firstSN; released < newFirst; released++)
        {
            bytes -= lengths[slot(released)];
        }
        firstSN = newFirst;
    }

    /** The payload bytes of the changes kept. */
    public long bytes()
    {
        return bytes;
    }

    /** Whether {@code sn} is still kept. */
    public boolean contains(final long sn)
    {
        return sn >= firstSN && sn < nextSN;
    }

    /** The payload of a kept change, valid from index 0 for {@link #length(long)} bytes until it is released. */
    public ByteBuffer payload(final long sn)
    {
        return payloads[slot(sn)];
    }

    public int length(final long sn)
    {
        return lengths[slot(sn)];
    }

    public long timestamp(final long sn)
    {
        return timestamps[slot(sn)];
    }

    public byte[] keyHash(final long sn)
    {
        return keyHashes[slot(sn)];
    }

    private int slot(final long sn)
    {
        return (int) (sn % payloads.length);
    }
}
