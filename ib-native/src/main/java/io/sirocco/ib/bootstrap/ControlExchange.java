package io.sirocco.ib.bootstrap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import io.sirocco.transport.MessagingService;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.RequestTimeoutException;
import io.sirocco.transport.TransportException;
import io.sirocco.transport.log.RateLimitedWarning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control exchange that sets up RDMA between the members of one view, carried by messaging-transport
 * requests and responses: every pair of members swaps one blob per round (QP number, PSN, LID, GID, and for the row
 * transport the registered table's address, rkey and length). It is the cold path, run once or twice per view on
 * the thread that opens the transport; {@link #exchange} blocks until every peer's blob arrived or the deadline
 * passed.
 *
 * <p><b>Protocol.</b> Symmetric and duplicate-free: a member sends an {@link ExchangeMessages.Offer} request (its
 * blob for that peer) to every lower rank and answers every higher rank's offer with an
 * {@link ExchangeMessages.Answer} (its blob for the requester). So it learns the lower ranks' blobs from their answers
 * and the higher ranks' blobs from their offers. A round is identified by {@code (viewId, round)}; an offer for a
 * round this member has not started yet is parked and answered when it starts; offers for views older than the
 * newest one started are dropped (their sender belongs to a dead view and times out). A second round with empty
 * blobs is a barrier: when it returns, every peer finished the first round.
 *
 * <p><b>Threading.</b> {@link #exchange} is called by one thread at a time (the view opener). Offers are handled on
 * the messaging service's handler thread and never block: they park or answer at once. The round tables are guarded
 * by {@code this}; a round's received blobs by the round's own monitor, on which {@link #exchange} waits.
 */
public final class ControlExchange
{
    private static final Logger LOG = LoggerFactory.getLogger(ControlExchange.class);
    /** A peer's bad offer: a remote peer can repeat it, so at most one WARN a second. */
    private final RateLimitedWarning badOffer = new RateLimitedWarning(LOG);
    private static final long RETRY_PAUSE_MS = 20;

    private final MessagingService service;
    private final Map<RoundId, Round> rounds = new HashMap<>();
    private final Map<RoundId, List<ExchangeMessages.Offer>> parked = new HashMap<>();
    private long newestViewId = Long.MIN_VALUE;

    private record RoundId(long viewId, int round)
    {
    }

    /** One round as this member runs it: what it sends each peer, and what it has received. */
    private static final class Round
    {
        final int myRank;
        final byte[][] mine;
        final byte[][] received;
        int receivedCount;

        Round(final int myRank, final byte[][] mine)
        {
            this.myRank = myRank;
            this.mine = mine;
            this.received = new byte[mine.length][];
        }

        synchronized void received(final int peer, final byte[] blob)
        {
            if (null == received[peer])
            {
                receivedCount++;
            }
            received[peer] = blob;
            notifyAll();
        }

        synchronized boolean awaitAll(final long deadlineNs) throws InterruptedException
        {
            while (receivedCount < received.length - 1)
            {
                final long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0)
                {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, leftNs);
            }
            return true;
        }

        synchronized String missing()
        {
            final StringBuilder missing = new StringBuilder();
            for (int rank = 0; rank < received.length; rank++)
            {
                if (rank != myRank && null == received[rank])
                {
                    missing.append(missing.isEmpty() ? "" : ", ").append("rank ").append(rank);
                }
            }
            return missing.toString();
        }
    }

    /**
     * Registers the exchange's messages and handler with {@code service}, which must run handler threads (offers are
     * answered from there) and must not carry another {@link ControlExchange}.
     */
    public ControlExchange(final MessagingService service)
    {
        this.service = service;
        ExchangeMessages.register(service);
        service.registerHandler(ExchangeMessages.TYPE, ExchangeMessages.OFFER, this::onOffer);
    }

    /**
     * Swaps blobs with every other member of a view.
     *
     * @param viewId      the view; with {@code round}, identifies the exchange on both sides
     * @param round       0 for the set-up, 1 for the barrier after it, ...
     * @param myRank      this member's rank
     * @param nodeIds     each member's messaging node id, by rank
     * @param blobForPeer what to send to a given peer rank
     * @param timeoutMs   deadline for the whole round
     * @return each peer's blob, by rank ({@code null} at {@code myRank})
     * @throws IOException naming the ranks that did not answer in time
     */
    public byte[][] exchange(final long viewId, final int round, final int myRank, final int[] nodeIds,
        final IntFunction<byte[]> blobForPeer, final long timeoutMs) throws IOException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final byte[][] mine = new byte[nodeIds.length][];
        for (int peer = 0; peer < mine.length; peer++)
        {
            mine[peer] = peer == myRank ? null : blobForPeer.apply(peer);
        }
        final Round state = new Round(myRank, mine);
        final RoundId id = new RoundId(viewId, round);
        final List<ExchangeMessages.Offer> early;
        synchronized (this)
        {
            newestViewId = Math.max(newestViewId, viewId);
            rounds.keySet().removeIf(r -> r.viewId() < newestViewId);
            parked.keySet().removeIf(r -> r.viewId() < newestViewId);
            rounds.put(id, state);
            early = parked.remove(id);
        }
        if (null != early)
        {
            early.forEach(offer -> accept(state, offer));
        }
        for (int peer = 0; peer < myRank; peer++)
        {
            state.received(peer, request(viewId, round, myRank, peer, nodeIds[peer], mine[peer], deadlineNs));
        }
        try
        {
            if (!state.awaitAll(deadlineNs))
            {
                throw new IOException("RDMA control exchange of view " + viewId + " round " + round + ": rank "
                    + myRank + " heard nothing from " + state.missing() + " of " + nodeIds.length + " members within "
                    + timeoutMs + " ms");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during the RDMA control exchange of view " + viewId, ex);
        }
        synchronized (state)
        {
            return state.received.clone();
        }
    }

    /** Offers parked for rounds not started yet (for tests and diagnostics). */
    public synchronized int parkedOffers()
    {
        return parked.values().stream().mapToInt(List::size).sum();
    }

    private byte[] request(final long viewId, final int round, final int myRank, final int peer, final int nodeId,
        final byte[] blob, final long deadlineNs) throws IOException
    {
        TransportException last = null;
        while (true)
        {
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0)
            {
                throw new IOException("RDMA control exchange of view " + viewId + " round " + round + ": rank "
                    + peer + " (node " + nodeId + ") did not answer rank " + myRank + " before the deadline", last);
            }
            try
            {
                final ExchangeMessages.Answer answer = service.requestSync(
                    new ExchangeMessages.Offer(viewId, round, myRank, blob), nodeId, leftNs, TimeUnit.NANOSECONDS);
                if (answer.fromRank != peer)
                {
                    throw new IOException("RDMA control exchange of view " + viewId + ": node " + nodeId
                        + " answered as rank " + answer.fromRank + ", expected rank " + peer);
                }
                return answer.blob;
            }
            catch (final NodeUnreachableException ex)
            {
                last = ex; // the peer's endpoint may not be up yet, or the connection dropped: retry until the deadline
                pause(viewId);
            }
            catch (final RequestTimeoutException ex)
            {
                last = ex;
            }
        }
    }

    private static void pause(final long viewId) throws IOException
    {
        try
        {
            Thread.sleep(RETRY_PAUSE_MS);
        }
        catch (final InterruptedException ie)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during the RDMA control exchange of view " + viewId, ie);
        }
    }

    private void onOffer(final ExchangeMessages.Offer offer)
    {
        final Round state;
        synchronized (this)
        {
            if (offer.viewId < newestViewId)
            {
                LOG.debug("dropped an RDMA exchange offer of old view {} from node {}", offer.viewId,
                    offer.sourceNodeId());
                return;
            }
            state = rounds.get(new RoundId(offer.viewId, offer.round));
            if (null == state)
            {
                parked.computeIfAbsent(new RoundId(offer.viewId, offer.round), r -> new ArrayList<>()).add(offer);
                return;
            }
        }
        accept(state, offer);
    }

    private void accept(final Round state, final ExchangeMessages.Offer offer)
    {
        if (offer.fromRank <= state.myRank || offer.fromRank >= state.mine.length)
        {
            badOffer.warn("RDMA exchange offer of view {} from node {} claims rank {}, which should not offer to rank {} of"
                + " {} members; ignored", offer.viewId, offer.sourceNodeId(), offer.fromRank, state.myRank,
                state.mine.length);
            return;
        }
        state.received(offer.fromRank, offer.blob);
        service.respond(offer, new ExchangeMessages.Answer(state.myRank, state.mine[offer.fromRank]));
    }
}
