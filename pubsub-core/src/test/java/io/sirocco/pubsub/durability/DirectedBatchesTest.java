package io.sirocco.pubsub.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sirocco.pubsub.bus.BusBatch;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusWriter;

/**
 * A replay through {@link DirectedBatches}: every sample reaches the reader once, in order, whatever the count
 * relative to the batch size (none, one, one short of a batch, exactly a batch, one more, several batches), and
 * samples too large for a batch go on their own in their place.
 */
class DirectedBatchesTest
{
    private static final long WRITER = 0x1234L;
    private static final long READER = 0x5678L;
    private static final int PAYLOAD = 60;
    /** Room for exactly {@value #PER_BATCH} records of {@value #PAYLOAD} bytes. */
    private static final int PER_BATCH = 7;
    private static final int CAPACITY = PER_BATCH * (BusBatch.RECORD_HEADER + PAYLOAD);

    /** Records what it is sent, unpacking batches as the group bus does. */
    private static final class Recording implements BusWriter
    {
        final List<Long> seqs = new ArrayList<>();
        final List<Integer> lengths = new ArrayList<>();
        int messages;
        final int batchBytes;

        Recording(final int batchBytes)
        {
            this.batchBytes = batchBytes;
        }

        @Override
        public int batchBytes()
        {
            return batchBytes;
        }

        @Override
        public boolean sendDirected(final long readerGuid, final BusMessage message, final long timeoutNs)
        {
            assertEquals(READER, readerGuid);
            assertEquals(WRITER, message.writerGuid());
            assertTrue(message.payloadLength() <= Math.max(batchBytes, 10_000), "within the batch size");
            messages++;
            if ((message.kind() & BusMessage.KIND_BATCH) == 0)
            {
                seqs.add(message.seq());
                lengths.add(message.payloadLength());
                return true;
            }
            final BusMessage record = new BusMessage(16);
            int offset = 0;
            while (offset < message.payloadLength())
            {
                offset = BusBatch.read(message.payloadSegment(), offset, message.payloadLength(), record);
                assertTrue(offset > 0, "well-formed batch");
                assertEquals(BusMessage.KIND_DATA | BusMessage.KIND_HISTORY, record.kind());
                seqs.add(record.seq());
                lengths.add(record.payloadLength());
            }
            return true;
        }

        @Override
        public boolean publish(final BusMessage message, final long timeoutNs)
        {
            throw new AssertionError("a replay is directed");
        }

        @Override
        public boolean awaitDelivered(final long timeoutNs)
        {
            return true;
        }

        @Override
        public void close()
        {
        }
    }

    private static BusMessage sample(final long seq, final int length)
    {
        final BusMessage m = new BusMessage(length);
        m.payload()[0] = (byte)seq;
        return m.kind(BusMessage.KIND_DATA | BusMessage.KIND_HISTORY).writerGuid(WRITER).seq(seq)
            .payloadLength(length);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, PER_BATCH - 1, PER_BATCH, PER_BATCH + 1, 3 * PER_BATCH, 1000})
    void everySampleOnceInOrderWhateverTheCount(final int count)
    {
        final Recording bus = new Recording(CAPACITY);
        final DirectedBatches out = new DirectedBatches(bus, WRITER, READER, 1_000_000L, Integer.MAX_VALUE);
        for (int seq = 1; seq <= count; seq++)
        {
            assertTrue(out.send(sample(seq, PAYLOAD)));
        }
        assertTrue(out.flush());
        assertEquals(count, bus.seqs.size());
        for (int i = 0; i < count; i++)
        {
            assertEquals(i + 1, bus.seqs.get(i));
            assertEquals(PAYLOAD, bus.lengths.get(i));
        }
        assertEquals((count + PER_BATCH - 1) / PER_BATCH, bus.messages, "full batches, then the rest");
    }

    @Test
    void aSampleTooLargeForABatchGoesAloneInItsPlace()
    {
        final Recording bus = new Recording(CAPACITY);
        final DirectedBatches out = new DirectedBatches(bus, WRITER, READER, 1_000_000L, Integer.MAX_VALUE);
        assertTrue(out.send(sample(1, PAYLOAD)));
        assertTrue(out.send(sample(2, PAYLOAD)));
        assertTrue(out.send(sample(3, CAPACITY)));
        assertTrue(out.send(sample(4, PAYLOAD)));
        assertTrue(out.flush());
        assertEquals(List.of(1L, 2L, 3L, 4L), bus.seqs);
        assertEquals(List.of(PAYLOAD, PAYLOAD, CAPACITY, PAYLOAD), bus.lengths);
        assertEquals(3, bus.messages);
    }

    @Test
    void theReplayLimitCapsABusThatTakesLargerBatches()
    {
        final Recording bus = new Recording(100 * CAPACITY);
        final DirectedBatches out = new DirectedBatches(bus, WRITER, READER, 1_000_000L, CAPACITY);
        for (int seq = 1; seq <= 3 * PER_BATCH + 2; seq++)
        {
            assertTrue(out.send(sample(seq, PAYLOAD)));
        }
        assertTrue(out.flush());
        assertEquals(3 * PER_BATCH + 2, bus.seqs.size());
        assertEquals(4, bus.messages, "batches of the replay's size, not the bus's");
    }

    @Test
    void aBusWithoutBatchesGetsEachSampleOnItsOwn()
    {
        final Recording bus = new Recording(0);
        final DirectedBatches out = new DirectedBatches(bus, WRITER, READER, 1_000_000L, Integer.MAX_VALUE);
        for (int seq = 1; seq <= 20; seq++)
        {
            assertTrue(out.send(sample(seq, PAYLOAD)));
        }
        assertTrue(out.flush());
        assertEquals(20, bus.messages);
        assertEquals(20, bus.seqs.size());
        assertFalse(bus.seqs.isEmpty());
    }
}
