package io.sirocco.pubsub.bus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** The batch codec: every record back with its fields and payload, in order; a malformed record is refused. */
class BusBatchTest
{
    private static BusMessage sample(final long seq, final int length)
    {
        final BusMessage m = new BusMessage(length);
        final byte[] payload = new byte[length];
        Arrays.fill(payload, (byte)seq);
        System.arraycopy(payload, 0, m.payload(), 0, length);
        return m.kind(BusMessage.KIND_DATA | BusMessage.KIND_HISTORY).seq(seq).sourceTimeNs(seq * 1000)
            .keyHash(seq * 7, -seq).payloadLength(length);
    }

    @Test
    void recordsComeBackInOrderUntilTheBatchIsFull()
    {
        final int capacity = 1000;
        final BusMessage batch = new BusMessage(16);
        BusBatch.start(batch, 99, capacity);
        long seq = 1;
        while (BusBatch.fits(batch, sample(seq, 10 + (int)seq), capacity))
        {
            BusBatch.append(batch, sample(seq, 10 + (int)seq));
            seq++;
        }
        final long appended = seq - 1;
        assertTrue(appended > 5, "several records fit: " + appended);
        assertTrue(batch.payloadLength() <= capacity);
        assertEquals(appended, batch.seq(), "the batch carries its last sequence number");
        assertEquals(BusMessage.KIND_BATCH, batch.kind());

        final BusMessage out = new BusMessage(16).writerGuid(99);
        int offset = 0;
        long expected = 1;
        while (offset < batch.payloadLength())
        {
            offset = BusBatch.read(batch.payloadSegment(), offset, batch.payloadLength(), out);
            final BusMessage in = sample(expected, 10 + (int)expected);
            assertEquals(in.kind(), out.kind());
            assertEquals(in.seq(), out.seq());
            assertEquals(in.sourceTimeNs(), out.sourceTimeNs());
            assertEquals(in.keyHashHi(), out.keyHashHi());
            assertEquals(in.keyHashLo(), out.keyHashLo());
            assertArrayEquals(Arrays.copyOf(in.payload(), in.payloadLength()),
                Arrays.copyOf(out.payload(), out.payloadLength()));
            expected++;
        }
        assertEquals(appended + 1, expected, "every record read once");
        assertEquals(batch.payloadLength(), offset);
    }

    @Test
    void aTruncatedRecordIsMalformed()
    {
        final BusMessage batch = new BusMessage(16);
        BusBatch.start(batch, 1, 500);
        BusBatch.append(batch, sample(1, 100));
        final BusMessage out = new BusMessage(16);
        assertEquals(-1, BusBatch.read(batch.payloadSegment(), 0, batch.payloadLength() - 1, out));
        assertEquals(-1, BusBatch.read(batch.payloadSegment(), 0, BusBatch.RECORD_HEADER - 1, out));
        assertFalse(BusBatch.fits(batch, sample(2, 500), 500));
    }
}
