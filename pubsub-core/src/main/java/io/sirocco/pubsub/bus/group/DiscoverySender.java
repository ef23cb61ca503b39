package io.sirocco.pubsub.bus.group;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.Subgroup;
import io.sirocco.transport.agent.Agents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends this member's discovery messages (encoded endpoint records and retractions) into the ORDERED {@code dcps}
 * subgroup, in call order, on one thread ({@code sirocco-dcps-d<N>}): a claim may wait up to 5 s for room, which
 * neither the application thread that created an entity nor the predicate thread that installed a view may do. A
 * message that cannot be sent is dropped with a WARN; every member re-announces its records after each view change.
 *
 * <p>Concurrency: {@code claim} is confined to the sender thread; {@code dcps} is set once after the join (before it,
 * nothing is queued: no record is announced during the join).
 */
final class DiscoverySender
{
    private static final Logger LOG = LoggerFactory.getLogger(DiscoverySender.class);

    private final int domainId;
    private final BooleanSupplier closed;
    private final ExecutorService sender;
    private final SlotClaim claim = new SlotClaim();
    /** A slow or stuck peer can make every claim time out: warned about at most once a second. */
    private final RateLimitedWarning notSent = new RateLimitedWarning(LOG, 1000);
    private volatile Subgroup dcps;

    /** @param closed whether the bus is closed (then nothing more is sent). */
    DiscoverySender(final int domainId, final BooleanSupplier closed)
    {
        this.domainId = domainId;
        this.closed = closed;
        this.sender = Executors.newSingleThreadExecutor(Agents.threadFactory("dcps-d" + domainId));
    }

    /** The joined group's {@code dcps} subgroup. */
    void attach(final Subgroup subgroup)
    {
        this.dcps = subgroup;
    }

    /** Queues one message; false when the sender is shut down (closing). */
    boolean send(final byte[] message)
    {
        return sendAll(() -> List.of(message));
    }

    /**
     * Queues messages made on the sender thread, sent in order; false when the sender is shut down (closing). The
     * re-announcement after a view change is made there, not when queued: made earlier, it could carry a record
     * older than an announcement queued after it (a {@code setQos} meanwhile), and the receivers would go back to it.
     */
    boolean sendAll(final Supplier<List<byte[]>> messages)
    {
        if (sender.isShutdown())
        {
            return false;
        }
        try
        {
            sender.execute(() -> messages.get().forEach(this::sendNow));
            return true;
        }
        catch (final RejectedExecutionException ex)
        {
            return false;
        }
    }

    /** On the sender thread only (it owns {@code claim}). */
    private void sendNow(final byte[] message)
    {
        if (closed.getAsBoolean())
        {
            return;
        }
        final int rc = dcps.claim(message.length, claim, TimeUnit.SECONDS.toNanos(5));
        if (rc == ClaimResult.VIEW_CHANGING)
        {
            // Members joining at the same instant change the view several times: the view install that follows
            // re-announces every record, so this is nothing for an operator to act on.
            LOG.debug("domain {}: discovery message not sent during a view change; re-sent after it", domainId);
            return;
        }
        if (rc != ClaimResult.OK)
        {
            notSent.warn("domain {}: discovery message not sent (claim result {}); it is re-sent after the next view " +
                "change", domainId, rc);
            return;
        }
        MemorySegment.copy(message, 0, claim.buffer(), ValueLayout.JAVA_BYTE, 0, message.length);
        claim.commit();
    }

    /** Stops taking messages and waits up to 2 s for the queued ones. */
    void shutdownAndAwait()
    {
        sender.shutdown();
        try
        {
            sender.awaitTermination(2, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    void shutdownNow()
    {
        sender.shutdownNow();
    }
}
