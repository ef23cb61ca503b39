package io.sirocco.pubsub.durability;

import io.sirocco.pubsub.bus.BusBatch;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusWriter;

/**
 * Sends one reader a replay of samples, many to a bus message ({@link BusBatch}) where the bus takes batches, else
 * one by one: a recovered history of a million samples goes out as a few thousand messages of tens of KiB (each
 * multicast message pays the ordered subgroup's per-message cost once; the bus sends the larger ones through its
 * bulk path).
 *
 * <p>Not thread-safe: one per replay, on the serving thread.
 */
final class DirectedBatches
{
    private final BusWriter writer;
    private final long writerGuid;
    private final long readerGuid;
    private final long timeoutNs;
    private final int capacity;
    private final BusMessage batch;
    private int inBatch;
    private long messages;

    /** @param batchBytes the most payload bytes of one batch message, within the writer's own {@code batchBytes}. */
    DirectedBatches(final BusWriter writer, final long writerGuid, final long readerGuid, final long timeoutNs,
        final int batchBytes)
    {
        this.writer = writer;
        this.writerGuid = writerGuid;
        this.readerGuid = readerGuid;
        this.timeoutNs = timeoutNs;
        this.capacity = Math.min(writer.batchBytes(), batchBytes);
        this.batch = new BusMessage(Math.max(16, capacity));
        BusBatch.start(batch, writerGuid, capacity);
    }

    /** Sends {@code sample} (of this replay's writer), or adds it to the batch; false if the reader took nothing. */
    boolean send(final BusMessage sample)
    {
        if (BusBatch.RECORD_HEADER + sample.payloadLength() > capacity)
        {
            // No batches on this bus, or a sample too large for one: on its own, after what is batched.
            messages++;
            return flush() && writer.sendDirected(readerGuid, sample, timeoutNs);
        }
        if (!BusBatch.fits(batch, sample, capacity) && !flush())
        {
            return false;
        }
        BusBatch.append(batch, sample);
        inBatch++;
        return true;
    }

    /** The bus messages sent so far (batches and samples on their own). */
    long messages()
    {
        return messages;
    }

    /** Sends the samples batched so far; false if the reader took nothing for the timeout. */
    boolean flush()
    {
        if (inBatch == 0)
        {
            return true;
        }
        messages++;
        final boolean sent = writer.sendDirected(readerGuid, batch, timeoutNs);
        BusBatch.start(batch, writerGuid, capacity);
        inBatch = 0;
        return sent;
    }
}
