package io.sirocco.pubsub.bus;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reader's receive window: a bounded ring of reusable {@link BusMessage} slots and the reader's own delivery
 * thread. Any number of writers offer (copying into the tail slot under {@code lock}); the single delivery thread
 * learns how many slots are full under the lock, then hands them to the {@link DeliveryHandler} <em>outside</em> the
 * lock, and frees them afterwards. A slot is never rewritten before it is freed, and the lock release after a copy
 * / acquire before a read orders the bytes.
 *
 * <p>Inline delivery: when the window is empty, nobody is delivering and the handler allows it, the offering thread
 * delivers itself (no hand-off), reporting any pending loss count first, as the delivery thread would. The predicate
 * thread does so in batches ({@link #offerInBatch} then {@link #endBatch}), holding {@code delivering} for the batch,
 * so listeners run once per multicast delivery batch.
 *
 * <p>This is where a slow reader is contained: a best-effort offer to a full window drops the message and counts
 * it as lost; a reliable offer waits on {@code notFull} for up to the writer's max_blocking_time.
 */
public final class ReaderQueue implements BusReader
{
    private static final Logger LOG = LoggerFactory.getLogger(ReaderQueue.class);

    /** Result of {@link #offer}. */
    public enum Offer
    {
        QUEUED, DROPPED, TIMED_OUT, CLOSED
    }

    private final long readerGuid;
    private final String topicName;
    private final boolean reliable;
    private final DeliveryHandler handler;
    private final BusMessage[] slots;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final AtomicInteger lost = new AtomicInteger();
    private final Thread deliveryThread;
    private long head;
    private long tail;
    private long delivered;
    private boolean closed;
    private boolean delivering;
    /** The thread whose inline batch is open (then {@code delivering} is true), or null. */
    private Thread batchOwner;

    public ReaderQueue(final long readerGuid, final String topicName, final boolean reliable, final int window,
        final int initialSlotBytes, final DeliveryHandler handler)
    {
        this.readerGuid = readerGuid;
        this.topicName = topicName;
        this.reliable = reliable;
        this.handler = handler;
        this.slots = new BusMessage[Math.max(2, window)];
        for (int i = 0; i < slots.length; i++)
        {
            slots[i] = new BusMessage(initialSlotBytes);
        }
        deliveryThread = Thread.ofPlatform().daemon().name(String.format("sirocco-delivery-%s-%05x", topicName,
            readerGuid & 0xFFFFF)).unstarted(this::deliveryLoop);
        deliveryThread.start();
    }

    public long readerGuid()
    {
        return readerGuid;
    }

    public boolean reliable()
    {
        return reliable;
    }

    public String topicName()
    {
        return topicName;
    }

    /**
     * Copies the message into the window.
     *
     * @param block whether to wait for room (both writer and reader reliable) or drop on a full window.
     */
    public Offer offer(final BusMessage message, final boolean block, final long timeoutNs)
    {
        return offer(message, block, timeoutNs, false);
    }

    /**
     * Like {@link #offer(BusMessage, boolean, long)}, for a thread that delivers batches (the predicate thread): an
     * inline delivery leaves the batch open, so that further offers of the same thread are delivered inline too and
     * the handler's {@code onBatchEnd} (listeners, WaitSets) runs once, at {@link #endBatch()}.
     */
    public Offer offerInBatch(final BusMessage message, final boolean block, final long timeoutNs)
    {
        return offer(message, block, timeoutNs, true);
    }

    /** Ends the batch the calling thread opened with {@link #offerInBatch}, if any: runs the handler's batch end. */
    public void endBatch()
    {
        lock.lock();
        try
        {
            if (batchOwner != Thread.currentThread())
            {
                return;
            }
            batchOwner = null;
        }
        finally
        {
            lock.unlock();
        }
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
        finally
        {
            lock.lock();
            delivering = false;
            if (tail != head || lost.get() > 0)
            {
                // Queued messages, or a loss counted after this batch reported its own: the delivery thread's turn.
                notEmpty.signal();
            }
            lock.unlock();
        }
    }

    private Offer offer(final BusMessage message, final boolean block, final long timeoutNs, final boolean batched)
    {
        lock.lock();
        try
        {
            long remainingNs = timeoutNs;
            while (!closed && tail - head == slots.length)
            {
                if (!block)
                {
                    lost.incrementAndGet();
                    notEmpty.signal();
                    return Offer.DROPPED;
                }
                if (remainingNs <= 0)
                {
                    return Offer.TIMED_OUT;
                }
                try
                {
                    remainingNs = notFull.awaitNanos(remainingNs);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return Offer.TIMED_OUT;
                }
            }
            if (closed)
            {
                return Offer.CLOSED;
            }
            if (batchOwner == Thread.currentThread() && tail == head)
            {
                // This thread's open inline batch: deliver inline, the batch end comes with endBatch().
                lock.unlock();
                try
                {
                    deliverInlineInBatch(message);
                }
                finally
                {
                    lock.lock();
                }
                return Offer.QUEUED;
            }
            if (tail == head && !delivering && handler.inlineSafe())
            {
                delivering = true;
                if (batched)
                {
                    batchOwner = Thread.currentThread();
                    lock.unlock();
                    try
                    {
                        deliverInlineInBatch(message);
                    }
                    finally
                    {
                        lock.lock();
                    }
                    return Offer.QUEUED;
                }
                lock.unlock();
                try
                {
                    deliverInline(message);
                }
                finally
                {
                    lock.lock();
                    delivering = false;
                    if (tail != head)
                    {
                        notEmpty.signal();
                    }
                }
                return Offer.QUEUED;
            }
            slots[(int)(tail % slots.length)].copyFrom(message);
            tail++;
            if (tail - head == 1)
            {
                notEmpty.signal();
            }
            return Offer.QUEUED;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Counts messages the transport lost for this reader (lapped best-effort receiver); reported at next batch. */
    public void addLost(final int count)
    {
        lost.addAndGet(count);
        lock.lock();
        try
        {
            notEmpty.signal();
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Waits until everything queued before the call has been handed to the handler; false on timeout. */
    public boolean awaitDelivered(final long timeoutNs)
    {
        lock.lock();
        try
        {
            final long target = tail;
            long remainingNs = timeoutNs;
            while (!closed && delivered < target)
            {
                if (remainingNs <= 0)
                {
                    return false;
                }
                try
                {
                    remainingNs = notFull.awaitNanos(remainingNs);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Hands the loss count to the handler, before the messages that follow the loss. Called by whichever thread
     * delivers (it holds {@code delivering}), outside the lock; a lapped best-effort reader so keeps the inline path
     * instead of sending every batch through the delivery thread until that thread reported the loss.
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

    /** The fast path: an empty window and a handler with bounded work; runs on the offering thread. */
    private void deliverInline(final BusMessage message)
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

    /** One message of an open inline batch; the batch end is {@link #endBatch()}'s. */
    private void deliverInlineInBatch(final BusMessage message)
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

    private void deliveryLoop()
    {
        long from;
        long to;
        while (true)
        {
            lock.lock();
            try
            {
                while (!closed && (delivering || (head == tail && lost.get() == 0)))
                {
                    notEmpty.awaitUninterruptibly();
                }
                if (closed)
                {
                    return;
                }
                from = head;
                to = tail;
                delivering = true;
            }
            finally
            {
                lock.unlock();
            }
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
                        handler.onMessage(slots[(int)(i % slots.length)]);
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
            lock.lock();
            try
            {
                head = to;
                delivered = to;
                delivering = false;
                notFull.signalAll();
            }
            finally
            {
                lock.unlock();
            }
        }
    }

    @Override
    public void close()
    {
        lock.lock();
        try
        {
            closed = true;
            notEmpty.signalAll();
            notFull.signalAll();
        }
        finally
        {
            lock.unlock();
        }
        if (Thread.currentThread() != deliveryThread)
        {
            try
            {
                deliveryThread.join(5_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
