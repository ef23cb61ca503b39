package io.sirocco.multicast.smc;

import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.sst.SlotDescriptor;
import io.sirocco.multicast.sst.SstLayout;
import io.sirocco.multicast.sst.SstTable;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where one subgroup lives in one view's table, from this member's side: its ranks, its counters' offsets, its slot
 * geometry and the payload views of every sender's slots. Each side of the subgroup's SMC (the {@link SlotSender},
 * the {@link SlotReceiver}, the {@link OrderedDelivery}, the {@link RaggedTrim} and the {@link PersistenceHold})
 * extends it and copies these fields once, at construction ({@link #SubgroupSlots(SubgroupSlots)}), so the hot paths
 * read their own final fields, exactly as the single engine class they came from did (no extra indirection per
 * message).
 *
 * <p><b>Threads.</b> Immutable after construction (the arrays of payload views are filled by the constructor and only
 * read after); the table's bytes are read and written by the sides under their own rules.
 */
class SubgroupSlots
{
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    final String name;
    final DeliveryMode mode;
    final int senders;
    final int[] senderRanks;
    final long[] senderIds;
    final int[] memberRanks;
    final int myRank;
    final int mySender;
    final int window;
    final int slotSize;
    final int maxMessage;
    final long slotWidth;
    final long bulkStride;
    final SstTable table;
    final MemorySegment raw;
    final RowTransport transport;
    final SpindleOptions options;
    final Runnable doorbell;
    final DeliveryHandler handler;
    final SubgroupStats stats;

    final long offCommitted;
    final long offReceived;
    final long offSeq;
    final long offDelivered;
    final long offPersisted;
    final long offTrim;
    final long offTrimReady;
    final long offSlots;
    final long offBulk;

    final MemorySegment[][] payloads;
    final MemorySegment[][] bulks;

    /** See {@link SubgroupEngine#SubgroupEngine} for the parameters. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    SubgroupSlots(
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
        this.mySender = senderRankOf(senderRanks, myRank);
        this.transport = transport;
        this.raw = transport.table();
        this.table = new SstTable(raw, layout.rowLengthBytes());
        this.options = options;
        this.handler = handler;
        this.doorbell = doorbell;
        this.stats = new SubgroupStats();
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
        this.payloads = new MemorySegment[senders][windowSize];
        this.bulks = new MemorySegment[senders][];
        mapPayloads();
    }

    /** Copies every field of {@code slots}: the sides share one geometry, each reading its own final fields. */
    SubgroupSlots(final SubgroupSlots slots)
    {
        this.name = slots.name;
        this.mode = slots.mode;
        this.senders = slots.senders;
        this.senderRanks = slots.senderRanks;
        this.senderIds = slots.senderIds;
        this.memberRanks = slots.memberRanks;
        this.myRank = slots.myRank;
        this.mySender = slots.mySender;
        this.window = slots.window;
        this.slotSize = slots.slotSize;
        this.maxMessage = slots.maxMessage;
        this.slotWidth = slots.slotWidth;
        this.bulkStride = slots.bulkStride;
        this.table = slots.table;
        this.raw = slots.raw;
        this.transport = slots.transport;
        this.options = slots.options;
        this.doorbell = slots.doorbell;
        this.handler = slots.handler;
        this.stats = slots.stats;
        this.offCommitted = slots.offCommitted;
        this.offReceived = slots.offReceived;
        this.offSeq = slots.offSeq;
        this.offDelivered = slots.offDelivered;
        this.offPersisted = slots.offPersisted;
        this.offTrim = slots.offTrim;
        this.offTrimReady = slots.offTrimReady;
        this.offSlots = slots.offSlots;
        this.offBulk = slots.offBulk;
        this.payloads = slots.payloads;
        this.bulks = slots.bulks;
    }

    private static int senderRankOf(final int[] senderRanks, final int myRank)
    {
        int me = -1;
        for (int k = 0; k < senderRanks.length; k++)
        {
            if (senderRanks[k] == myRank)
            {
                me = k;
            }
        }
        return me;
    }

    /** Constructor only: the payload view of every slot (and bulk area) of every sender. */
    private void mapPayloads()
    {
        final boolean hasBulk = maxMessage > slotSize;
        for (int k = 0; k < senders; k++)
        {
            final long rowBase = table.rowBase(senderRanks[k]);
            if (hasBulk)
            {
                bulks[k] = new MemorySegment[window];
            }
            for (int p = 0; p < window; p++)
            {
                payloads[k][p] = raw.asSlice(
                    rowBase + offSlots + p * slotWidth + SlotDescriptor.HEADER_LENGTH, slotSize);
                if (hasBulk)
                {
                    bulks[k][p] = raw.asSlice(rowBase + offBulk + p * bulkStride, maxMessage);
                }
            }
        }
    }

    /** Predicate thread: hands sender {@code k}'s message {@code i} (seq {@code seq}) to the handler, in place. */
    final void deliverSlot(final int k, final long i, final long seq)
    {
        final int pos = (int)(i % window);
        final long slot = table.rowBase(senderRanks[k]) + offSlots + pos * slotWidth;
        final int length = raw.get(INT, slot + SlotDescriptor.LENGTH_OFFSET);
        final int flags = raw.get(INT, slot + SlotDescriptor.FLAGS_OFFSET);
        final MemorySegment payload = (flags & SlotDescriptor.FLAG_BULK) != 0 && bulks[k] != null
            ? bulks[k][pos] : payloads[k][pos];
        handler.onMessage(senderIds[k], k, i, seq, payload, Math.min(length, (int)payload.byteSize()));
    }
}
