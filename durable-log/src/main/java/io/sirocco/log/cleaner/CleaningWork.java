package io.sirocco.log.cleaner;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.disk.AlignedBuffers;
import io.sirocco.log.disk.DiskAccess;
import io.sirocco.log.recovery.SegmentScanner;

/**
 * Buffers of one cleaning thread (the cleaner's own, or the flusher's for urgent cleaning): the staging buffer for
 * writing new segments, the output a pass copies valid entries into, a scanner, and one validity bit per entry of
 * the segment being cleaned. Confined to the thread that owns it.
 */
final class CleaningWork
{
    final ByteBuffer staging;
    final ByteBuffer output;
    final SegmentScanner scanner;

    private long[] validBits = new long[1024];

    /** Remembers whether the {@code ordinal}-th entry of the segment being cleaned is valid. */
    void valid(final int ordinal, final boolean valid)
    {
        final int word = ordinal >>> 6;
        if (word >= validBits.length)
        {
            validBits = Arrays.copyOf(validBits, Math.max(validBits.length * 2, word + 1));
        }
        if (valid)
        {
            validBits[word] |= 1L << ordinal;
        }
        else
        {
            validBits[word] &= ~(1L << ordinal);
        }
    }

    boolean valid(final int ordinal)
    {
        return (validBits[ordinal >>> 6] & (1L << ordinal)) != 0;
    }

    CleaningWork(final LogConfig config, final DiskAccess access)
    {
        staging = AlignedBuffers.allocate(config.segmentSizeBytes() + 2 * access.blockSize(), access.blockSize());
        output = ByteBuffer.allocate(config.segmentSizeBytes()).order(ByteOrder.LITTLE_ENDIAN);
        scanner = new SegmentScanner(config.maxPayloadBytes());
    }
}

