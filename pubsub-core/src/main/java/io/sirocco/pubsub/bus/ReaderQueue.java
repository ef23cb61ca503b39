package io.sirocco.pubsub.bus;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * <p>This is where a slow reader is contained. A best-effort offer to a full window drops a message and counts it as
 * lost (SampleLost): the newest for a KEEP_ALL reader (it keeps the stream's prefix), the oldest not yet handed to
 * the reader for a KEEP_LAST one ({@link DeliveryHandler#keepsNewest()}, which wants the latest values). A reliable
 * offer either waits on {@code notFull} for up to the writer's max_blocking_time ({@link #offer}, the LocalBus
 * writer's own thread), or never waits ({@link #acceptInBatch}, the multicast predicate thread, which asks
 * {@link #acceptsNow()} first and stops delivering while the window is full; the delivery thread rings the
 * {@link #onRoom room listener} when it frees slots).
 *
 * <p><b>Overflow.</b> Messages that must be kept while the ring is full go to an overflow queue beyond the window,
 * moved into the ring (by reference, oldest first) as the delivery thread frees slots. Two uses, both bounded: a
 * reliable window takes there what a view change's ragged trim delivers without asking (at most the subgroup's
 * window times its senders per view change, see docs/dds.md), and a KEEP_LAST best-effort window keeps there at
 * most one message while the delivery thread holds every ring slot (it is that message that a later offer then
 * replaces). Invariant: the overflow is empty unless the ring is full.
 *
 * <p>Concurrency: {@code lock} guards everything; {@code head} and {@code tail} are also stored with release
 * semantics so that {@link #hasRoom()} can read them (acquire) without the lock: the delivery thread stores
 * {@code tail} before {@code head}, and {@code hasRoom} loads {@code head} first, so it never sees room the overflow
 * has already taken. Release stores rather than volatile ones keep the per-sample offer free of a full fence; the
 * {@code roomWanted} handshake (a store then a load on each side) takes full fences, once per refusal and per freed
 * batch. Slots in
 * {@code [head, dispatchEnd)} are being handed over by the delivery thread outside the lock: nobody rewrites or moves
 * them.
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
    /** Whether a full best-effort window drops its oldest undelivered message (KEEP_LAST) instead of the newest. */
    private final boolean keepsNewest;
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(ReaderQueue.class, "head", long.class);
            TAIL = lookup.findVarHandle(ReaderQueue.class, "tail", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Written under {@code lock}, with release ({@link #HEAD}, {@link #TAIL}); see the class comment. */
    private long head;
    private long tail;
    /** End of the slots the delivery thread is handing over; {@code head} when it holds none. */
    private long dispatchEnd;
    private long delivered;
    private volatile boolean closed;
    /** Messages kept beyond a full ring, oldest first (see the class comment); with {@code spare}, reused objects. */
    private final java.util.ArrayDeque<BusMessage> overflow = new java.util.ArrayDeque<>();
    private final java.util.ArrayDeque<BusMessage> spare = new java.util.ArrayDeque<>();
    /** Set by {@link #acceptsNow()} when it found the window full; the delivery thread then rings {@code onRoom}. */
    private volatile boolean roomWanted;
    private volatile Runnable onRoom;
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
        this.keepsNewest = handler.keepsNewest();
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
        final long h = (long)HEAD.getAcquire(this);
        return (long)TAIL.getAcquire(this) - h < slots.length || closed;
    }

    /**
     * {@link #hasRoom()}, and when there is none, asks the delivery thread to run the {@link #onRoom room listener}
     * once it frees slots (set before the second look, so a slot freed in between is not missed).
     */
    public boolean acceptsNow()
    {
        if (hasRoom())
        {
            return true;
        }
        roomWanted = true;
        VarHandle.fullFence(); // the store above before the loads below (the delivery thread mirrors it)
        return hasRoom();
    }

    /** What the delivery thread runs (outside the lock) after freeing slots that {@link #acceptsNow()} waited for. */
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

    /** Offer modes: drop on a full window, wait for room, or keep beyond the window (overflow). */
    private static final int DROP = 0;
    private static final int WAIT = 1;
    private static final int OVERFLOW = 2;

    private Offer offer(final BusMessage message, final int mode, final long timeoutNs, final boolean batched)
    {
        lock.lock();
        try
        {
            long remainingNs = timeoutNs;
            while (!closed && tail - head == slots.length)
            {
                if (mode == OVERFLOW)
                {
                    keepInOverflow(message);
                    return Offer.QUEUED;
                }
                if (mode == DROP)
                {
                    final Offer result = keepsNewest ? dropOldest(message) : Offer.DROPPED;
                    if (result == Offer.DROPPED)
                    {
                        lost.incrementAndGet();
                    }
                    notEmpty.signal();
                    return result;
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
            TAIL.setRelease(this, tail + 1);
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

    /** Under the lock, ring full: appends a copy of the message to the overflow. */
    private void keepInOverflow(final BusMessage message)
    {
        BusMessage copy = spare.pollFirst();
        if (copy == null)
        {
            copy = new BusMessage(message.payloadLength());
        }
        copy.copyFrom(message);
        overflow.addLast(copy);
    }

    /**
     * Under the lock, ring full, KEEP_LAST best effort: makes room for the new message by dropping the oldest one not
     * yet handed to the reader. When the delivery thread holds every ring slot, the newest message waits in the
     * overflow (one at most: a later offer replaces it, counting it lost).
     *
     * @return DROPPED when a message was dropped (the caller counts it), QUEUED when none was.
     */
    private Offer dropOldest(final BusMessage message)
    {
        final int n = slots.length;
        if (dispatchEnd == head)
        {
            // Nobody is handing slots over: the oldest is at head, and its slot is the next tail slot.
            slots[(int)(head % n)].copyFrom(message);
            TAIL.setRelease(this, tail + 1);
            HEAD.setRelease(this, head + 1);
            dispatchEnd = head;
            return Offer.DROPPED;
        }
        if (dispatchEnd < tail)
        {
            // Drop the oldest slot after the ones being handed over: shift the later ones down (by reference).
            final BusMessage victim = slots[(int)(dispatchEnd % n)];
            for (long j = dispatchEnd; j < tail - 1; j++)
            {
                slots[(int)(j % n)] = slots[(int)((j + 1) % n)];
            }
            victim.copyFrom(message);
            slots[(int)((tail - 1) % n)] = victim;
            return Offer.DROPPED;
        }
        if (overflow.isEmpty())
        {
            keepInOverflow(message);
            return Offer.QUEUED;
        }
        overflow.peekLast().copyFrom(message);
        return Offer.DROPPED;
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
            final long target = tail + overflow.size();
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
                dispatchEnd = to;
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
                // Refill the freed slots from the overflow, by reference; tail is stored before head (hasRoom).
                long t = tail;
                while (!overflow.isEmpty() && t - to < slots.length)
                {
                    final int pos = (int)(t % slots.length);
                    spare.addLast(slots[pos]);
                    slots[pos] = overflow.pollFirst();
                    t++;
                }
                TAIL.setRelease(this, t);
                HEAD.setRelease(this, to);
                dispatchEnd = to;
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
