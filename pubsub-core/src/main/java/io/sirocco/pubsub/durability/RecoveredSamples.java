package io.sirocco.pubsub.durability;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One recovered zone's samples (each a {@link SampleEnvelope}) in ascending sequence order, kept off-heap: the
 * envelopes are packed one after the other into direct blocks of {@code blockBytes} (an envelope larger than a block
 * gets a block of its own), and a table of primitive arrays gives each sample's sequence number, block, offset and
 * length. The recovery hands over a million samples as a million copies into a few blocks, with no object per sample
 * (a skip list of arrays took 20 s for as many). The log streams a KEEP_ALL zone in sequence order; a KEEP_LAST zone
 * (its log keys are history slots) in slot order, so {@link #seal} sorts the table by sequence number when needed.
 *
 * <p>Memory: the envelopes' bytes plus less than one block of slack, plus 20 bytes of table per sample. The log's
 * zone size bounds the envelopes (a writer is refused past three quarters of {@code sirocco.dds.durability.zone.mb}),
 * so a recovered zone holds at most that much off-heap.
 *
 * <p>Concurrency: one thread (the zone's recovery thread) appends, then seals; any thread reads after the seal. The
 * seal writes the volatile {@code count} last, so a reader that sees it sees the whole table and every block; before
 * the seal a reader sees an empty history.
 */
public final class RecoveredSamples
{
    /** The default block size: large enough that a million small samples take a few blocks. */
    public static final int DEFAULT_BLOCK_BYTES = 16 << 20;

    private final int blockBytes;
    private final List<ByteBuffer> blocks = new ArrayList<>();
    private ByteBuffer current;
    private long[] sequences = new long[1024];
    /** Block index (high 32 bits) and offset in it (low 32 bits) of each sample. */
    private long[] places = new long[1024];
    private int[] lengths = new int[1024];
    /** Samples appended (recovery thread only). */
    private int filled;
    private boolean ascending = true;
    private ByteBuffer[] published = new ByteBuffer[0];
    /** Samples readable: 0 until {@link #seal}. */
    private volatile int count;

    public RecoveredSamples(final int blockBytes)
    {
        if (blockBytes <= 0)
        {
            throw new IllegalArgumentException("blockBytes must be positive: " + blockBytes);
        }
        this.blockBytes = blockBytes;
    }

    /** Recovery thread: appends the envelope {@code from[offset, offset + length)} of sample {@code sequence}. */
    public void append(final long sequence, final ByteBuffer from, final int offset, final int length)
    {
        if (count != 0)
        {
            throw new IllegalStateException("recovered history already sealed");
        }
        final int n = filled;
        ascending &= n == 0 || sequence > sequences[n - 1];
        final ByteBuffer block = blockFor(length);
        final int at = block.position();
        block.put(at, from, offset, length);
        block.position(at + length);
        if (n == sequences.length)
        {
            final int grown = n * 2;
            sequences = Arrays.copyOf(sequences, grown);
            places = Arrays.copyOf(places, grown);
            lengths = Arrays.copyOf(lengths, grown);
        }
        sequences[n] = sequence;
        places[n] = ((long)(blocks.size() - 1) << 32) | at;
        lengths[n] = length;
        filled = n + 1;
    }

    /**
     * Recovery thread, after the last append: orders the table by sequence number (if the samples did not come in
     * that order) and makes the history readable.
     *
     * @throws IllegalStateException if two samples have the same sequence number.
     */
    public void seal()
    {
        final int n = filled;
        if (!ascending)
        {
            SequenceOrder.sort(sequences, places, lengths, n);
            for (int i = 1; i < n; i++)
            {
                if (sequences[i] == sequences[i - 1])
                {
                    throw new IllegalStateException("recovered sequence number " + sequences[i] + " twice");
                }
            }
        }
        published = blocks.toArray(new ByteBuffer[0]);
        count = n;
    }

    /** The block the next {@code length} bytes go to: the current one if they fit, else a new one. */
    private ByteBuffer blockFor(final int length)
    {
        if (current == null || current.remaining() < length)
        {
            current = ByteBuffer.allocateDirect(Math.max(blockBytes, length)).order(ByteOrder.LITTLE_ENDIAN);
            blocks.add(current);
        }
        return current;
    }

    public int size()
    {
        return count;
    }

    public boolean isEmpty()
    {
        return count == 0;
    }

    /** The sequence number of sample {@code index} (0 is the oldest). */
    public long sequence(final int index)
    {
        check(index);
        return sequences[index];
    }

    /** The first sequence number, or 0 if empty. */
    public long firstSequence()
    {
        return count == 0 ? 0 : sequences[0];
    }

    /** The last sequence number, or 0 if empty. */
    public long lastSequence()
    {
        final int n = count;
        return n == 0 ? 0 : sequences[n - 1];
    }

    /**
     * The block holding sample {@code index}, little-endian (a shared buffer: read it with absolute gets only, at
     * {@link #offset} for {@link #length} bytes).
     */
    public ByteBuffer block(final int index)
    {
        check(index);
        return published[(int)(places[index] >>> 32)];
    }

    public int offset(final int index)
    {
        check(index);
        return (int)places[index];
    }

    public int length(final int index)
    {
        check(index);
        return lengths[index];
    }

    /** A copy of sample {@code index}'s envelope (for tools and tests; serving reads the blocks in place). */
    public byte[] copy(final int index)
    {
        final byte[] envelope = new byte[length(index)];
        block(index).get(offset(index), envelope);
        return envelope;
    }

    /** How many off-heap blocks hold the samples. */
    public int blocks()
    {
        return count == 0 ? 0 : published.length;
    }

    private void check(final int index)
    {
        if (index < 0 || index >= count)
        {
            throw new IndexOutOfBoundsException("sample " + index + " of " + count);
        }
    }
}
