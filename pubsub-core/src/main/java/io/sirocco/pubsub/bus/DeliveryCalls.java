package io.sirocco.pubsub.bus;

import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls of one reader's {@link DeliveryHandler}, as every delivering thread makes them: the pending loss count
 * first ({@code onLost}, before the messages that follow the loss), then the messages, then {@code onBatchEnd}; a
 * handler that throws is logged and the sample (or batch) skipped, never the delivering thread killed.
 *
 * <p>Concurrency: {@code lost} is counted by any thread (atomic); the handler is called by one thread at a time, the
 * one that holds its {@link ReaderQueue}'s {@code delivering} mark, outside the queue's lock.
 */
final class DeliveryCalls
{
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryCalls.class);

    private final DeliveryHandler handler;
    private final long readerGuid;
    private final String topicName;
    private final AtomicInteger lost = new AtomicInteger();

    DeliveryCalls(final DeliveryHandler handler, final long readerGuid, final String topicName)
    {
        this.handler = handler;
        this.readerGuid = readerGuid;
        this.topicName = topicName;
    }

    /** Counts messages lost for this reader; reported before the next message handed over. */
    void addLost(final int count)
    {
        lost.addAndGet(count);
    }

    /** Counts one message dropped by a full window. */
    void lostOne()
    {
        lost.incrementAndGet();
    }

    boolean hasLost()
    {
        return lost.get() > 0;
    }

    /**
     * Hands the loss count to the handler. A lapped best-effort reader so keeps the inline path instead of sending
     * every batch through the delivery task until that task reported the loss.
     */
    private void reportLost()
    {
        if (lost.get() == 0)
        {
            return; // the common case: a plain volatile read, no read-modify-write per message
        }
        final int lostNow = lost.getAndSet(0);
        if (lostNow > 0)
        {
            handler.onLost(lostNow);
        }
    }

    /** One message as a batch of its own (the offering thread's fast path). */
    void single(final BusMessage message)
    {
        try
        {
            try
            {
                reportLost();
                handler.onMessage(message);
            }
            finally
            {
                handler.onBatchEnd();
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.error("reader {} on topic '{}': delivery handler failed; the sample is skipped", readerGuid, topicName,
                ex);
        }
    }

    /** One message of an open batch; the batch end is {@link #endBatch()}'s. */
    void inBatch(final BusMessage message)
    {
        try
        {
            reportLost();
            handler.onMessage(message);
        }
        catch (final RuntimeException ex)
        {
            LOG.error("reader {} on topic '{}': delivery handler failed; the sample is skipped", readerGuid, topicName,
                ex);
        }
    }

    /** Ends an open batch (losses counted meanwhile first). */
    void endBatch()
    {
        try
        {
            reportLost();
            handler.onBatchEnd();
        }
        catch (final RuntimeException ex)
        {
            LOG.error("reader {} on topic '{}': delivery handler failed at the end of a batch", readerGuid, topicName,
                ex);
        }
    }

    /** The ring's slots {@code [from, to)} as one batch. */
    void batch(final ReaderRing ring, final long from, final long to)
    {
        try
        {
            final int lostNow = lost.getAndSet(0);
            if (lostNow > 0)
            {
                handler.onLost(lostNow);
            }
            try
            {
                for (long i = from; i < to; i++)
                {
                    handler.onMessage(ring.slot(i));
                }
            }
            finally
            {
                handler.onBatchEnd();
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.error("reader {} on topic '{}': delivery handler failed; the batch is skipped", readerGuid,
                topicName, ex);
        }
    }
}
