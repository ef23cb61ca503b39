package io.sirocco.multicast.smc;

import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;

/**
 * The delivery side of one ORDERED subgroup: finds the stable prefix ({@code seq < min over members of SEQ}, counting a
 * sender's own published messages as received by it under Spindle's self-receipt), delivers it in round-robin seq
 * order skipping nulls, in batches, then pushes {@code DELIVERED} once; at a view change it delivers exactly up to
 * the ragged trim.
 *
 * <p><b>Threads.</b> Predicate thread only: it reads the receive side's {@code received}/{@code nullAt} (same
 * thread) and the members' {@code SEQ}/{@code COMMITTED}/{@code RECEIVED} with acquire semantics (every value is a
 * monotonic count, so a stale read only delays delivery), and stores its own {@code DELIVERED} with release semantics
 * before pushing it.
 */
final class OrderedDelivery extends SubgroupSlots
{
    private final SlotReceiver receiver;
    private final SlotSender sender;
    private final PersistenceHold persistence;
    /** Per entry of {@code memberRanks}: its sender rank when {@link SpindleOptions#selfReceipt()} applies, else -1. */
    private final int[] memberSender;
    /** Predicate thread: the number of seqs delivered. */
    long delivered;

    OrderedDelivery(final SubgroupSlots slots, final SlotReceiver receiver, final SlotSender sender,
        final PersistenceHold persistence)
    {
        super(slots);
        this.receiver = receiver;
        this.sender = sender;
        this.persistence = persistence;
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
    }

    /** See {@link SubgroupEngine#deliveryTrigger()}. */
    boolean deliveryTrigger()
    {
        boolean progress = persistence.publishPersisted();
        if (mode != DeliveryMode.ORDERED || senders == 0 || sender.wedged)
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
        final boolean[][] nullAt = receiver.nullAt;
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

    /** See {@link SubgroupEngine#deliverTrim()}. */
    boolean deliverTrim()
    {
        if (mode != DeliveryMode.ORDERED || senders == 0)
        {
            return true;
        }
        final long[] received = receiver.received;
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
}
