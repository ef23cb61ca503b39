package io.sirocco.pubsub.bus;

import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A reader's receive window: a bounded ring of reusable {@link BusMessage} slots ({@link ReaderRing}) and the
 * reader's delivery task on its participant's {@link DeliveryExecutor}. Any number of writers offer (copying into
 * the tail slot under {@code lock}); the delivery task, at most one queued or running per reader, learns how many
 * slots are full under the lock, then hands them to the {@link DeliveryHandler} <em>outside</em> the lock, and frees
 * them afterwards. A slot is never rewritten before it is freed, and the lock release after a copy / acquire before a
 * read orders the bytes. Offers that find work for it and no task of it queued or running submit one
 * ({@code scheduled}); a task that delivered {@value #BATCHES_PER_TASK} batches submits its successor instead of
 * looping on, so a busy reader shares the pool threads with the others.
 *
 * <p>Inline delivery: when the window is empty, nobody is delivering and the handler allows it, the offering thread
 * delivers itself (no hand-off), reporting any pending loss count first, as the delivery task would
 * ({@link DeliveryCalls}). The predicate
 * thread does so in batches ({@link #offerInBatch} then {@link #endBatch}), holding {@code delivering} for the batch,
 * so listeners run once per multicast delivery batch.
 *
 * <p>This is where a slow reader is contained. A best-effort offer to a full window drops a message and counts it as
 * lost (SampleLost): the newest for a KEEP_ALL reader (it keeps the stream's prefix), the oldest not yet handed to
 * the reader for a KEEP_LAST one ({@link DeliveryHandler#keepsNewest()}, which wants the latest values). A reliable
 * offer either waits on {@code notFull} for up to the writer's max_blocking_time ({@link #offer}, the LocalBus
 * writer's own thread), or never waits ({@link #acceptInBatch}, the multicast predicate thread, which asks
 * {@link #acceptsNow()} first and stops delivering while the window is full; the delivery task rings the
 * {@link #onRoom room listener} when it frees slots). Overflow beyond the window: {@link ReaderRing}.
 *
 * <p>Concurrency: {@code lock} guards everything but {@link #hasRoom()} (see {@link ReaderRing}). The
 * {@code roomWanted} handshake (a store then a load on each side) takes full fences, once per refusal and per freed
 * batch.
 */
public final class ReaderQueue implements BusReader
{
    /** Batches one delivery task hands over before it makes way for the other readers' tasks. */
    static final int BATCHES_PER_TASK = 16;

    /** Result of {@link #offer}. */
    public enum Offer
    {
        QUEUED, DROPPED, TIMED_OUT, CLOSED
    }

    /** Offer modes: drop on a full window, wait for room, or keep beyond the window (overflow). */
    private static final int DROP = 0;
    private static final int WAIT = 1;
    private static final int OVERFLOW = 2;

    private final long readerGuid;
    private final String topicName;
    private final boolean reliable;
    private final DeliveryHandler handler;
    private final DeliveryCalls calls;
    private final ReaderRing ring;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notFull = lock.newCondition();
    /** Signalled when the delivery task ends (close waits for it). */
    private final Condition taskEnded = lock.newCondition();
    /** Whether a full best-effort window drops its oldest undelivered message (KEEP_LAST) instead of the newest. */
    private final boolean keepsNewest;
    private final DeliveryExecutor executor;
    /** The executor this queue made for itself (standalone use), closed with it; null when a participant's. */
    private final DeliveryExecutor ownExecutor;
    private final Runnable deliveryTask = this::deliveryTask;

    private long delivered;
    private volatile boolean closed;
    /** Set by {@link #acceptsNow()} when it found the window full; the delivery task then rings {@code onRoom}. */
    private volatile boolean roomWanted;
    private volatile Runnable onRoom;
    private boolean delivering;
    /** The thread whose inline batch is open (then {@code delivering} is true), or null. */
    private Thread batchOwner;
    /** Whether this reader's delivery task is queued or running. */
    private boolean scheduled;
    /** The thread running the delivery task, or null. */
    private Thread taskThread;

    /** A window delivered by its own executor (one thread at most); for a reader outside a participant. */
    public ReaderQueue(final long readerGuid, final String topicName, final boolean reliable, final int window,
        final int initialSlotBytes, final DeliveryHandler handler)
    {
        this(readerGuid, topicName, reliable, window, initialSlotBytes, handler,
            new DeliveryExecutor(String.format("%s-%05x", topicName, readerGuid & 0xFFFFF)), true);
    }

    /** A window delivered by its participant's {@code executor}. */
    public ReaderQueue(final long readerGuid, final String topicName, final boolean reliable, final int window,
        final int initialSlotBytes, final DeliveryHandler handler, final DeliveryExecutor executor)
    {
        this(readerGuid, topicName, reliable, window, initialSlotBytes, handler, executor, false);
    }

    private ReaderQueue(final long readerGuid, final String topicName, final boolean reliable, final int window,
        final int initialSlotBytes, final DeliveryHandler handler, final DeliveryExecutor executor, final boolean own)
    {
        this.readerGuid = readerGuid;
        this.topicName = topicName;
        this.reliable = reliable;
        this.handler = handler;
        this.calls = new DeliveryCalls(handler, readerGuid, topicName);
        this.keepsNewest = handler.keepsNewest();
        this.ring = new ReaderRing(window, initialSlotBytes);
        this.executor = executor;
        this.ownExecutor = own ? executor : null;
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
        return offer(message, block ? WAIT : DROP, timeoutNs, false);
    }

    /**
     * Like {@link #offerInBatch}, for a reliable reader fed by a thread that must never wait (the multicast predicate
     * thread): a full window keeps the message in its overflow. The caller asks {@link #acceptsNow()} first, so only
     * a view change's trim, which delivers without asking, fills the overflow.
     */
    public Offer acceptInBatch(final BusMessage message)
    {
        return offer(message, OVERFLOW, 0, true);
    }

    /** Whether the window has a free slot (or is closed); no lock. */
    public boolean hasRoom()
    {
        return ring.hasRoom() || closed;
    }

    /**
     * {@link #hasRoom()}, and when there is none, asks the delivery task to run the {@link #onRoom room listener}
     * once it frees slots (set before the second look, so a slot freed in between is not missed).
     */
    public boolean acceptsNow()
    {
        if (hasRoom())
        {
            return true;
        }
        roomWanted = true;
        VarHandle.fullFence(); // the store above before the loads below (the delivery task mirrors it)
        return hasRoom();
    }

    /** What the delivery task runs (outside the lock) after freeing slots that {@link #acceptsNow()} waited for. */
    public void onRoom(final Runnable listener)
    {
        this.onRoom = listener;
    }

    /**
     * Like {@link #offer(BusMessage, boolean, long)}, for a thread that delivers batches (the predicate thread): an
     * inline delivery leaves the batch open, so that further offers of the same thread are delivered inline too and
     * the handler's {@code onBatchEnd} (listeners, WaitSets) runs once, at {@link #endBatch()}.
     */
    public Offer offerInBatch(final BusMessage message, final boolean block, final long timeoutNs)
    {
        return offer(message, block ? WAIT : DROP, timeoutNs, true);
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
            calls.endBatch();
        }
        finally
        {
            lock.lock();
            delivering = false;
            if (!ring.empty() || calls.hasLost())
            {
                // Queued messages, or a loss counted after this batch reported its own: the delivery task's turn.
                schedule();
            }
            lock.unlock();
        }
    }

    private Offer offer(final BusMessage message, final int mode, final long timeoutNs, final boolean batched)
    {
        lock.lock();
        try
        {
            final Offer full = awaitRoom(message, mode, timeoutNs);
            if (full != null)
            {
                return full;
            }
            if (closed)
            {
                return Offer.CLOSED;
            }
            if (batchOwner == Thread.currentThread() && ring.empty())
            {
                // This thread's open inline batch: deliver inline, the batch end comes with endBatch().
                deliverUnlocked(message, true);
                return Offer.QUEUED;
            }
            if (ring.empty() && !delivering && handler.inlineSafe())
            {
                delivering = true;
                if (batched)
                {
                    batchOwner = Thread.currentThread();
                    deliverUnlocked(message, true);
                    return Offer.QUEUED;
                }
                try
                {
                    deliverUnlocked(message, false);
                }
                finally
                {
                    delivering = false;
                    if (!ring.empty())
                    {
                        schedule();
                    }
                }
                return Offer.QUEUED;
            }
            ring.append(message);
            schedule();
            return Offer.QUEUED;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Under the lock: while the ring is full, keeps the message beyond it (OVERFLOW), drops (DROP) or waits for room
     * (WAIT). Returns the offer's result when it ended here, or null when the message is still to be queued.
     */
    private Offer awaitRoom(final BusMessage message, final int mode, final long timeoutNs)
    {
        long remainingNs = timeoutNs;
        while (!closed && ring.full())
        {
            if (mode == OVERFLOW)
            {
                ring.keepInOverflow(message);
                return Offer.QUEUED;
            }
            if (mode == DROP)
            {
                final boolean dropped = !keepsNewest || ring.dropOldest(message);
                if (dropped)
                {
                    calls.lostOne();
                }
                schedule();
                return dropped ? Offer.DROPPED : Offer.QUEUED;
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
        return null;
    }

    /** Under the lock, which it releases around the handler call: one message delivered by the offering thread. */
    private void deliverUnlocked(final BusMessage message, final boolean inBatch)
    {
        lock.unlock();
        try
        {
            if (inBatch)
            {
                calls.inBatch(message);
            }
            else
            {
                calls.single(message);
            }
        }
        finally
        {
            lock.lock();
        }
    }

    /** Under the lock: submits the delivery task unless it is queued or running (then it sees the new work). */
    private void schedule()
    {
        if (!scheduled && !closed)
        {
            scheduled = true;
            executor.execute(deliveryTask);
        }
    }

    /** Counts messages the transport lost for this reader (lapped best-effort receiver); reported at next batch. */
    public void addLost(final int count)
    {
        calls.addLost(count);
        lock.lock();
        try
        {
            schedule();
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
            final long target = ring.end();
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
     * On a pool thread: hands the full slots to the handler, batch after batch, until the window is empty (or an
     * inline delivery holds it, which schedules the task again when it leaves work), or {@value #BATCHES_PER_TASK}
     * batches were handed over (then the task is submitted again, after the other readers' queued tasks).
     */
    private void deliveryTask()
    {
        for (int batches = 0; ; batches++)
        {
            final long from;
            final long to;
            lock.lock();
            try
            {
                if (closed || delivering || (ring.empty() && !calls.hasLost()) || batches == BATCHES_PER_TASK)
                {
                    final boolean more = !closed && batches == BATCHES_PER_TASK;
                    scheduled = false;
                    taskThread = null;
                    taskEnded.signalAll();
                    if (more)
                    {
                        schedule();
                    }
                    return;
                }
                taskThread = Thread.currentThread();
                from = ring.beginDispatch();
                to = ring.dispatchEnd();
                delivering = true;
            }
            finally
            {
                lock.unlock();
            }
            calls.batch(ring, from, to);
            freeBatch(to);
        }
    }

    /** Frees the handed-over slots (refilling from the overflow) and rings the room listener if it waits. */
    private void freeBatch(final long to)
    {
        lock.lock();
        try
        {
            ring.endDispatch(to);
            delivered = to;
            delivering = false;
            notFull.signalAll();
        }
        finally
        {
            lock.unlock();
        }
        VarHandle.fullFence(); // the head store before the load of roomWanted (acceptsNow mirrors it)
        if (roomWanted && hasRoom())
        {
            roomWanted = false;
            final Runnable listener = onRoom;
            if (listener != null)
            {
                listener.run();
            }
        }
    }

    /** Closes the window; waits up to 5 s for a running delivery task (unless called from it). */
    @Override
    public void close()
    {
        lock.lock();
        try
        {
            closed = true;
            notFull.signalAll();
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (taskThread != null && taskThread != Thread.currentThread())
            {
                final long remainingNs = deadlineNs - System.nanoTime();
                if (remainingNs <= 0)
                {
                    break;
                }
                taskEnded.awaitNanos(remainingNs);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            lock.unlock();
        }
        if (ownExecutor != null)
        {
            ownExecutor.close();
        }
    }
}
