package io.sirocco.multicast.smc;

import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.sst.SlotDescriptor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * The receive side of one subgroup's SMC: takes every sender's newly committed slots, records null runs, delivers at
 * once in the UNORDERED modes (copying under the slot's seqlock in UNORDERED_LOSSY), applies the null-send rule, then
 * publishes {@code RECEIVED[]} and {@code SEQ} with one counter push.
 *
 * <p><b>Threads.</b> All state here is confined to the predicate thread (the pass-lock holder), so the receive trigger
 * takes no lock. It reads a sender's {@code COMMITTED} with acquire semantics, then the slots it covers; it stores its
 * own {@code RECEIVED[k]} and {@code SEQ} with release semantics before pushing them.
 */
final class SlotReceiver extends SubgroupSlots
{
    private static final int COPY_LOST = 0;
    private static final int COPY_DELIVERED = 1;
    private static final int COPY_ABORTED = 2;

    /** Per sender: the count of its messages received in order. */
    final long[] received;
    /** Per sender and slot: the message there is a null (skip record), read by the ordered delivery. */
    final boolean[][] nullAt;
    /** The null-send rule's target: this sender owes nulls up to this index (read by the send side). */
    long nullTarget;
    private long pendingLost;
    /**
     * UNORDERED_LOSSY: how far behind the newest committed message a receiver lapped while it copies resumes (half
     * the window).
     */
    private final long resumeLag;
    /** UNORDERED_LOSSY: how far past the oldest slot a receiver lapped between passes resumes (an eighth). */
    private final long lapGuard;
    private final MemorySegment scratch;

    /** The deliveries counted by the current {@link #receive} call (a field, so the split loops allocate nothing). */
    private int deliveredNow;
    /** Set by the in-order loop when the handler refused a message. */
    private boolean refused;
    /** Messages the current {@link #receive} call may still take (1 without receive batching). */
    private int budget;

    SlotReceiver(final SubgroupSlots slots)
    {
        super(slots);
        this.received = new long[senders];
        this.nullAt = new boolean[senders][window];
        this.resumeLag = Math.max(1, window / 2);
        this.lapGuard = Math.min(window - 1, Math.max(1, window / 8));
        this.scratch = mode == DeliveryMode.UNORDERED_LOSSY ? Arena.ofAuto().allocate(Math.max(8, maxMessage), 64)
            : null;
    }

    /**
     * Takes this member's own slots just published by the send trigger, so its {@code SEQ} moves in the same pass
     * rather than the next one (a null run answering another sender then costs one predicate pass, not two). Only
     * with receive batching: with it off, a pass takes one message.
     */
    void receiveOwn()
    {
        if (options.receiveBatching() && mySender >= 0)
        {
            receive(mySender, mySender + 1, false);
        }
    }

    boolean receive(final int fromSender, final int toSender, final boolean flush)
    {
        if (senders == 0)
        {
            return false;
        }
        budget = options.receiveBatching() ? Integer.MAX_VALUE : 1;
        deliveredNow = 0;
        refused = false;
        boolean progress = false;
        for (int k = fromSender; k < toSender && budget > 0; k++)
        {
            final int row = senderRanks[k];
            final long recv = table.getAcquire(row, offCommitted);
            final long first = received[k];
            if (recv <= first)
            {
                continue;
            }
            final long old = mode == DeliveryMode.UNORDERED_LOSSY ? receiveLossy(k, row, first, recv)
                : receiveInOrder(k, row, first, recv);
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
            publishReceived(flush);
        }
        return progress;
    }

    /** UNORDERED_LOSSY: copies and delivers sender {@code k}'s messages from {@code old}; returns where it stopped. */
    private long receiveLossy(final int k, final int row, final long first, final long recv)
    {
        long old = first;
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
        return old;
    }

    /**
     * ORDERED and UNORDERED: takes sender {@code k}'s slots from {@code old} in order, recording null runs; delivers at
     * once in UNORDERED. Returns where it stopped ({@link #refused} set when the handler was full).
     */
    private long receiveInOrder(final int k, final int row, final long first, final long recv)
    {
        long old = first;
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
        return old;
    }

    /** Publishes SEQ and pushes RECEIVED[] and SEQ in one counter push; ends the handler's batch. */
    private void publishReceived(final boolean flush)
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
}
