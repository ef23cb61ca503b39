package io.sirocco.transport.nio;

import java.util.ArrayDeque;

import io.sirocco.transport.TransportStatistics;
import io.sirocco.transport.log.RateLimitedWarning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accepted sockets whose hello is still incomplete, in accept order, so that neither idle sockets nor a flood of
 * them can hold file descriptors or memory: a socket that has not sent its whole hello by its deadline
 * ({@code handshakeTimeoutMs} after the accept) is closed, and past {@code handshakePendingMax} sockets the oldest is
 * closed to make room. The deadline is the same for every socket, so the deque is ordered by deadline and a sweep
 * only looks at its head. Both closings are counted and logged at a bounded rate: a remote peer causes them at will.
 *
 * <p>Selector loop's leader only (leadership orders every leader's accesses); no lock.
 */
final class PendingHandshakes
{
    private static final Logger LOG = LoggerFactory.getLogger(PendingHandshakes.class);

    private final ArrayDeque<PendingAccept> pending = new ArrayDeque<>();
    private final int ownNodeId;
    private final long timeoutNs;
    private final int max;
    private final TransportStatistics statistics;
    private final RateLimitedWarning expired = new RateLimitedWarning(LOG);
    private final RateLimitedWarning overflow = new RateLimitedWarning(LOG);

    PendingHandshakes(final int ownNodeId, final long timeoutMs, final int max, final TransportStatistics statistics)
    {
        this.ownNodeId = ownNodeId;
        this.timeoutNs = timeoutMs * 1_000_000L;
        this.max = max;
        this.statistics = statistics;
    }

    /** The deadline of a socket accepted now. */
    long deadlineNs(final long nowNs)
    {
        return nowNs + timeoutNs;
    }

    /** Tracks a freshly accepted socket; closes the oldest still incomplete one if there are too many. */
    void add(final PendingAccept accept)
    {
        pruneDone();
        if (pending.size() >= max)
        {
            final PendingAccept oldest = pending.pollFirst();
            oldest.drop();
            statistics.handshakeDropped();
            overflow.warn("node {}: more than {} sockets have not completed their hello; closed the oldest, from {}",
                ownNodeId, max, oldest.peer);
        }
        pending.addLast(accept);
    }

    boolean isEmpty()
    {
        return pending.isEmpty();
    }

    /** Closes the sockets past their deadline; returns how many it closed. */
    int expire(final long nowNs)
    {
        int closed = 0;
        pruneDone();
        PendingAccept head;
        while ((head = pending.peekFirst()) != null && nowNs - head.deadlineNs >= 0)
        {
            pending.pollFirst();
            if (!head.done)
            {
                head.drop();
                closed++;
                statistics.handshakeDropped();
                expired.warn("node {}: closed a socket from {} that sent {} of {} hello bytes in {} ms", ownNodeId,
                    head.peer, head.hello.position(), head.hello.capacity(), timeoutNs / 1_000_000L);
            }
            pruneDone();
        }
        return closed;
    }

    /** Nanoseconds until the next deadline, or -1 if there is none. */
    long nanosToNextDeadline(final long nowNs)
    {
        pruneDone();
        final PendingAccept head = pending.peekFirst();
        return head == null ? -1 : Math.max(0, head.deadlineNs - nowNs);
    }

    private void pruneDone()
    {
        while (!pending.isEmpty() && pending.peekFirst().done)
        {
            pending.pollFirst();
        }
    }
}
