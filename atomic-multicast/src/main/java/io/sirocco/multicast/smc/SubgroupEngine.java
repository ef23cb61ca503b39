package io.sirocco.multicast.smc;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.fault.FaultInjector;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.sst.SstLayout;

/**
 * The SMC of one subgroup in one view, from this member's side: its sender ring (if it is a writer) and the send,
 * receive and delivery triggers. This class is the subgroup's face to the group and the view change; the work is done
 * by one class per responsibility over the same {@link SubgroupSlots} geometry: {@link SlotSender} (claim, commit,
 * send trigger, null sends, wedge), {@link SlotReceiver} (receive trigger), {@link OrderedDelivery} (stability and
 * round-robin delivery, the trim's delivery), {@link RaggedTrim} (the trim's computation and convergence) and
 * {@link PersistenceHold} (the persistence hooks).
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
    private final SubgroupSlots slots;
    private final SlotReceiver receiver;
    private final SlotSender sender;
    private final PersistenceHold persistence;
    private final OrderedDelivery delivery;
    private final RaggedTrim trim;

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
        this.slots = new SubgroupSlots(name, mode, windowSize, slotSize, maxMessage, g, layout, senderRanks,
            senderIds, memberRanks, myRank, transport, options, handler, doorbell);
        this.receiver = new SlotReceiver(slots);
        this.sender = new SlotSender(slots, receiver);
        this.persistence = new PersistenceHold(slots);
        this.delivery = new OrderedDelivery(slots, receiver, sender, persistence);
        this.trim = new RaggedTrim(slots);
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
        return sender.tryClaim(length, claim);
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
        sender.commit(index, length);
    }

    /** Publishes a claimed message; releases the sender lock. */
    public void commit(final long index)
    {
        sender.commit(index);
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
        return sender.inlinePush(push);
    }

    /** Turns a claimed slot into a null message; releases the sender lock. */
    public void abort(final long index)
    {
        sender.abort(index);
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
        return sender.sendTrigger();
    }

    /**
     * Receive trigger: takes every new slot of every sender (or one message when receive batching is off), delivers
     * at once in UNORDERED modes, records nulls, applies the null-send rule, then publishes RECEIVED[] and SEQ with
     * one counter push.
     *
     * @return progress.
     */
    public boolean receiveTrigger()
    {
        return receiver.receive(0, slots.senders, true);
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
        return delivery.deliveryTrigger();
    }

    // ------------------------------------------------------------------------------------------------ view change

    /**
     * Stops sending in this view: no more claims or nulls; every committed message is published. Predicate thread.
     *
     * @return false when an application thread holds an open claim (retry later).
     */
    public boolean wedge()
    {
        return sender.wedge();
    }

    /** Whether this member has wedged this subgroup. */
    public boolean wedged()
    {
        return sender.wedged;
    }

    /**
     * Shard leader: computes the ragged trim, or adopts one already published by a previous (failed) leader, and
     * publishes TRIM[] then TRIM_READY.
     *
     * @param live true for view ranks that are still members.
     */
    public void leadTrim(final boolean[] live)
    {
        trim.leadTrim(live);
    }

    /**
     * Follower: echoes the trim published in row {@code from}.
     *
     * @param from view rank of the member whose trim to copy.
     */
    public void copyTrimFrom(final int from)
    {
        trim.copyTrimFrom(from);
    }

    /**
     * Installs a fault injector (tests). Called when the view's context is built, before the engine runs.
     *
     * @param injector the injector.
     * @param view     the id of this engine's view (reported to the injector).
     */
    public void faultInjector(final FaultInjector injector, final long view)
    {
        trim.faultInjector(injector, view);
    }

    /**
     * @param rank another member.
     * @return positive when its trim is larger than this member's for some sender, 0 when equal, negative otherwise.
     */
    public int compareTrim(final int rank)
    {
        return trim.compareTrim(rank);
    }

    /** Adopts the element-wise maximum of this member's trim and another member's, and republishes it. */
    public void adoptMaxTrim(final int rank)
    {
        trim.adoptMaxTrim(rank);
    }

    public boolean trimReady(final int rank)
    {
        return trim.trimReady(rank);
    }

    /**
     * Delivers everything up to this member's published trim (ORDERED), in seq order, then pushes DELIVERED.
     *
     * @return false when this member did not receive everything below the trim (it was cut off from the trim's
     * computation by a late suspicion): it must leave rather than deliver bytes it never received.
     */
    public boolean deliverTrim()
    {
        return delivery.deliverTrim();
    }

    /** @return whether every live member persisted what this member delivered (true when no hold is set). */
    public boolean persistedEverywhere(final boolean[] live)
    {
        return persistence.persistedEverywhere(live, delivery.delivered);
    }

    // ------------------------------------------------------------------------------------------------ accessors

    /** A one-line dump of the counters this member sees (diagnostics; racy). */
    public String describe()
    {
        final SubgroupSlots s = slots;
        final StringBuilder sb = new StringBuilder(s.name).append(" me=").append(s.myRank).append(" next=")
            .append(sender.nextIndex).append(" committed=").append(sender.committedCount).append(" published=")
            .append(sender.publishedCount).append(" nullTarget=").append(receiver.nullTarget).append(" delivered=")
            .append(delivery.delivered).append(" wedged=").append(sender.wedged);
        for (final int m : s.memberRanks)
        {
            sb.append(" | r").append(m).append(" committed=").append(s.table.getAcquire(m, s.offCommitted))
                .append(" seq=").append(s.table.getAcquire(m, s.offSeq)).append(" delivered=")
                .append(s.table.getAcquire(m, s.offDelivered)).append(" received=[");
            for (int k = 0; k < s.senders; k++)
            {
                sb.append(k == 0 ? "" : ",").append(s.table.getAcquire(m, s.offReceived + 8L * k));
            }
            sb.append(']');
        }
        return sb.toString();
    }

    public String name()
    {
        return slots.name;
    }

    public DeliveryMode mode()
    {
        return slots.mode;
    }

    public int[] memberRanks()
    {
        return slots.memberRanks;
    }

    public int senderCount()
    {
        return slots.senders;
    }

    public int mySenderRank()
    {
        return slots.mySender;
    }

    public SubgroupStats stats()
    {
        return slots.stats;
    }

    /**
     * Whether the calling thread holds this subgroup's sender lock: a probe for tests that check Spindle's
     * push-outside-the-lock (a row transport asks it on every push). Any thread.
     */
    public boolean senderLockHeldByCurrentThread()
    {
        return sender.lockHeldByCurrentThread();
    }

    /** @return number of sequence numbers delivered (ORDERED) by this member. */
    public long deliveredCount()
    {
        return delivery.delivered;
    }

    /** The persistence hook: this member persisted every delivered message with {@code seq < count}. */
    public void persisted(final long count)
    {
        persistence.persisted(count);
    }

    /** Makes the view change wait until every live member reported persistence of what it delivered. */
    public void holdForPersistence(final boolean hold)
    {
        persistence.holdForPersistence(hold);
    }

    /** @return the minimum of the members' persisted counts. */
    public long persistedByAll()
    {
        return persistence.persistedByAll();
    }
}
