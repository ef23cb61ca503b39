package io.sirocco.pubsub.durability;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.Subgroup;
import io.sirocco.transport.agent.Agents;
import io.sirocco.transport.log.RateLimitedWarning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durability nodes' announcements in the ORDERED {@code durable} subgroup of the domain's group: each says
 * "multicast member M runs log node N, listening at host:port, and does (not) hold backups". Every node sends its
 * hello again after each view change, so a joiner learns every node, in the group's total order, over what the
 * domain already runs (shared memory or tcp rows).
 *
 * <pre>
 *  0        8       12      16   17        19
 *  | member | node  | port  | bk | hostLen | host (UTF-8) |
 * </pre>
 *
 * <p>Threads: {@link #send} queues on one sender thread ({@code sirocco-durable-hello-<member>}), which alone owns
 * the {@link SlotClaim}; {@link #onMessage} runs on the predicate thread and only decodes and hands over.
 */
final class NodeHellos implements DeliveryHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(NodeHellos.class);
    private static final long CLAIM_WAIT_NS = TimeUnit.SECONDS.toNanos(30);

    /** What a hello tells. */
    record Hello(long memberId, int nodeId, String host, int port, boolean backup)
    {
    }

    /** Receives decoded hellos on the predicate thread; must be fast. */
    interface Inbox
    {
        void onHello(Hello hello);
    }

    private final Inbox inbox;
    private final ExecutorService sender;
    private final SlotClaim claim = new SlotClaim();
    private final RateLimitedWarning notSent = new RateLimitedWarning(LOG);
    private volatile Subgroup subgroup;

    NodeHellos(final Inbox inbox, final long memberId)
    {
        this.inbox = inbox;
        this.sender = Executors.newSingleThreadExecutor(Agents.threadFactory("durable-hello-" +
            Long.toHexString(memberId & 0xFFFFF)));
    }

    void attach(final Subgroup durable)
    {
        this.subgroup = durable;
    }

    static byte[] encode(final Hello hello)
    {
        final byte[] host = hello.host().getBytes(StandardCharsets.UTF_8);
        final byte[] out = new byte[19 + host.length];
        final MemorySegment segment = MemorySegment.ofArray(out);
        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, hello.memberId());
        segment.set(ValueLayout.JAVA_INT_UNALIGNED, 8, hello.nodeId());
        segment.set(ValueLayout.JAVA_INT_UNALIGNED, 12, hello.port());
        segment.set(ValueLayout.JAVA_BYTE, 16, (byte)(hello.backup() ? 1 : 0));
        segment.set(ValueLayout.JAVA_SHORT_UNALIGNED, 17, (short)host.length);
        MemorySegment.copy(host, 0, segment, ValueLayout.JAVA_BYTE, 19, host.length);
        return out;
    }

    static Hello decode(final MemorySegment payload, final int length)
    {
        if (length < 19)
        {
            throw new IllegalArgumentException("durability hello of " + length + " bytes, at least 19 expected");
        }
        final int hostLength = payload.get(ValueLayout.JAVA_SHORT_UNALIGNED, 17) & 0xFFFF;
        if (19 + hostLength > length)
        {
            throw new IllegalArgumentException("durability hello: host of " + hostLength + " bytes in " + length);
        }
        final byte[] host = new byte[hostLength];
        MemorySegment.copy(payload, ValueLayout.JAVA_BYTE, 19, host, 0, hostLength);
        return new Hello(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0),
            payload.get(ValueLayout.JAVA_INT_UNALIGNED, 8), new String(host, StandardCharsets.UTF_8),
            payload.get(ValueLayout.JAVA_INT_UNALIGNED, 12), payload.get(ValueLayout.JAVA_BYTE, 16) != 0);
    }

    /** Queues this node's hello. */
    void send(final byte[] hello)
    {
        try
        {
            sender.execute(() -> sendNow(hello));
        }
        catch (final RejectedExecutionException ex)
        {
            LOG.debug("durability hello after close not sent");
        }
    }

    /** On the sender thread only (it owns {@code claim}). */
    private void sendNow(final byte[] hello)
    {
        final long deadline = System.nanoTime() + CLAIM_WAIT_NS;
        int rc;
        do
        {
            // VIEW_CHANGING until the view holding the subgroup is installed: the claim waits for it.
            rc = subgroup.claim(hello.length, claim, TimeUnit.SECONDS.toNanos(1));
        }
        while (rc == ClaimResult.VIEW_CHANGING && System.nanoTime() - deadline < 0 && !sender.isShutdown());
        if (rc != ClaimResult.OK)
        {
            notSent.warn("durability hello not sent (claim result {}); it is sent again after the next view change",
                rc);
            return;
        }
        MemorySegment.copy(hello, 0, claim.buffer(), ValueLayout.JAVA_BYTE, 0, hello.length);
        claim.commit();
    }

    @Override
    public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
        final MemorySegment payload, final int length)
    {
        if (length == 0)
        {
            return;
        }
        try
        {
            inbox.onHello(decode(payload, length));
        }
        catch (final IllegalArgumentException ex)
        {
            notSent.warn("durability hello from member {} ignored: {}", senderId, ex.getMessage());
        }
    }

    void close()
    {
        sender.shutdownNow();
    }
}
