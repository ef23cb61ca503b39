package io.sirocco.multicast.smc;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.ClaimedSlots;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.sst.SlotDescriptor;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The send side of one subgroup's SMC: this member's sender ring (claim, commit, abort), the send trigger that
 * publishes committed slots in batches and pushes them (after releasing the lock when {@code pushOutsideLock}), the
 * null-send rule's null runs, and the wedge that stops sending at a view change.
 *
 * <p><b>Threads.</b> Application threads call {@link #tryClaim}, {@link #commit} and {@link #abort}; they hold
 * {@link #lock} from a successful claim to its commit. The send trigger and {@link #wedge()} run on the predicate
 * thread. Sender state ({@code nextIndex}, {@code committedCount}, {@code publishedCount}, the open null run,
 * {@code wedged}) is guarded by the lock; {@code commitHint} is volatile so an idle send trigger returns without it.
 *
 * <p><b>Memory ordering.</b> A slot's bytes are written by the claiming thread, then the lock is released (commit);
 * the send trigger acquires the lock and stores {@code COMMITTED} with release semantics, which on shared memory is the
 * publication itself. With {@link SpindleOptions#publishOnCommit()} on shared rows the committing thread makes that
 * release store itself, still under the lock (so the two stores of {@code COMMITTED} never go backwards). In lossy
 * mode the slot header's {@code index} is a seqlock: the writer stores {@code ~index} and a store-store fence before
 * rewriting a slot and the real index with release at commit.
 */
final class SlotSender extends SubgroupSlots implements ClaimedSlots
{
    /** Unused bytes up to which a slot counts as full and joins a contiguous range push (about an operation header). */
    private static final long FULL_SLOT_SLACK = 64;

    private final SlotReceiver receiver;
    /**
     * Run by a committing thread instead of the doorbell, or null (set once when the view's context is built, before
     * any claim): pushes the commit itself when no other thread runs a pass (see {@link #inlinePush}).
     */
    private Runnable inlinePush;
    /** {@link SpindleOptions#publishOnCommit()} applies: rows are shared and sends are batched. */
    private final boolean publishOnCommit;

    /** Guards the sender state; held by an application thread from claim to commit. */
    private final ReentrantLock lock = new ReentrantLock();
    long nextIndex;
    long committedCount;
    /**
     * {@code committedCount} as last stored by a commit, readable without the lock: lets the send trigger of an idle
     * subgroup return without taking the lock (volatile: written by application threads, read by the predicate thread).
     */
    private volatile long commitHint;
    /** Predicate thread only: {@code nextIndex} when {@link #emitNulls} last ran; nulls below it are emitted. */
    private long nullsCoveredTo;
    long publishedCount;
    private long openRunHead = -1;
    private int openRunLength;
    boolean wedged;
    private long windowFloorCache = -1;

    /**
     * @param slots    the subgroup's geometry.
     * @param receiver its receive side: the send trigger takes this member's own slots through it and reads its
     *                 null-send target.
     */
    SlotSender(final SubgroupSlots slots, final SlotReceiver receiver)
    {
        super(slots);
        this.receiver = receiver;
        this.publishOnCommit = options.publishOnCommit() && options.sendBatching() && transport.sharesRows();
    }

    /** See {@link SubgroupEngine#tryClaim}. */
    int tryClaim(final int length, final SlotClaim claim)
    {
        if (mySender < 0)
        {
            return ClaimResult.NOT_A_WRITER;
        }
        if (length < 0 || length > maxMessage)
        {
            return ClaimResult.TOO_LARGE;
        }
        lock.lock();
        if (wedged)
        {
            lock.unlock();
            return ClaimResult.VIEW_CHANGING;
        }
        if (lock.getHoldCount() > 1)
        {
            lock.unlock();
            throw new IllegalStateException("subgroup " + name + ": claim while this thread holds an open claim");
        }
        final long i = nextIndex;
        if (!windowOpen(i))
        {
            lock.unlock();
            return ClaimResult.BACK_PRESSURED;
        }
        final int pos = (int)(i % window);
        final long slot = table.rowBase(myRank) + offSlots + pos * slotWidth;
        if (mode == DeliveryMode.UNORDERED_LOSSY)
        {
            table.setPlain(myRank, offSlots + pos * slotWidth + SlotDescriptor.INDEX_OFFSET, ~i);
            VarHandle.storeStoreFence();
        }
        final boolean bulk = length > slotSize;
        raw.set(INT, slot + SlotDescriptor.LENGTH_OFFSET, length);
        raw.set(INT, slot + SlotDescriptor.NULLS_OFFSET, 0);
        raw.set(INT, slot + SlotDescriptor.FLAGS_OFFSET, bulk ? SlotDescriptor.FLAG_BULK : 0);
        openRunHead = -1;
        nextIndex = i + 1;
        claim.wrap(this, i, bulk ? bulks[mySender][pos] : payloads[mySender][pos], length);
        return ClaimResult.OK;
    }

    /** See {@link SubgroupEngine#commit(long, int)}. */
    @Override
    public void commit(final long index, final int length)
    {
        raw.set(INT, table.rowBase(myRank) + offSlots + (index % window) * slotWidth + SlotDescriptor.LENGTH_OFFSET,
            length);
        commit(index);
    }

    /** Publishes a claimed message; releases the sender lock. */
    @Override
    public void commit(final long index)
    {
        final long slotIndex = offSlots + (index % window) * slotWidth + SlotDescriptor.INDEX_OFFSET;
        if (mode == DeliveryMode.UNORDERED_LOSSY)
        {
            table.setRelease(myRank, slotIndex, index);
        }
        else
        {
            table.setPlain(myRank, slotIndex, index);
        }
        committedCount = index + 1;
        if (publishOnCommit)
        {
            // Publishes every committed slot (this thread wrote the bytes; nulls were published by the send trigger
            // under this lock): on shared rows this release store is the push. The send trigger still counts the
            // push and rings in-JVM peers, and it republishes the same value, so COMMITTED stays monotonic.
            table.setRelease(myRank, offCommitted, committedCount);
        }
        commitHint = index + 1;
        lock.unlock();
        // After the unlock: the push (the send trigger) takes the lock again, as on the predicate thread.
        final Runnable push = inlinePush;
        if (push != null)
        {
            push.run();
        }
        else
        {
            doorbell.run();
        }
    }

    /** See {@link SubgroupEngine#inlinePush}. */
    boolean inlinePush(final Runnable push)
    {
        if (mode != DeliveryMode.ORDERED || mySender < 0)
        {
            return false;
        }
        this.inlinePush = push;
        return true;
    }

    /** Turns a claimed slot into a null message; releases the sender lock. */
    @Override
    public void abort(final long index)
    {
        final long slot = table.rowBase(myRank) + offSlots + (index % window) * slotWidth;
        raw.set(INT, slot + SlotDescriptor.LENGTH_OFFSET, 0);
        raw.set(INT, slot + SlotDescriptor.NULLS_OFFSET, 1);
        raw.set(INT, slot + SlotDescriptor.FLAGS_OFFSET, 0);
        commit(index);
    }

    private boolean windowOpen(final long i)
    {
        if (i < window || mode == DeliveryMode.UNORDERED_LOSSY)
        {
            return true;
        }
        final long need = mode == DeliveryMode.ORDERED ? (i - window) * senders + mySender + 1 : i - window + 1;
        if (windowFloorCache >= need)
        {
            return true;
        }
        long floor = Long.MAX_VALUE;
        for (final int m : memberRanks)
        {
            final long v = mode == DeliveryMode.ORDERED ? table.getAcquire(m, offDelivered)
                : table.getAcquire(m, offReceived + 8L * mySender);
            floor = Math.min(floor, v);
        }
        windowFloorCache = floor;
        return floor >= need;
    }

    /** See {@link SubgroupEngine#sendTrigger()}. */
    boolean sendTrigger()
    {
        // Idle fast path, no lock: nothing committed since the last publication (publishedCount has this thread as
        // its only writer) and no null owed beyond what the last emission covered (nextIndex only grows).
        if (mySender < 0 || (commitHint <= publishedCount && receiver.nullTarget <= nullsCoveredTo)
            || !lock.tryLock())
        {
            return false;
        }
        final long from;
        final long to;
        boolean pushed = false;
        try
        {
            if (options.nullSends() && mode == DeliveryMode.ORDERED && !wedged)
            {
                emitNulls();
            }
            from = publishedCount;
            if (committedCount == from)
            {
                return false;
            }
            to = options.sendBatching() ? committedCount : from + runLengthAt(from);
            publishedCount = to;
            table.setRelease(myRank, offCommitted, to);
            if (!options.pushOutsideLock() || (mode == DeliveryMode.UNORDERED_LOSSY && !transport.sharesRows()))
            {
                pushRange(from, to);
                pushed = true;
            }
        }
        finally
        {
            lock.unlock();
        }
        if (!pushed)
        {
            pushRange(from, to);
        }
        receiver.receiveOwn();
        transport.flush();
        stats.sendBatches++;
        stats.sentMessages += to - from;
        return true;
    }

    private int runLengthAt(final long index)
    {
        final long slot = table.rowBase(myRank) + offSlots + (index % window) * slotWidth;
        return Math.max(1, raw.get(INT, slot + SlotDescriptor.NULLS_OFFSET));
    }

    private void emitNulls()
    {
        final long nullTarget = receiver.nullTarget;
        while (nextIndex < nullTarget && windowOpen(nextIndex))
        {
            final long i = nextIndex;
            if (openRunHead >= publishedCount && openRunHead + openRunLength == i)
            {
                openRunLength++;
                raw.set(INT, table.rowBase(myRank) + offSlots + (openRunHead % window) * slotWidth
                    + SlotDescriptor.NULLS_OFFSET, openRunLength);
            }
            else
            {
                openRunHead = i;
                openRunLength = 1;
                final long slot = table.rowBase(myRank) + offSlots + (i % window) * slotWidth;
                raw.set(ValueLayout.JAVA_LONG, slot + SlotDescriptor.INDEX_OFFSET, i);
                raw.set(INT, slot + SlotDescriptor.LENGTH_OFFSET, 0);
                raw.set(INT, slot + SlotDescriptor.NULLS_OFFSET, 1);
                raw.set(INT, slot + SlotDescriptor.FLAGS_OFFSET, 0);
            }
            nextIndex = i + 1;
            committedCount = nextIndex;
            stats.nullsSent++;
        }
        nullsCoveredTo = nextIndex;
        // Under the lock, like the commits: the hint never goes back.
        commitHint = committedCount;
    }

    /** Pushes the slots of messages {@code [from, to)} (at most two ranges), their bulk bytes, then the guard. */
    private void pushRange(final long from, final long to)
    {
        final long first = Math.max(from, to - window);
        final long n = to - first;
        final int pos = (int)(first % window);
        final long run1 = Math.min(n, window - pos);
        if (mode == DeliveryMode.UNORDERED_LOSSY && !transport.sharesRows())
        {
            // A copying transport overwrites a slot the peer may be reading: invalidate the headers first, so the
            // peer's seqlock check sees the rewrite (per-call ordering of the SPI).
            for (long i = first; i < to; i++)
            {
                transport.pushGuard(offSlots + (i % window) * slotWidth + SlotDescriptor.INDEX_OFFSET, ~i);
            }
        }
        if (transport.sharesRows())
        {
            transport.pushBytes(offSlots + pos * slotWidth, run1 * slotWidth);
            if (n > run1)
            {
                transport.pushBytes(offSlots, (n - run1) * slotWidth);
            }
        }
        else
        {
            pushUsedSlotBytes(first, to);
        }
        if (bulks.length > 0 && mySender >= 0 && bulks[mySender] != null && !transport.sharesRows())
        {
            pushBulkBytes(first, to);
        }
        transport.pushGuard(offCommitted, to);
    }

    /** A copying transport: pushes the bulk bytes of the bulk messages of {@code [first, to)}. */
    private void pushBulkBytes(final long first, final long to)
    {
        final long rowBase = table.rowBase(myRank);
        for (long i = first; i < to; i++)
        {
            final long slot = rowBase + offSlots + (i % window) * slotWidth;
            if ((raw.get(INT, slot + SlotDescriptor.FLAGS_OFFSET) & SlotDescriptor.FLAG_BULK) != 0)
            {
                transport.pushBytes(offBulk + (i % window) * bulkStride,
                    raw.get(INT, slot + SlotDescriptor.LENGTH_OFFSET));
            }
        }
    }

    /**
     * A copying transport (tcp) carries bytes, so each slot of {@code [first, to)} is pushed as its header plus the
     * payload bytes its length names, not the whole slot width: a 64-byte sample in a 2 KiB slot costs ~100 bytes on
     * the wire instead of ~2 KiB. Receivers read only {@code length} payload bytes of a slot (bulk payloads live in
     * the bulk region, null runs have none), so the bytes left out are never read. The length is read from this
     * member's own row, written by the committing thread before {@code committed} moved past the slot; it is clamped
     * to the slot's capacity so a slot a lossy writer is rewriting cannot make the push leave the slot.
     */
    private void pushUsedSlotBytes(final long first, final long to)
    {
        final long rowBase = table.rowBase(myRank);
        final long capacity = slotWidth - SlotDescriptor.HEADER_LENGTH;
        // A run of (nearly) full slots stays one range push, as before: cutting it would only add operations.
        long runStart = -1;
        long runEnd = -1;
        for (long i = first; i < to; i++)
        {
            final long slotOffset = offSlots + (i % window) * slotWidth;
            final long slot = rowBase + slotOffset;
            final boolean bulk = (raw.get(INT, slot + SlotDescriptor.FLAGS_OFFSET) & SlotDescriptor.FLAG_BULK) != 0;
            final long payload = bulk ? 0 : Math.min(capacity, Math.max(0, raw.get(INT, slot
                + SlotDescriptor.LENGTH_OFFSET)));
            final long used = SlotDescriptor.HEADER_LENGTH + payload;
            if (slotWidth - used <= FULL_SLOT_SLACK && runStart >= 0 && runEnd == slotOffset)
            {
                runEnd += slotWidth;
                continue;
            }
            if (runStart >= 0)
            {
                transport.pushBytes(runStart, runEnd - runStart);
                runStart = -1;
            }
            if (slotWidth - used <= FULL_SLOT_SLACK)
            {
                runStart = slotOffset;
                runEnd = slotOffset + slotWidth;
            }
            else
            {
                transport.pushBytes(slotOffset, used);
            }
        }
        if (runStart >= 0)
        {
            transport.pushBytes(runStart, runEnd - runStart);
        }
    }

    /** See {@link SubgroupEngine#wedge()}. */
    boolean wedge()
    {
        if (wedged)
        {
            return true;
        }
        if (mySender >= 0 && !lock.tryLock())
        {
            return false;
        }
        try
        {
            wedged = true;
        }
        finally
        {
            if (mySender >= 0)
            {
                lock.unlock();
            }
        }
        while (sendTrigger())
        {
            // Publish everything committed (sendTrigger publishes one run at a time when batching is off).
        }
        return true;
    }

    /** See {@link SubgroupEngine#senderLockHeldByCurrentThread()}. */
    boolean lockHeldByCurrentThread()
    {
        return lock.isHeldByCurrentThread();
    }
}
