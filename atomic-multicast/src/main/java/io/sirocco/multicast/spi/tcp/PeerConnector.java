package io.sirocco.multicast.spi.tcp;

import io.sirocco.transport.MessagingService;
import io.sirocco.transport.agent.Agents;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Makes the connections of a view's peers on a background thread (from {@link Agents#threadFactory}), so the
 * pushing thread never waits for a connect: it sends a peer frames only when the peer can take them now, and asks for
 * the connection here when it cannot ({@link #request}). A failed connect is recorded for the pushing thread to report
 * ({@link #takeFailure}) and retried at the next request (at most every 100 ms): a handshake that timed out on a
 * loaded machine is no proof that the peer died, and freezing the peer on it stopped its heartbeats, so live members
 * were suspected and, when several connects timed out at once, every member excluded itself
 * (ViewChangeTest.crashMidStream[tcp] under load). Whether the peer died is the failure detector's call; the peer's
 * backlog stays bounded meanwhile (past the bound the transport freezes it).
 *
 * <p><b>Threads.</b> {@link #request} and {@link #takeFailure} are called by the pushing thread (the engine's pass-lock
 * holder); {@code lastRequestNs} is confined to it. Each connect runs on its own short-lived thread, at most one per
 * rank at a time ({@code state}: IDLE to CONNECTING by the pushing thread's CAS, back to IDLE by the connect
 * thread); the last failure text sits in an atomic array, taken (and cleared) by the pushing thread.
 */
final class PeerConnector
{
    private static final int IDLE = 0;
    private static final int CONNECTING = 1;
    /** A peer that still cannot take frames is asked for again at most this often (a connection lost meanwhile). */
    private static final long RETRY_NS = 100_000_000L;

    private final MessagingService service;
    private final int[] nodeIds;
    private final AtomicIntegerArray state;
    private final AtomicReferenceArray<String> failures;
    private final long[] lastRequestNs;
    /** Rings the pushing thread's doorbell: a connect succeeded, its next pass sends the peer's backlog. */
    private final Runnable doorbell;

    PeerConnector(final MessagingService service, final int[] nodeIds, final Runnable doorbell)
    {
        this.service = service;
        this.doorbell = doorbell;
        this.nodeIds = nodeIds;
        this.state = new AtomicIntegerArray(nodeIds.length);
        this.failures = new AtomicReferenceArray<>(nodeIds.length);
        this.lastRequestNs = new long[nodeIds.length];
    }

    /**
     * Pushing thread: rank {@code rank} cannot take a frame now; make sure its connection is being made (a no-op on
     * the connect thread if it is open: the wait is then for credits or ring space, which the receiving thread
     * brings). Allocates a thread only on the first call of a stall and then at most every 100 ms.
     */
    void request(final int rank, final long nowNs, final boolean firstOfStall)
    {
        if (!firstOfStall && nowNs - lastRequestNs[rank] < RETRY_NS)
        {
            return;
        }
        lastRequestNs[rank] = nowNs;
        if (!state.compareAndSet(rank, IDLE, CONNECTING))
        {
            return;
        }
        final int nodeId = nodeIds[rank];
        Agents.threadFactory("tcp-connect-" + nodeId).newThread(() ->
        {
            try
            {
                service.connect(nodeId);
                state.set(rank, IDLE);
                doorbell.run();
            }
            catch (final RuntimeException ex)
            {
                failures.set(rank, ex.getMessage());
                state.set(rank, IDLE);
            }
        }).start();
    }

    /** Pushing thread: why the last connect to {@code rank} failed since the previous call, or null. */
    String takeFailure(final int rank)
    {
        return failures.getAndSet(rank, null);
    }
}
