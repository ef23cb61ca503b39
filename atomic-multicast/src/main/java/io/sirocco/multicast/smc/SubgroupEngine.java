package io.sirocco.multicast.smc;

import io.sirocco.multicast.ClaimResult;
import io.sirocco.multicast.DeliveryHandler;
import io.sirocco.multicast.DeliveryMode;
import io.sirocco.multicast.SlotClaim;
import io.sirocco.multicast.fault.FaultInjector;
import io.sirocco.multicast.fault.FaultPoint;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.sst.SlotDescriptor;
import io.sirocco.multicast.sst.SstLayout;
import io.sirocco.multicast.sst.SstTable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The SMC of one subgroup in one view, from this member's side: its sender ring (if it is a writer) and the send,
 * receive and delivery triggers.
 *
 * <p><b>Threads.</b> Application threads call {@link #tryClaim}, {@link #commit} and {@link #abort}; they hold
 * {@link #lock} from a successful claim to its commit. The predicate thread runs the triggers. Sender state
 * ({@code nextIndex}, {@code committedCount}, {@code publishedCount}, the open null run) is guarded by the lock; all
 * receive and delivery state is confined to the predicate thread, so the receive and delivery triggers take no lock.
 * "The predicate thread" means whichever thread holds the predicate engine's pass lock: a transport's receiving thread
 * or a committing thread may run the triggers inline (see {@code PredicateEngine}), one at a time, each pass ordered
 * after the previous by that lock.
 *
 * <p><b>Memory ordering.</b> A slot's bytes are written by the claiming thread, then the lock is released (commit);
 * the send trigger acquires the lock and stores {@code COMMITTED} with release semantics, which on shared memory is the
 * publication itself. With {@link SpindleOptions#publishOnCommit()} on shared rows the committing thread makes that
 * release store itself, still under the lock (so the two stores of {@code COMMITTED} never go backwards). Receivers
 * read {@code COMMITTED} of the sender's row with acquire semantics, then the slots it
 * covers. In lossy mode the slot header's {@code index} is a seqlock: the writer stores {@code ~index} and a
 * store-store fence before rewriting a slot and the real index with release at commit; the reader checks it before
 * and, after a load-load fence, after copying.
 *
 * <p><b>Counts.</b> Every counter is a count: sender {@code k}'s message {@code i} (0-based) has
 * {@code seq = i * S + k}; it is received in order once {@code SEQ > seq}, stable once every member's {@code SEQ >
 * seq}, delivered once {@code DELIVERED > seq}. Slot {@code i % w} can take message {@code i} once every member's
 * {@code DELIVERED > (i - w) * S + k} (ORDERED) or {@code RECEIVED[k] > i - w} (UNORDERED).
 */
public final class SubgroupEngine
{
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    private final String name;
    private final DeliveryMode mode;
    private final int senders;
    private final int[] senderRanks;
    private final long[] senderIds;
    private final int[] memberRanks;
    private final int myRank;
    private final int mySender;
    private final int window;
    private final int slotSize;
    private final int maxMessage;
    private final long slotWidth;
    private final long bulkStride;
    private final SstTable table;
    private final MemorySegment raw;
    private final RowTransport transport;
    private final SpindleOptions options;
    private final Runnable doorbell;
    private final DeliveryHandler handler;
    private final SubgroupStats stats = new SubgroupStats();
    /** Predicate thread only (set once when the view's context is built). */
    private FaultInjector faults = FaultInjector.NONE;
    /**
     * Run by a committing thread instead of the doorbell, or null (set once when the view's context is built, before
     * any claim): pushes the commit itself when no other thread runs a pass (see {@link #inlinePush}).
     */
    private Runnable inlinePush;
    private long viewId;

    private final long offCommitted;
    private final long offReceived;
    private final long offSeq;
    private final long offDelivered;
    private final long offPersisted;
    private final long offTrim;
    private final long offTrimReady;
    private final long offSlots;
    private final long offBulk;

    private final MemorySegment[][] payloads;
    private final MemorySegment[][] bulks;
    private final MemorySegment scratch;
    /** {@link SpindleOptions#publishOnCommit()} applies: rows are shared and sends are batched. */
    private final boolean publishOnCommit;
    /** Per entry of {@code memberRanks}: its sender rank when {@link SpindleOptions#selfReceipt()} applies, else -1. */
    private final int[] memberSender;

    /** Guards the sender state; held by an application thread from claim to commit. */
    private final ReentrantLock lock = new ReentrantLock();
    private long nextIndex;
    private long committedCount;
    /**
     * {@code committedCount} as last stored by a commit, readable without the lock: lets the send trigger of an idle
     * subgroup return without taking the lock (volatile: written by application threads, read by the predicate thread).
     */
    private volatile long commitHint;
    /** Predicate thread only: {@code nextIndex} when {@link #emitNulls} last ran; nulls below it are emitted. */
    private long nullsCoveredTo;
    private long publishedCount;
    private long openRunHead = -1;
    private int openRunLength;
    private boolean wedged;
    private long windowFloorCache = -1;

    // Predicate thread only.
    private long nullTarget;
    private final long[] received;
    private final boolean[][] nullAt;
    private long delivered;
    private long persistedPublished;
    private volatile long persistedLocal;
    private volatile boolean persistenceHold;
    private long pendingLost;
    /**
     * UNORDERED_LOSSY: how far behind the newest committed message a receiver lapped while it copies resumes (half
     * the window).
     */
    private final long resumeLag;
    /** UNORDERED_LOSSY: how far past the oldest slot a receiver lapped between passes resumes (an eighth). */
    private final long lapGuard;

    /**
     * @param name        subgroup name (for errors and logs).
     * @param mode        delivery mode.
     * @param windowSize  slots per sender.
     * @param slotSize    payload bytes per slot.
     * @param maxMessage  largest message (bulk region when larger than {@code slotSize}).
     * @param g           the subgroup's position in the layout.
     * @param layout      the view's row layout.
     * @param senderRanks view ranks of the senders, in sender-rank order.
     * @param senderIds   member ids of the senders.
     * @param memberRanks view ranks of every member of the subgroup.
     * @param myRank      this member's view rank.
     * @param transport   the view's row transport (owns the table).
     * @param options     Spindle switches.
     * @param handler     delivery upcall (never null; use a no-op handler for pure writers).
     * @param doorbell    wakes the predicate thread (called after commit).
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public SubgroupEngine(
        final String name,
        final DeliveryMode mode,
        final int windowSize,
        final int slotSize,
        final int maxMessage,
        final int g,
        final SstLayout layout,
        final int[] senderRanks,
        final long[] senderIds,
        final int[] memberRanks,
        final int myRank,
        final RowTransport transport,
        final SpindleOptions options,
        final DeliveryHandler handler,
        final Runnable doorbell)
    {
        this.name = name;
        this.mode = mode;
        this.window = windowSize;
        this.slotSize = slotSize;
        this.maxMessage = maxMessage;
        this.senders = senderRanks.length;
        this.senderRanks = senderRanks;
        this.senderIds = senderIds;
        this.memberRanks = memberRanks;
        this.myRank = myRank;
        int me = -1;
        for (int k = 0; k < senderRanks.length; k++)
        {
            if (senderRanks[k] == myRank)
            {
                me = k;
            }
        }
        this.mySender = me;
        this.transport = transport;
        this.raw = transport.table();
        this.table = new SstTable(raw, layout.rowLengthBytes());
        this.options = options;
        this.handler = handler;
        this.doorbell = doorbell;
        this.slotWidth = layout.slotWidth(g);
        this.bulkStride = SlotDescriptor.align(maxMessage, 64);
        this.offCommitted = layout.committed(g);
        this.offReceived = layout.received(g, 0);
        this.offSeq = layout.seq(g, senders);
        this.offDelivered = layout.delivered(g);
        this.offPersisted = layout.persisted(g);
        this.offTrim = layout.trim(g, 0);
        this.offTrimReady = layout.trimReady(g, senders);
        this.offSlots = layout.slots(g);
        this.offBulk = layout.bulk(g);
        this.received = new long[senders];
        this.nullAt = new boolean[senders][windowSize];
        this.payloads = new MemorySegment[senders][windowSize];
        this.bulks = new MemorySegment[senders][];
        final boolean hasBulk = maxMessage > slotSize;
        for (int k = 0; k < senders; k++)
        {
            final long rowBase = table.rowBase(senderRanks[k]);
            if (hasBulk)
            {
                bulks[k] = new MemorySegment[windowSize];
            }
            for (int p = 0; p < windowSize; p++)
            {
                payloads[k][p] = raw.asSlice(
                    rowBase + offSlots + p * slotWidth + SlotDescriptor.HEADER_LENGTH, slotSize);
                if (hasBulk)
                {
                    bulks[k][p] = raw.asSlice(rowBase + offBulk + p * bulkStride, maxMessage);
                }
            }
        }
        this.publishOnCommit = options.publishOnCommit() && options.sendBatching() && transport.sharesRows();
        this.memberSender = new int[memberRanks.length];
        for (int j = 0; j < memberRanks.length; j++)
        {
            memberSender[j] = -1;
            for (int k = 0; options.selfReceipt() && memberRanks[j] != myRank && k < senderRanks.length; k++)
            {
                if (senderRanks[k] == memberRanks[j])
                {
                    memberSender[j] = k;
                }
            }
        }
        this.resumeLag = Math.max(1, windowSize / 2);
        this.lapGuard = Math.min(windowSize - 1, Math.max(1, windowSize / 8));
        this.scratch = mode == DeliveryMode.UNORDERED_LOSSY ? Arena.ofAuto().allocate(Math.max(8, maxMessage), 64)
            : null;
    }

    // ------------------------------------------------------------------------------------------------ sender API

    /**
     * Claims the next slot for a message of {@code length} bytes. On success the calling thread holds the sender
     * lock until {@link SlotClaim#commit()} or {@link SlotClaim#abort()}.
     *
     * @param length message length.
     * @param claim  filled on success.
     * @return a {@link ClaimResult} code.
     */
    public int tryClaim(final int length, final SlotClaim claim)
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

    /**
     * Publishes a claimed message in place with its final length, which may be shorter than the claimed one (a
     * writer that serialized straight into the slot knows the size only afterwards): the slot's length is written
     * before the commit's release stores, so a receiver that acquires the guard sees it. Releases the sender lock.
     *
     * @param index  the claimed message index.
     * @param length the bytes written, {@code 0 <= length <= } the claimed length (checked by {@link SlotClaim}).
     */
    public void commit(final long index, final int length)
    {
        raw.set(INT, table.rowBase(myRank) + offSlots + (index % window) * slotWidth + SlotDescriptor.LENGTH_OFFSET,
            length);
        commit(index);
    }

    /** Publishes a claimed message; releases the sender lock. */
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

    /**
     * Lets committing threads push their own commits: {@link #commit} runs {@code push} (which runs the send trigger
     * and the transport's end of pass under the predicate engine's pass lock if it is free, else rings the doorbell)
     * instead of ringing the doorbell. Only in ORDERED mode, where the send trigger delivers nothing (its own-slot
     * receipt only records), so no delivery upcall runs on an application thread that may hold its own locks. Called
     * once when the view's context is built.
     *
     * @param push the inline push, or null for the doorbell.
     * @return whether it was installed (ORDERED mode, a sender).
     */
    public boolean inlinePush(final Runnable push)
    {
        if (mode != DeliveryMode.ORDERED || mySender < 0)
        {
            return false;
        }
        this.inlinePush = push;
        return true;
    }

    /** Turns a claimed slot into a null message; releases the sender lock. */
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

    // ------------------------------------------------------------------------------------------------ triggers

    /**
     * Send trigger: emits owed nulls, then publishes every committed slot (or one message when send batching is
     * off) and pushes slots then the guard, after releasing the lock when {@code pushOutsideLock}.
     *
     * @return progress.
     */
    public boolean sendTrigger()
    {
        // Idle fast path, no lock: nothing committed since the last publication (publishedCount has this thread as
        // its only writer) and no null owed beyond what the last emission covered (nextIndex only grows).
        if (mySender < 0 || (commitHint <= publishedCount && nullTarget <= nullsCoveredTo) || !lock.tryLock())
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
        receiveOwn();
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
        transport.pushGuard(offCommitted, to);
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

    /** Unused bytes up to which a slot counts as full and joins a contiguous range push (about an operation header). */
    private static final long FULL_SLOT_SLACK = 64;

    /**
     * Receive trigger: takes every new slot of every sender (or one message when receive batching is off), delivers
     * at once in UNORDERED modes, records nulls, applies the null-send rule, then publishes RECEIVED[] and SEQ with
     * one counter push.
     *
     * @return progress.
     */
    public boolean receiveTrigger()
    {
        return receive(0, senders, true);
    }

    /**
     * Takes this member's own slots just published by the send trigger, so its {@code SEQ} moves in the same pass
     * rather than the next one (a null run answering another sender then costs one predicate pass, not two). Only
     * with receive batching: with it off, a pass takes one message.
     */
    private void receiveOwn()
    {
        if (options.receiveBatching() && mySender >= 0)
        {
            receive(mySender, mySender + 1, false);
        }
    }

    private boolean receive(final int fromSender, final int toSender, final boolean flush)
    {
        if (senders == 0)
        {
            return false;
        }
        int budget = options.receiveBatching() ? Integer.MAX_VALUE : 1;
        int deliveredNow = 0;
        boolean progress = false;
        boolean refused = false;
        for (int k = fromSender; k < toSender && budget > 0; k++)
        {
            final int row = senderRanks[k];
            final long recv = table.getAcquire(row, offCommitted);
            long old = received[k];
            if (recv <= old)
            {
                continue;
            }
            if (mode == DeliveryMode.UNORDERED_LOSSY)
            {
                // Lapped since the last pass: resume lapGuard slots after the oldest message of the window, not at
                // the oldest itself, which is the one the writer overwrites next. A writer that is not running
                // (time-sliced out) leaves window - lapGuard messages to deliver; one that is still running laps
                // this receiver again later in the pass, and the rule below moves it further ahead.
                if (recv - old > window)
                {
                    final long start = recv - window + lapGuard;
                    pendingLost += start - old;
                    old = start;
                }
                long newest = recv;
                int examined = 0;
                while (old < newest && budget > 0 && examined < window)
                {
                    final int outcome = copyChecked(k, row, old);
                    examined++;
                    budget--;
                    stats.receivedMessages++;
                    if (outcome == COPY_DELIVERED)
                    {
                        deliveredNow++;
                    }
                    if (outcome != COPY_LOST)
                    {
                        old++;
                        continue;
                    }
                    // Lapped during this pass: the slot holds, or is becoming, a message at least a window newer.
                    // Skip to resumeLag behind the newest committed message, counting every index skipped.
                    newest = Math.max(newest, table.getAcquire(row, offCommitted));
                    final long resume = Math.max(old + 1, newest - resumeLag);
                    pendingLost += resume - old;
                    old = resume;
                }
                if (pendingLost > 0)
                {
                    stats.lostMessages += pendingLost;
                    handler.onLost(senderIds[k], pendingLost);
                    pendingLost = 0;
                }
            }
            else
            {
                final long rowBase = table.rowBase(row);
                while (old < recv && budget > 0)
                {
                    final int pos = (int)(old % window);
                    final long slot = rowBase + offSlots + pos * slotWidth;
                    final int nulls = raw.get(INT, slot + SlotDescriptor.NULLS_OFFSET);
                    if (nulls > 0)
                    {
                        final long end = Math.min(old + nulls, recv);
                        for (long i = old; i < end; i++)
                        {
                            nullAt[k][(int)(i % window)] = true;
                        }
                        old = end;
                    }
                    else
                    {
                        if (mode == DeliveryMode.UNORDERED && !handler.canAccept())
                        {
                            // The handler is full: leave the message unreceived (RECEIVED stops here, which holds
                            // the sender's window) until the handler rings the doorbell.
                            refused = true;
                            break;
                        }
                        nullAt[k][pos] = false;
                        if (mode == DeliveryMode.UNORDERED)
                        {
                            deliverSlot(k, old, old * senders + k);
                            deliveredNow++;
                        }
                        old++;
                    }
                    budget--;
                    stats.receivedMessages++;
                }
            }
            if (refused && old == received[k])
            {
                break; // refused at the first message: nothing moved, and no other sender may be taken either
            }
            received[k] = old;
            table.setRelease(myRank, offReceived + 8L * k, old);
            if (mode == DeliveryMode.ORDERED && mySender >= 0 && k != mySender && options.nullSends())
            {
                final long target = mySender < k ? old : old - 1;
                if (target > nullTarget)
                {
                    nullTarget = target;
                }
            }
            progress = true;
            if (refused)
            {
                break;
            }
        }
        if (progress)
        {
            long seq = Long.MAX_VALUE;
            for (int k = 0; k < senders; k++)
            {
                seq = Math.min(seq, received[k] * senders + k);
            }
            table.setRelease(myRank, offSeq, seq);
            transport.pushCounters(offReceived, senders + 1);
            if (flush)
            {
                transport.flush();
            }
            stats.receiveBatches++;
            if (deliveredNow > 0)
            {
                stats.deliverBatches++;
                stats.deliveredMessages += deliveredNow;
                handler.onBatchEnd(deliveredNow);
            }
        }
        return progress;
    }

    private static final int COPY_LOST = 0;
    private static final int COPY_DELIVERED = 1;
    private static final int COPY_ABORTED = 2;

    private int copyChecked(final int k, final int row, final long i)
    {
        final long slot = table.rowBase(row) + offSlots + (i % window) * slotWidth;
        final long before = table.getAcquire(row, offSlots + (i % window) * slotWidth);
        if (before != i)
        {
            return COPY_LOST;
        }
        if (raw.get(INT, slot + SlotDescriptor.NULLS_OFFSET) > 0)
        {
            // An aborted claim: it keeps its index but carries no message. Checked again below like any slot.
            VarHandle.loadLoadFence();
            return table.getAcquire(row, offSlots + (i % window) * slotWidth) == i ? COPY_ABORTED : COPY_LOST;
        }
        final int length = raw.get(INT, slot + SlotDescriptor.LENGTH_OFFSET);
        final int flags = raw.get(INT, slot + SlotDescriptor.FLAGS_OFFSET);
        final boolean bulk = (flags & SlotDescriptor.FLAG_BULK) != 0;
        if (length < 0 || length > (bulk ? maxMessage : slotSize) || (bulk && bulks[k] == null))
        {
            return COPY_LOST;
        }
        final MemorySegment src = bulk ? bulks[k][(int)(i % window)] : payloads[k][(int)(i % window)];
        MemorySegment.copy(src, 0, scratch, 0, length);
        VarHandle.loadLoadFence();
        final long after = table.getAcquire(row, offSlots + (i % window) * slotWidth);
        if (after != i)
        {
            return COPY_LOST;
        }
        handler.onMessage(senderIds[k], k, i, i * senders + k, scratch, length);
        return COPY_DELIVERED;
    }

    private void deliverSlot(final int k, final long i, final long seq)
    {
        final int pos = (int)(i % window);
        final long slot = table.rowBase(senderRanks[k]) + offSlots + pos * slotWidth;
        final int length = raw.get(INT, slot + SlotDescriptor.LENGTH_OFFSET);
        final int flags = raw.get(INT, slot + SlotDescriptor.FLAGS_OFFSET);
        final MemorySegment payload = (flags & SlotDescriptor.FLAG_BULK) != 0 && bulks[k] != null
            ? bulks[k][pos] : payloads[k][pos];
        handler.onMessage(senderIds[k], k, i, seq, payload, Math.min(length, (int)payload.byteSize()));
    }

    /**
     * Delivery trigger (ORDERED): delivers every stable message ({@code seq < min over members of SEQ}) in seq
     * order, skipping nulls, then pushes DELIVERED once. Nothing once wedged: from then on only the ragged trim
     * delivers. Stability still counts a failed member's frozen row, and a survivor can keep receiving after it
     * drained (a tcp frame the failed member sent before it died), so a message the trim left out could otherwise
     * become stable at one survivor before it installs the next view, and be delivered there only.
     *
     * @return progress.
     */
    public boolean deliveryTrigger()
    {
        boolean progress = publishPersisted();
        if (mode != DeliveryMode.ORDERED || senders == 0 || wedged)
        {
            return progress;
        }
        long stable = Long.MAX_VALUE;
        for (int j = 0; j < memberRanks.length; j++)
        {
            final int m = memberRanks[j];
            stable = Math.min(stable, memberSender[j] < 0 ? table.getAcquire(m, offSeq)
                : seqCountingOwn(m, memberSender[j]));
        }
        if (stable <= delivered)
        {
            return progress;
        }
        final long limit = options.deliveryBatching() ? stable : delivered + 1;
        return deliverUpTo(limit, null) || progress;
    }

    /**
     * The SEQ of another member that is sender {@code own}, counting its own published messages as received by it
     * (Spindle's self-receipt: a sender holds its own slots). Its RECEIVED entries for the other senders are read as
     * published; every value is a monotonic count, so a stale read only delays delivery.
     */
    private long seqCountingOwn(final int rank, final int own)
    {
        long seq = Long.MAX_VALUE;
        for (int k = 0; k < senders; k++)
        {
            final long count = k == own ? table.getAcquire(rank, offCommitted)
                : table.getAcquire(rank, offReceived + 8L * k);
            seq = Math.min(seq, count * senders + k);
        }
        return seq;
    }

    /**
     * Delivers the seqs in {@code [delivered, limit)} (below the trim, when given) and pushes DELIVERED. Outside a
     * trim it stops at the first message the handler cannot accept ({@link DeliveryHandler#canAccept()}), leaving it
     * and everything after it undelivered; the trim delivers without asking.
     *
     * @return whether DELIVERED moved.
     */
    private boolean deliverUpTo(final long limit, final long[] trim)
    {
        int count = 0;
        long seq = delivered;
        for (; seq < limit; seq++)
        {
            final int k = (int)(seq % senders);
            final long i = seq / senders;
            if (trim != null && i >= trim[k])
            {
                continue;
            }
            if (!nullAt[k][(int)(i % window)])
            {
                if (trim == null && !handler.canAccept())
                {
                    break;
                }
                deliverSlot(k, i, seq);
                count++;
            }
        }
        if (seq == delivered)
        {
            return false;
        }
        delivered = seq;
        table.setRelease(myRank, offDelivered, seq);
        transport.pushCounters(offDelivered, 1);
        transport.flush();
        stats.deliverBatches++;
        stats.deliveredMessages += count;
        if (count > 0)
        {
            handler.onBatchEnd(count);
        }
        return true;
    }

    private boolean publishPersisted()
    {
        final long p = persistedLocal;
        if (p > persistedPublished)
        {
            persistedPublished = p;
            table.setRelease(myRank, offPersisted, p);
            transport.pushCounters(offPersisted, 1);
            transport.flush();
            return true;
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------------ view change

    /**
     * Stops sending in this view: no more claims or nulls; every committed message is published. Predicate thread.
     *
     * @return false when an application thread holds an open claim (retry later).
     */
    public boolean wedge()
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

    /** Whether this member has wedged this subgroup. */
    public boolean wedged()
    {
        return wedged;
    }

    /**
     * Shard leader: computes the ragged trim, or adopts one already published by a previous (failed) leader, and
     * publishes TRIM[] then TRIM_READY.
     *
     * @param live true for view ranks that are still members.
     */
    public void leadTrim(final boolean[] live)
    {
        for (final int m : memberRanks)
        {
            if (table.getAcquire(m, offTrimReady) != 0)
            {
                copyTrimFrom(m);
                return;
            }
        }
        for (int k = 0; k < senders; k++)
        {
            long min = Long.MAX_VALUE;
            for (final int m : memberRanks)
            {
                if (live[m])
                {
                    min = Math.min(min, table.getAcquire(m, offReceived + 8L * k));
                }
            }
            table.setRelease(myRank, offTrim + 8L * k, min == Long.MAX_VALUE ? 0 : min);
        }
        publishTrim();
    }

    /**
     * Follower: echoes the trim published in row {@code from}.
     *
     * @param from view rank of the member whose trim to copy.
     */
    public void copyTrimFrom(final int from)
    {
        for (int k = 0; k < senders; k++)
        {
            table.setRelease(myRank, offTrim + 8L * k, table.getAcquire(from, offTrim + 8L * k));
        }
        publishTrim();
    }

    private void publishTrim()
    {
        transport.pushCounters(offTrim, senders);
        transport.flush();
        faults.at(FaultPoint.TRIM_VALUES_PUSHED, viewId, name);
        table.setRelease(myRank, offTrimReady, 1);
        transport.pushCounters(offTrimReady, 1);
        transport.flush();
        faults.at(FaultPoint.TRIM_READY_PUSHED, viewId, name);
    }

    /**
     * Installs a fault injector (tests). Called when the view's context is built, before the engine runs.
     *
     * @param injector the injector.
     * @param view     the id of this engine's view (reported to the injector).
     */
    public void faultInjector(final FaultInjector injector, final long view)
    {
        this.faults = injector;
        this.viewId = view;
    }

    /**
     * @param rank another member.
     * @return positive when its trim is larger than this member's for some sender, 0 when equal, negative otherwise.
     */
    public int compareTrim(final int rank)
    {
        int result = 0;
        for (int k = 0; k < senders; k++)
        {
            final long theirs = table.getAcquire(rank, offTrim + 8L * k);
            final long mine = table.getAcquire(myRank, offTrim + 8L * k);
            if (theirs > mine)
            {
                return 1;
            }
            if (theirs < mine)
            {
                result = -1;
            }
        }
        return result;
    }

    /** Adopts the element-wise maximum of this member's trim and another member's, and republishes it. */
    public void adoptMaxTrim(final int rank)
    {
        for (int k = 0; k < senders; k++)
        {
            final long theirs = table.getAcquire(rank, offTrim + 8L * k);
            if (theirs > table.getAcquire(myRank, offTrim + 8L * k))
            {
                table.setRelease(myRank, offTrim + 8L * k, theirs);
            }
        }
        publishTrim();
    }

    public boolean trimReady(final int rank)
    {
        return table.getAcquire(rank, offTrimReady) != 0;
    }

    /**
     * Delivers everything up to this member's published trim (ORDERED), in seq order, then pushes DELIVERED.
     *
     * @return false when this member did not receive everything below the trim (it was cut off from the trim's
     * computation by a late suspicion): it must leave rather than deliver bytes it never received.
     */
    public boolean deliverTrim()
    {
        if (mode != DeliveryMode.ORDERED || senders == 0)
        {
            return true;
        }
        final long[] trim = new long[senders];
        long end = delivered;
        for (int k = 0; k < senders; k++)
        {
            trim[k] = table.getAcquire(myRank, offTrim + 8L * k);
            if (trim[k] > received[k])
            {
                return false;
            }
            if (trim[k] > 0)
            {
                end = Math.max(end, (trim[k] - 1) * senders + k + 1);
            }
        }
        if (end > delivered)
        {
            deliverUpTo(end, trim);
        }
        return true;
    }

    /** @return whether every live member persisted what this member delivered (true when no hold is set). */
    public boolean persistedEverywhere(final boolean[] live)
    {
        if (!persistenceHold)
        {
            return true;
        }
        publishPersisted();
        for (final int m : memberRanks)
        {
            if (live[m] && table.getAcquire(m, offPersisted) < delivered)
            {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------------------------------------ accessors

    /** A one-line dump of the counters this member sees (diagnostics; racy). */
    public String describe()
    {
        final StringBuilder sb = new StringBuilder(name).append(" me=").append(myRank).append(" next=")
            .append(nextIndex).append(" committed=").append(committedCount).append(" published=")
            .append(publishedCount).append(" nullTarget=").append(nullTarget).append(" delivered=").append(delivered)
            .append(" wedged=").append(wedged);
        for (final int m : memberRanks)
        {
            sb.append(" | r").append(m).append(" committed=").append(table.getAcquire(m, offCommitted))
                .append(" seq=").append(table.getAcquire(m, offSeq)).append(" delivered=")
                .append(table.getAcquire(m, offDelivered)).append(" received=[");
            for (int k = 0; k < senders; k++)
            {
                sb.append(k == 0 ? "" : ",").append(table.getAcquire(m, offReceived + 8L * k));
            }
            sb.append(']');
        }
        return sb.toString();
    }

    public String name()
    {
        return name;
    }

    public DeliveryMode mode()
    {
        return mode;
    }

    public int[] memberRanks()
    {
        return memberRanks;
    }

    public int senderCount()
    {
        return senders;
    }

    public int mySenderRank()
    {
        return mySender;
    }

    public SubgroupStats stats()
    {
        return stats;
    }

    /** @return number of sequence numbers delivered (ORDERED) by this member. */
    public long deliveredCount()
    {
        return delivered;
    }

    /** The persistence hook: this member persisted every delivered message with {@code seq < count}. */
    public void persisted(final long count)
    {
        persistedLocal = count;
        doorbell.run();
    }

    /** Makes the view change wait until every live member reported persistence of what it delivered. */
    public void holdForPersistence(final boolean hold)
    {
        persistenceHold = hold;
    }

    /** @return the minimum of the members' persisted counts. */
    public long persistedByAll()
    {
        long min = Long.MAX_VALUE;
        for (final int m : memberRanks)
        {
            min = Math.min(min, table.getAcquire(m, offPersisted));
        }
        return min;
    }
}
