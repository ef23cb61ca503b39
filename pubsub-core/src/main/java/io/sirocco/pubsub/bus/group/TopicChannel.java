package io.sirocco.pubsub.bus.group;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.ObjLongConsumer;

import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.Subgroup;
import io.sirocco.pubsub.bus.BusBatch;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.ReaderQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One topic subgroup ({@code t.<topic>.R} or {@code .B}) as this member sees it: its local reader windows and its
 * delivery upcall, which parses each message's {@link BusHeader} and copies the sample into the windows it is for.
 *
 * <p>The topic subgroup is not ordered with {@code dcps}, so a writer's first samples, or the end-of-history mark it
 * replays to a TRANSIENT_LOCAL reader, can arrive before its record; a reader would drop them (no matched writer),
 * and a TRANSIENT_LOCAL one would then wait for a mark that has gone by and drop the whole stream. Such samples are
 * held ({@code held}, bounded at {@value #MAX_HELD}) and delivered, in order, once the {@link WriterDirectory} knows
 * their writer. A writer's end mark ({@link BusMessage#KIND_WRITER_END}) is never a reader's: it goes to the
 * end-mark listener, which releases the writer's retraction.
 *
 * <p>Threads: {@code onMessage}, {@code canAccept}, {@code onBatchEnd}, {@code onLost} and the held-sample methods run
 * on the group's predicate thread only, and own {@code scratch}, {@code header}, {@code touched} and {@code held}.
 * {@code readers} is copy-on-write, with {@code readerArray} its snapshot for the predicate thread. {@code sent} is
 * written by writers under their send locks, {@code deliveredOwn} by the predicate thread; both volatile.
 */
final class TopicChannel implements DeliveryHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(TopicChannel.class);
    /** Samples held for writers not discovered yet. */
    static final int MAX_HELD = 16_384;

    final String name;
    final boolean ordered;
    /** The subgroup's slot size: a message up to this long (header included) is sent in a slot, not in bulk. */
    final int slotBytes;
    /** The largest message of a topic subgroup (above a slot, through the multicast's bulk region). */
    static final int MAX_MESSAGE_BYTES = 16 << 20;
    final UnconfirmedMessages unconfirmed;
    /** The re-send of {@code unconfirmed} after a view change, shared by the channel's writers. */
    final ChannelResend resend = new ChannelResend();
    final CopyOnWriteArrayList<ReaderQueue> readers = new CopyOnWriteArrayList<>();
    /** Snapshot of {@code readers} for the predicate thread: replaced on every change, read without iterators. */
    volatile ReaderQueue[] readerArray = new ReaderQueue[0];
    volatile Subgroup subgroup;
    volatile long sent;
    volatile long deliveredOwn;
    /** The sending engine whose view install this member's bus has handled (predicate thread writes). */
    private volatile Object installedEngine;

    private final int domainId;
    private final long memberId;
    private final WriterDirectory writers;
    private final ObjLongConsumer<TopicChannel> endMarks;
    private final BooleanSupplier onPredicateThread;
    /** Input a remote peer controls: warned about at most once a second. */
    private final RateLimitedWarning malformed = new RateLimitedWarning(LOG, 1000);
    private final BusMessage scratch = new BusMessage(2048);
    private final BusHeader header = new BusHeader();
    private final BusHeader heldHeader = new BusHeader();
    private ReaderQueue[] touched = new ReaderQueue[4];
    private int touchedCount;
    private final ArrayDeque<byte[]> held = new ArrayDeque<>();
    /** The last writer found deliverable (0: none), at {@code lastKnownVersion}. */
    private long lastKnownWriter;
    private int lastKnownVersion = -1;
    /** The directory version that {@code held} was last released against. */
    private int releasedVersion = -1;
    private boolean heldOverflowLogged;

    /**
     * @param endMarks          told (predicate thread) when a writer's end mark arrives (this member's own too),
     *                          after its samples.
     * @param onPredicateThread whether the calling thread is the group's predicate thread.
     * @param windowSlots       the subgroup's window: confirmed messages are kept for four windows
     *                          ({@link RetainedMessages}).
     */
    TopicChannel(final String name, final boolean ordered, final int slotBytes, final int domainId,
        final long memberId, final WriterDirectory writers, final ObjLongConsumer<TopicChannel> endMarks,
        final BooleanSupplier onPredicateThread, final int windowSlots)
    {
        this.name = name;
        this.unconfirmed = new UnconfirmedMessages(name, 4 * windowSlots);
        this.ordered = ordered;
        this.slotBytes = slotBytes;
        this.domainId = domainId;
        this.memberId = memberId;
        this.writers = writers;
        this.endMarks = endMarks;
        this.onPredicateThread = onPredicateThread;
    }

    /** Whether the caller is the group's predicate thread (an inline listener). */
    boolean onPredicateThread()
    {
        return onPredicateThread.getAsBoolean();
    }

    /**
     * Predicate thread, at a view install (after the members that left were noted): the members back get what was
     * kept for them, in front of the re-send; then the view's engine counts as installed for {@link #awaitInstalled}.
     */
    void viewInstalled(final List<Long> joined, final long nowNs)
    {
        if (ordered)
        {
            unconfirmed.expireAway(nowNs);
            for (final Long member : joined)
            {
                unconfirmed.memberReturned(member, nowNs);
            }
        }
        final Subgroup current = subgroup;
        installedEngine = current == null ? null : current.currentEngine();
    }

    /**
     * A writer's thread, before the re-send into {@code engine}: while messages are kept for a member away, waits (up
     * to {@code timeoutNs}) until the view install of {@code engine} was handled, which puts them in front of the
     * re-send if that member is back. False when it was not in time or the engine changed meanwhile.
     */
    boolean awaitInstalled(final Object engine, final long timeoutNs)
    {
        if (!unconfirmed.retaining() || installedEngine == engine)
        {
            return true;
        }
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (installedEngine != engine)
        {
            final Subgroup current = subgroup;
            if (current == null || current.sendingEngine() != engine || System.nanoTime() - deadlineNs >= 0)
            {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(100_000L); // the install upcall follows the engine's
        }
        return true;
    }

    void addReader(final ReaderQueue reader)
    {
        readers.add(reader);
        readerArray = readers.toArray(new ReaderQueue[0]);
    }

    void removeReader(final ReaderQueue reader)
    {
        readers.remove(reader);
        readerArray = readers.toArray(new ReaderQueue[0]);
    }

    @Override
    public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
        final MemorySegment payload, final int length)
    {
        if (senderId == memberId)
        {
            deliveredOwn++;
            if (ordered)
            {
                unconfirmed.confirmOldest();
            }
        }
        if (length < BusHeader.LENGTH)
        {
            return;
        }
        header.wrap(payload);
        final long writerGuid = header.writerGuid(); // read first: releaseKnown() re-wraps the flyweight
        if (header.kind() == BusMessage.KIND_WRITER_END)
        {
            // This member's own writers too: their retraction waits for the mark here, so that local readers take
            // the last samples first (GroupBus.retract); skipping it left every own close waiting out MARK_WAIT_S.
            endMarks.accept(this, writerGuid);
            return; // never a reader's: it only releases the writer's retraction
        }
        if (readerArray.length == 0)
        {
            return;
        }
        if (!held.isEmpty() && releasedVersion != writers.version())
        {
            releaseKnown();
        }
        // The version is read before the tables (they are published before it is bumped): a writer retracted since
        // the last look is looked up again, not waved through by the cache.
        final int version = writers.version();
        if (writerGuid != lastKnownWriter || version != lastKnownVersion)
        {
            if (!writers.deliverable(writerGuid))
            {
                hold(payload, length, writerGuid);
                return;
            }
            lastKnownWriter = writerGuid;
            lastKnownVersion = version;
        }
        deliver(senderId, payload, length);
    }

    /** Keeps a copy of a sample whose writer is not known yet (bounded: oldest dropped). */
    private void hold(final MemorySegment payload, final int length, final long writerGuid)
    {
        if (held.size() >= MAX_HELD)
        {
            held.pollFirst();
            if (!heldOverflowLogged)
            {
                heldOverflowLogged = true;
                LOG.warn("domain {}: topic subgroup {}: more than {} samples from writers not discovered yet " +
                    "(latest {}); the oldest are dropped", domainId, name, MAX_HELD, String.format("%016x",
                    writerGuid));
            }
        }
        held.addLast(payload.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
    }

    /** Inside a delivery batch: delivers the held samples of writers known (or retracted) now, in order. */
    private void releaseKnown()
    {
        releasedVersion = writers.version();
        for (int n = held.size(); n > 0; n--)
        {
            final byte[] message = held.pollFirst();
            final MemorySegment segment = MemorySegment.ofArray(message);
            if (writers.deliverable(heldHeader.wrap(segment).writerGuid()))
            {
                deliver(0, segment, message.length);
            }
            else
            {
                held.addLast(message);
            }
        }
    }

    /** Outside a delivery batch (a writer's record just arrived): releases and ends the batch. */
    void releaseHeld()
    {
        if (!held.isEmpty())
        {
            releaseKnown();
            onBatchEnd(0);
        }
    }

    /** Forgets the held samples of members that left the view (their records never come). */
    void dropHeldOf(final List<Long> leftMembers)
    {
        if (!held.isEmpty() && !leftMembers.isEmpty())
        {
            held.removeIf(m -> leftMembers.contains(
                SubgroupNames.memberOf(heldHeader.wrap(MemorySegment.ofArray(m)).writerGuid())));
        }
    }

    /** Copies one sample into the local reader windows it is for. */
    private void deliver(final long senderId, final MemorySegment payload, final int length)
    {
        header.wrap(payload);
        final int payloadLength = header.payloadLength();
        if (payloadLength < 0 || payloadLength > length - BusHeader.LENGTH)
        {
            malformed.warn("topic subgroup {}: malformed sample from member {} dropped", name, senderId);
            return;
        }
        header.readInto(scratch);
        final long target = header.target();
        if ((scratch.kind() & BusMessage.KIND_BATCH) != 0)
        {
            deliverBatch(senderId, payload.asSlice(BusHeader.LENGTH, payloadLength), target);
            return;
        }
        scratch.ensureCapacity(payloadLength);
        MemorySegment.copy(payload, BusHeader.LENGTH, scratch.payloadSegment(), 0, payloadLength);
        scratch.payloadLength(payloadLength);
        offerToReaders(target);
    }

    /** Unpacks a {@link BusBatch} of the writer in {@code scratch} and offers each of its samples in turn. */
    private void deliverBatch(final long senderId, final MemorySegment records, final long target)
    {
        final int end = (int)records.byteSize();
        int offset = 0;
        while (offset < end)
        {
            offset = BusBatch.read(records, offset, end, scratch);
            if (offset < 0)
            {
                malformed.warn("topic subgroup {}: malformed batch from member {}: its rest dropped", name, senderId);
                return;
            }
            offerToReaders(target);
        }
    }

    /** Offers the sample in {@code scratch} to the local readers it is for (all, or the {@code target} one). */
    private void offerToReaders(final long target)
    {
        final ReaderQueue[] current = readerArray;
        for (int i = 0; i < current.length; i++)
        {
            final ReaderQueue reader = current[i];
            if (target != 0 && target != reader.readerGuid())
            {
                continue;
            }
            if (ordered && reader.reliable())
            {
                // canAccept() saw room; only a view change's trim delivers past a full window (overflow).
                reader.acceptInBatch(scratch);
            }
            else
            {
                reader.offerInBatch(scratch, false, 0);
            }
            touch(reader);
        }
    }

    /**
     * Before each message of this ORDERED subgroup: false while a local RELIABLE reader's window is full, which stops
     * delivery there (the writers back-pressure) until that reader's delivery frees a slot and rings the doorbell.
     * Asked for every message, even one targeted at another reader: a short delay for that one, never a loss or a
     * reordering.
     */
    @Override
    public boolean canAccept()
    {
        if (!ordered)
        {
            return true;
        }
        final ReaderQueue[] current = readerArray;
        for (int i = 0; i < current.length; i++)
        {
            if (current[i].reliable() && !current[i].acceptsNow())
            {
                return false;
            }
        }
        return true;
    }

    /** Remembers a window offered to in this delivery batch (even if it is closed meanwhile). */
    private void touch(final ReaderQueue reader)
    {
        for (int i = 0; i < touchedCount; i++)
        {
            if (touched[i] == reader)
            {
                return;
            }
        }
        if (touchedCount == touched.length)
        {
            touched = Arrays.copyOf(touched, touchedCount * 2);
        }
        touched[touchedCount++] = reader;
    }

    @Override
    public void onBatchEnd(final int messages)
    {
        for (int i = 0; i < touchedCount; i++)
        {
            touched[i].endBatch();
            touched[i] = null;
        }
        touchedCount = 0;
    }

    @Override
    public void onLost(final long senderId, final long count)
    {
        for (final ReaderQueue reader : readers)
        {
            reader.addLost((int)Math.min(Integer.MAX_VALUE, count));
        }
    }
}
