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
 * (a skip list of arrays took 20 s for as many).
 *
 * <p>Memory: the envelopes' bytes plus less than one block of slack, plus 20 bytes of table per sample. The log's
 * zone size bounds the envelopes (a writer is refused past three quarters of {@code sirocco.dds.durability.zone.mb}),
 * so a recovered zone holds at most that much off-heap.
 *
 * <p>Concurrency: one writer (the zone's recovery thread) appends in ascending sequence order; any thread reads. Each
 * append writes the envelope and its table row before the volatile {@code count}, and readers read {@code count}
 * first, so a reader sees every row below the count it read complete. Grown tables are copies holding the same prefix,
 * so a reader that picks up an older or newer array sees the same rows.
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
    private volatile int count;
    private volatile ByteBuffer[] published = new ByteBuffer[0];

    public RecoveredSamples(final int blockBytes)
    {
        if (blockBytes <= 0)
        {
            throw new IllegalArgumentException("blockBytes must be positive: " + blockBytes);
        }
        this.blockBytes = blockBytes;
    }

    /** Recovery thread: appends the envelope {@code from[offset, offset + length)}, sequences ascending. */
    public void append(final long sequence, final ByteBuffer from, final int offset, final int length)
    {
        final int n = count;
        if (n > 0 && sequence <= sequences[n - 1])
        {
            throw new IllegalArgumentException("recovered sequence " + sequence + " after " + sequences[n - 1]
                + ": not ascending");
        }
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
        count = n + 1;
    }

    /** The block the next {@code length} bytes go to: the current one if they fit, else a new one (published). */
    private ByteBuffer blockFor(final int length)
    {
        if (current == null || current.remaining() < length)
        {
            current = ByteBuffer.allocateDirect(Math.max(blockBytes, length)).order(ByteOrder.LITTLE_ENDIAN);
            blocks.add(current);
            published = blocks.toArray(new ByteBuffer[0]);
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
        return published.length;
    }

    private void check(final int index)
    {
        if (index < 0 || index >= count)
        {
            throw new IndexOutOfBoundsException("sample " + index + " of " + count);
        }
    }
}
