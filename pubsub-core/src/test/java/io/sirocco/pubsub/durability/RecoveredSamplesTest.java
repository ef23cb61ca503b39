package io.sirocco.pubsub.durability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

/** The off-heap packing of a recovered history: every sample back, in order, across block boundaries. */
class RecoveredSamplesTest
{
    /** An envelope of {@code length} bytes whose every byte derives from the sequence number. */
    private static byte[] envelope(final long sequence, final int length)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(sequence * 131 + i);
        }
        return bytes;
    }

    /** Appends each envelope from the middle of a larger source buffer, as the recovery hands a segment image over. */
    private static void append(final RecoveredSamples samples, final long sequence, final byte[] envelope)
    {
        final ByteBuffer image = ByteBuffer.allocate(envelope.length + 10);
        image.put(7, envelope);
        samples.append(sequence, image, 7, envelope.length);
    }

    private static void assertHolds(final RecoveredSamples samples, final long[] sequences, final int[] lengths)
    {
        samples.seal();
        assertEquals(sequences.length, samples.size());
        for (int i = 0; i < sequences.length; i++)
        {
            assertEquals(sequences[i], samples.sequence(i));
            assertArrayEquals(envelope(sequences[i], lengths[i]), samples.copy(i), "sample " + i);
            final byte[] inPlace = new byte[samples.length(i)];
            samples.block(i).get(samples.offset(i), inPlace);
            assertArrayEquals(envelope(sequences[i], lengths[i]), inPlace, "sample " + i + " in its block");
        }
    }

    @Test
    void emptyHistoryHoldsNothing()
    {
        final RecoveredSamples samples = new RecoveredSamples(64);
        samples.seal();
        assertTrue(samples.isEmpty());
        assertEquals(0, samples.blocks());
        assertEquals(0, samples.firstSequence());
        assertEquals(0, samples.lastSequence());
        assertThrows(IndexOutOfBoundsException.class, () -> samples.copy(0));
    }

    @Test
    void oneSample()
    {
        final RecoveredSamples samples = new RecoveredSamples(64);
        append(samples, 42, envelope(42, 40));
        assertHolds(samples, new long[] {42}, new int[] {40});
        assertEquals(42, samples.firstSequence());
        assertEquals(42, samples.lastSequence());
        assertEquals(1, samples.blocks());
    }

    @Test
    void samplesFillingBlocksExactlyStartTheNextBlockAfterEachMultiple()
    {
        // 4 samples of 16 bytes per 64-byte block: 40 samples are exactly 10 full blocks.
        final RecoveredSamples samples = new RecoveredSamples(64);
        final long[] sequences = new long[40];
        final int[] lengths = new int[40];
        for (int i = 0; i < 40; i++)
        {
            sequences[i] = i + 1;
            lengths[i] = 16;
            append(samples, sequences[i], envelope(sequences[i], 16));
        }
        assertHolds(samples, sequences, lengths);
        assertEquals(10, samples.blocks());
        final RecoveredSamples oneMore = new RecoveredSamples(64);
        for (int i = 1; i <= 41; i++)
        {
            append(oneMore, i, envelope(i, 16));
        }
        oneMore.seal();
        assertEquals(11, oneMore.blocks());
    }

    @Test
    void samplesThatDoNotFitTheRestOfABlockAndSamplesLargerThanABlock()
    {
        final RecoveredSamples samples = new RecoveredSamples(64);
        final int[] lengths = {50, 20, 200, 1, 64, 63, 2, 5000, 33};
        final long[] sequences = new long[lengths.length];
        for (int i = 0; i < lengths.length; i++)
        {
            sequences[i] = 10L * (i + 1);
            append(samples, sequences[i], envelope(sequences[i], lengths[i]));
        }
        assertHolds(samples, sequences, lengths);
        assertEquals(10, samples.firstSequence());
        assertEquals(90, samples.lastSequence());
    }

    @Test
    void manySamplesAcrossManyBlocksAndTableGrowth()
    {
        final RecoveredSamples samples = new RecoveredSamples(4096);
        final int n = 50_000;
        final long[] sequences = new long[n];
        final int[] lengths = new int[n];
        for (int i = 0; i < n; i++)
        {
            sequences[i] = 3L * i + 1;
            lengths[i] = 33 + i % 97;
            append(samples, sequences[i], envelope(sequences[i], lengths[i]));
        }
        assertHolds(samples, sequences, lengths);
        assertTrue(samples.blocks() > 100, "spans many blocks: " + samples.blocks());
    }

    @Test
    void samplesInSlotOrderAreSortedBySequenceNumberWhenSealed()
    {
        // A KEEP_LAST zone streams in history-slot order: sequence numbers come shuffled.
        final RecoveredSamples samples = new RecoveredSamples(100);
        final long[] shuffled = {9, 3, 27, 1, 14, 2, 40, 5};
        for (final long seq : shuffled)
        {
            append(samples, seq, envelope(seq, 30));
        }
        assertEquals(0, samples.size(), "nothing readable before the seal");
        final long[] sorted = shuffled.clone();
        java.util.Arrays.sort(sorted);
        final int[] lengths = new int[sorted.length];
        java.util.Arrays.fill(lengths, 30);
        assertHolds(samples, sorted, lengths);
    }

    @Test
    void aSequenceNumberTwiceOrAnAppendAfterTheSealIsRefused()
    {
        final RecoveredSamples twice = new RecoveredSamples(64);
        append(twice, 5, envelope(5, 8));
        append(twice, 4, envelope(4, 8));
        append(twice, 5, envelope(5, 8));
        assertThrows(IllegalStateException.class, twice::seal);
        final RecoveredSamples sealed = new RecoveredSamples(64);
        append(sealed, 1, envelope(1, 8));
        sealed.seal();
        assertThrows(IllegalStateException.class, () -> append(sealed, 2, envelope(2, 8)));
        assertEquals(1, sealed.size());
    }
}
