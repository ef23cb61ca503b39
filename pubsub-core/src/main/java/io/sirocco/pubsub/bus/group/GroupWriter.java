package io.sirocco.pubsub.bus.group;

import java.lang.foreign.MemorySegment;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.Subgroup;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusWriter;
import io.sirocco.pubsub.bus.DeliveryExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A DataWriter's sender on its topic subgroup: one SlotClaim and one {@link BusHeader} flyweight, used under the
 * DataWriter's lock. A RELIABLE writer keeps a copy of each message until it is delivered back
 * ({@link UnconfirmedMessages}) and re-sends what a view change trimmed, before its next send or while it waits for
 * acknowledgments. Its claims are bound to one view ({@link ViewBoundClaim}): a view change re-sends first, so a
 * re-sent sample never follows a newer one of its writer (the readers' duplicate filters would drop it).
 *
 * <p><b>Send lock.</b> {@code sendLock} orders this writer's sends against {@link #awaitDelivered}'s re-send after a
 * view change (uncontended otherwise: the DataWriter's lock already serializes writes). An in-place send holds it from
 * {@link #claim} to {@link #commitClaim}/{@link #abortClaim}, the same span in which the subgroup engine holds its
 * sender lock, so a re-send can never slip between a claimed slot and its commit.
 */
final class GroupWriter implements BusWriter
{
    private static final Logger LOG = LoggerFactory.getLogger(GroupWriter.class);
    private static final Object RESEND_FAILED = new Object();
    private static final int SENT = 1;
    private static final int NO_VIEW = 0;
    private static final int FAILED = -1;
    /** {@link #claimInView}: no view makes this member a sender (before the first one, or while out of the group). */
    private static final int NO_ENGINE = Integer.MIN_VALUE;
    /** How long sending the kept messages after a view install may wait for room. */
    private static final long KEPT_SEND_NS = TimeUnit.SECONDS.toNanos(5);

    private final TopicChannel channel;
    private final boolean reliable;
    private final long writerGuid;
    private final Map<Long, GroupWriter> registry;
    private final SlotClaim claim = new SlotClaim();
    private final BusHeader header = new BusHeader();
    private final ReentrantLock sendLock = new ReentrantLock();
    /**
     * RELIABLE messages written while no view made this member a sender: before its first sending view, or while
     * it was out of the group (excluded, looking for it again). Under {@code sendLock}.
     */
    private final BeforeFirstView beforeFirstView = new BeforeFirstView();
    /** Whether {@code beforeFirstView} has messages: read by the predicate thread at a view install. */
    private volatile boolean keeping;
    /** The engine this writer last sent in (written under {@code sendLock}; read by the predicate thread). */
    private volatile Object lastEngine;

    /** @param registry this member's RELIABLE writers by GUID; the writer removes itself on close. */
    GroupWriter(final TopicChannel channel, final boolean reliable, final long writerGuid,
        final Map<Long, GroupWriter> registry)
    {
        this.channel = channel;
        this.reliable = reliable;
        this.writerGuid = writerGuid;
        this.registry = registry;
    }

    /**
     * The writer is closing: sends its end mark after its last sample (once, not per sample). False when it could not
     * be sent (no view holds the subgroup yet, or no room in time): the retraction is then a plain one. The mark is
     * never kept for a first view that has not come (it would never be sent: a closed writer is no longer asked).
     */
    boolean sendEndMark(final long guid, final long timeoutNs)
    {
        if (!reliable)
        {
            return false;
        }
        final BusMessage mark = new BusMessage(16).kind(BusMessage.KIND_WRITER_END).writerGuid(guid).seq(0)
            .payloadLength(0);
        final boolean sent = sendMessage(mark, 0, timeoutNs, false) == SENT;
        if (!sent && keeping)
        {
            LOG.warn("topic subgroup {}: writer {} closed before this member's first view as its sender came; "
                + "{} sample(s) it wrote were never sent", channel.name, String.format("%016x", guid),
                beforeFirstView.size());
        }
        return sent;
    }

    /**
     * Under {@code sendLock}: the engine of the current view, after re-sending what a view change trimmed since the
     * last send, then what was kept while no view made this member a sender; {@code null} when no view does (before
     * the first one, or while out of the group); {@link #RESEND_FAILED} when the re-send timed out. A view that
     * changes again during the re-send is re-sent into in turn, everything in order (the readers' duplicate filters
     * drop a re-sent sample that follows a newer one of its writer).
     */
    private Object currentEngine(final Subgroup subgroup, final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (true)
        {
            final Object engine = subgroup.sendingEngine();
            if (engine == null || !reliable || engine == lastEngine)
            {
                return engine;
            }
            final long leftNs = Math.max(0, deadlineNs - System.nanoTime());
            if ((lastEngine == null || resendTrimmed(subgroup, engine, leftNs)) &&
                sendBeforeFirstView(subgroup, engine, leftNs))
            {
                lastEngine = engine;
                return engine;
            }
            if (subgroup.sendingEngine() == engine || System.nanoTime() - deadlineNs >= 0)
            {
                return RESEND_FAILED;
            }
        }
    }

    /**
     * Under {@code sendLock}: claims a slot for {@code length} bytes in the current view's engine, after the re-sends
     * {@link #currentEngine} makes; a view change during the wait re-sends into the new view before the claim is
     * made there. A {@link ClaimResult} code, or {@link #NO_ENGINE}.
     */
    private int claimInView(final Subgroup subgroup, final int length, final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (true)
        {
            final Object engine = currentEngine(subgroup, Math.max(0, deadlineNs - System.nanoTime()));
            if (engine == null)
            {
                return NO_ENGINE;
            }
            if (engine == RESEND_FAILED)
            {
                return ClaimResult.BACK_PRESSURED;
            }
            final int rc = ViewBoundClaim.claim(subgroup, engine, length, claim,
                Math.max(0, deadlineNs - System.nanoTime()));
            if (rc != ClaimResult.VIEW_CHANGING || subgroup.sendingEngine() == engine ||
                System.nanoTime() - deadlineNs >= 0)
            {
                return rc;
            }
        }
    }

    /**
     * Under {@code sendLock}, a RELIABLE writer without a sending view: waits up to {@code timeoutNs} for one (the
     * first: the subgroup's registration or promotion is on its way, and a remote reader may already count this
     * writer as matched; or the one that takes this member back in). Null when it has not come.
     */
    private Object awaitEngine(final Subgroup subgroup, final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        long parkNs = 1_000;
        Object engine;
        while ((engine = currentEngine(subgroup, Math.max(0, deadlineNs - System.nanoTime()))) == null &&
            System.nanoTime() - deadlineNs < 0)
        {
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(parkNs << 1, 100_000);
        }
        return engine;
    }

    /**
     * Under {@code sendLock}, in a sending view ({@code engine}): sends, in order, what was written while no view
     * made this member a sender (before the first one, or while it was out of the group).
     */
    private boolean sendBeforeFirstView(final Subgroup subgroup, final Object engine, final long timeoutNs)
    {
        if (!beforeFirstView.isEmpty())
        {
            LOG.debug("topic subgroup {}: sending {} message(s) written while no view made this member a sender",
                channel.name, beforeFirstView.size());
        }
        byte[] message;
        while ((message = beforeFirstView.peek()) != null)
        {
            if (!ViewBoundClaim.resend(subgroup, engine, message, claim, channel.unconfirmed,
                claimTimeout(timeoutNs)))
            {
                return false;
            }
            beforeFirstView.sent();
        }
        keeping = false;
        return true;
    }

    /**
     * Predicate thread, after a view install: each RELIABLE writer that kept what it wrote while no view made its
     * member a sender, or whose messages the last view did not deliver everywhere (a view change's trim, an exclusion
     * before a rejoin), sends them now, on a pool thread (it may wait for room, which the predicate thread makes), so
     * that a writer that writes nothing more still gets its samples out.
     */
    static void sendKept(final Collection<GroupWriter> writers, final DeliveryExecutor executor)
    {
        for (final GroupWriter writer : writers)
        {
            final TopicChannel channel = writer.channel;
            final Subgroup subgroup = channel.subgroup;
            if (writer.keeping || (writer.lastEngine != null && subgroup != null &&
                subgroup.sendingEngine() != writer.lastEngine && channel.unconfirmed.size() > 0))
            {
                executor.execute(writer::sendKept);
            }
        }
    }

    /** Sends what was kept or not delivered everywhere, if a sending view is here now. */
    private void sendKept()
    {
        sendLock.lock();
        try
        {
            currentEngine(channel.subgroup, KEPT_SEND_NS);
        }
        finally
        {
            sendLock.unlock();
        }
    }

    /**
     * A write from a listener running on the predicate thread must not wait for room: only that thread can make room
     * (its delivery trigger), so it fails at once and the writer reports the timeout.
     */
    private long claimTimeout(final long timeoutNs)
    {
        return channel.onPredicateThread() ? 0 : timeoutNs;
    }

    /**
     * {@link #SENT} (also when kept for the first view); {@link #NO_VIEW} when no view holds the subgroup and the
     * message is not kept; or FAILED.
     *
     * @param keep whether a RELIABLE writer keeps the message when its first sending view has not come in time.
     */
    private int sendMessage(final BusMessage message, final long target, final long timeoutNs, final boolean keep)
    {
        sendLock.lock();
        try
        {
            final int length = BusHeader.LENGTH + message.payloadLength();
            final Subgroup subgroup = channel.subgroup;
            final long deadlineNs = System.nanoTime() + claimTimeout(timeoutNs);
            // Waits for the first view only when something is or would be kept for it; while out of the group the
            // message is kept at once (a rejoin takes seconds), and the writer waits only when nothing more fits.
            if (reliable && (keep || keeping) && (lastEngine == null || beforeFirstView.isFull()))
            {
                awaitEngine(subgroup, claimTimeout(timeoutNs));
            }
            final int rc = claimInView(subgroup, length, Math.max(0, deadlineNs - System.nanoTime()));
            if (rc == NO_ENGINE)
            {
                return reliable && keep ? keepForFirstView(message, target) : NO_VIEW;
            }
            if (rc != ClaimResult.OK)
            {
                if (rc == ClaimResult.TOO_LARGE)
                {
                    throw new IllegalArgumentException("sample of " + message.payloadLength() + " bytes exceeds " +
                        "the largest message of topic subgroup " + channel.name);
                }
                return FAILED;
            }
            final MemorySegment buffer = claim.buffer();
            header.wrap(buffer).write(message, message.payloadLength(), target);
            MemorySegment.copy(message.payloadSegment(), 0, buffer, BusHeader.LENGTH, message.payloadLength());
            if (reliable)
            {
                channel.unconfirmed.remember(buffer, length);
            }
            claim.commit();
            channel.sent++;
            return SENT;
        }
        finally
        {
            sendLock.unlock();
        }
    }

    /**
     * Under {@code sendLock}: a RELIABLE message written while no view makes this member a sender (its first one has
     * not come in max_blocking_time, or the member is out of the group) is kept and sent once one is here; it counts
     * as sent, so acknowledgments wait for it.
     */
    private int keepForFirstView(final BusMessage message, final long target)
    {
        if (!beforeFirstView.keep(message, target))
        {
            return FAILED;
        }
        keeping = true;
        channel.sent++;
        return SENT;
    }

    /**
     * Claims a slot for a payload of up to {@code maxPayload} bytes; only slot-sized messages are claimed in place (a
     * larger one goes through {@link #publish} and the bulk region). On {@link #CLAIMED} both this writer's send lock
     * and the subgroup's sender lock stay held until {@link #commitClaim}/{@link #abortClaim}.
     */
    @Override
    public int claim(final int maxPayload, final long timeoutNs)
    {
        if (maxPayload < 0 || maxPayload > channel.slotBytes - BusHeader.LENGTH)
        {
            return NOT_IN_PLACE;
        }
        sendLock.lock();
        final int rc;
        try
        {
            rc = claimInView(channel.subgroup, BusHeader.LENGTH + maxPayload, claimTimeout(timeoutNs));
        }
        catch (final RuntimeException ex)
        {
            // E.g. this thread already holds an open claim of the subgroup (a loan of another writer).
            sendLock.unlock();
            throw ex;
        }
        if (rc == ClaimResult.OK)
        {
            return CLAIMED;
        }
        sendLock.unlock();
        // No sending view: the caller publishes, which keeps a RELIABLE message for the view to come.
        return rc == ClaimResult.BACK_PRESSURED || rc == ClaimResult.VIEW_CHANGING ? TIMED_OUT : NOT_IN_PLACE;
    }

    @Override
    public MemorySegment claimedBuffer()
    {
        return claim.buffer();
    }

    @Override
    public int claimedOffset()
    {
        return BusHeader.LENGTH;
    }

    @Override
    public void commitClaim(final BusMessage message, final int payloadLength)
    {
        if (!sendLock.isHeldByCurrentThread())
        {
            throw new IllegalStateException("topic subgroup " + channel.name + ": commit without a claim");
        }
        try
        {
            final MemorySegment buffer = claim.buffer();
            final int length = BusHeader.LENGTH + payloadLength;
            header.wrap(buffer).write(message, payloadLength, 0);
            if (reliable)
            {
                channel.unconfirmed.remember(buffer, length);
            }
            claim.commit(length);
            channel.sent++;
        }
        finally
        {
            sendLock.unlock();
        }
    }

    @Override
    public void abortClaim()
    {
        if (!sendLock.isHeldByCurrentThread())
        {
            throw new IllegalStateException("topic subgroup " + channel.name + ": abort without a claim");
        }
        try
        {
            claim.abort();
        }
        finally
        {
            sendLock.unlock();
        }
    }

    /**
     * While waiting for acknowledgments: a view installed since the last send trimmed what is still unconfirmed, or
     * the first sending view came after messages were written, and no further write may come to send them, so send
     * them here (else the wait could only time out).
     */
    private void resendAfterViewChange(final long timeoutNs)
    {
        sendLock.lock();
        try
        {
            currentEngine(channel.subgroup, timeoutNs);
        }
        finally
        {
            sendLock.unlock();
        }
    }

    /**
     * A view changed since the last send (or this member was excluded and is back): what the old view did not deliver
     * to every member goes again into {@code engine}, in order, once for the whole channel ({@link ChannelResend}).
     */
    private boolean resendTrimmed(final Subgroup subgroup, final Object engine, final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + claimTimeout(timeoutNs);
        return channel.awaitInstalled(engine, claimTimeout(timeoutNs)) && channel.resend.resendInto(channel.name,
            channel.unconfirmed, subgroup, engine, claim, Math.max(0, deadlineNs - System.nanoTime()));
    }

    @Override
    public boolean publish(final BusMessage message, final long timeoutNs)
    {
        return sendMessage(message, 0, timeoutNs, true) != FAILED;
    }

    @Override
    public boolean sendDirected(final long readerGuid, final BusMessage message, final long timeoutNs)
    {
        return sendMessage(message, readerGuid, timeoutNs, true) != FAILED;
    }

    /**
     * A batch may be as large as the subgroup's largest message: above a slot it travels through the multicast's bulk
     * region, and a replay of a million samples then pays the ordered subgroup's per-message cost a few thousand
     * times instead of tens of thousands (the replay chooses its size within this, DurabilityConfig).
     */
    @Override
    public int batchBytes()
    {
        return TopicChannel.MAX_MESSAGE_BYTES - BusHeader.LENGTH;
    }

    @Override
    public boolean awaitSending(final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + Math.min(timeoutNs, Long.MAX_VALUE / 4);
        while (channel.subgroup == null || channel.subgroup.sendingEngine() == null)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                return false;
            }
            LockSupport.parkNanos(1_000_000L);
        }
        return true;
    }

    @Override
    public boolean awaitDelivered(final long timeoutNs)
    {
        if (!reliable)
        {
            return true;
        }
        final long target = channel.sent;
        final long deadlineNs = System.nanoTime() + Math.min(timeoutNs, Long.MAX_VALUE / 4);
        while (channel.deliveredOwn < target)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                return false;
            }
            resendAfterViewChange(Math.max(0, deadlineNs - System.nanoTime()));
            LockSupport.parkNanos(50_000);
        }
        return true;
    }

    @Override
    public void close()
    {
        registry.remove(writerGuid, this);
    }
}
