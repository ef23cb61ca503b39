package io.sirocco.pubsub.rtps;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.pubsub.rtps.discovery.DiscoveredEndpoint;
import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.EndpointTable;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.discovery.LocalEndpoint;
import io.sirocco.pubsub.rtps.discovery.Matching;
import io.sirocco.pubsub.rtps.discovery.ParticipantTable;
import io.sirocco.pubsub.rtps.discovery.SpdpAnnouncer;
import io.sirocco.pubsub.rtps.reliability.ReaderProxy;
import io.sirocco.pubsub.rtps.reliability.WriterHistory;
import io.sirocco.pubsub.rtps.wire.AckNackView;
import io.sirocco.transport.udp.UdpChannel;

/**
 * A user writer's RTPS side, stateful and reliable (DDSI-RTPS 2.5, 8.4.9), KEEP_ALL or KEEP_LAST: each sample enters a
 * {@link WriterHistory} and goes at once, as INFO_DST + INFO_TS + DATA + HEARTBEAT, to every matched remote reader's
 * participant; a reliable reader's ACKNACK acknowledges changes (they leave the history once every reliable reader
 * has them) and asks for the missing ones, which are resent, or declared irrelevant by a GAP when no longer kept.
 * The piggybacked HEARTBEAT is final except every {@code capacity / 8} samples and while the history is full, so
 * that readers acknowledge often enough; the RTPS agent heartbeats readers with unacknowledged changes every
 * {@link #HEARTBEAT_PERIOD_NS}. A change larger than {@link WriterSender#FRAGMENT_SIZE} goes as DATA_FRAGs, and a
 * NACK_FRAG has the fragments it names resent.
 *
 * <p>KEEP_LAST drops the oldest change when the history is full. KEEP_ALL flow control never drops a reliable
 * sample: {@link #write} blocks while the history is full of changes some reliable reader has not acknowledged (or
 * holds more than {@link #MAX_UNACKNOWLEDGED_BYTES} of them), up to
 * {@link #maxBlockingNs} (then it returns -1 and writes nothing, as DDS's write returns TIMEOUT). With no reliable reader matched, changes leave the history as soon as they are sent.
 *
 * <p>Threads: one application thread writes; the RTPS agent thread handles ACKNACKs and heartbeats. Both hold
 * {@link #lock} (a ReentrantLock, uncontended unless the history is full), which guards the history, the matched
 * readers and the send buffer; a blocked writer waits on {@link #acknowledged}.
 */
public final class RtpsUserWriter
{
    /** How often the agent heartbeats readers that have not acknowledged everything. */
    static final long HEARTBEAT_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final Logger LOG = LoggerFactory.getLogger(RtpsUserWriter.class);
    private static final long BLOCKED_HEARTBEAT_NS = TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * KEEP_ALL keeps at most this many unacknowledged payload bytes in flight (one sample more if it alone is larger):
     * large samples fill a receiver's socket buffer long before the history is full (Cyclone's writer stops at 500 kB).
     */
    static final long MAX_UNACKNOWLEDGED_BYTES = 1024 * 1024;
    /** A non-final HEARTBEAT goes at least once per this many bytes written, so readers acknowledge in time. */
    private static final long ACK_REQUEST_BYTES = MAX_UNACKNOWLEDGED_BYTES / 4;

    private final LocalEndpoint endpoint;
    private final EndpointTable endpoints;
    private final ParticipantTable participants;
    private final WriterHistory history;
    private final WriterSender sender;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition acknowledged = lock.newCondition();
    private final boolean keepAll;
    private final long maxBlockingNs;
    private final int ackEvery;
    private List<Target> targets = List.of();
    private long seenEndpoints = -1;
    private long seenParticipants = -1;
    private long bytesSinceAckRequest;

    RtpsUserWriter(final GuidPrefix self, final LocalEndpoint endpoint, final UdpChannel socket,
        final EndpointTable endpoints, final ParticipantTable participants, final WriterHistory history,
        final boolean keepAll, final long maxBlockingNs)
    {
        this.endpoint = endpoint;
        this.endpoints = endpoints;
        this.participants = participants;
        this.history = history;
        this.sender = new WriterSender(self, endpoint, socket, history);
        this.keepAll = keepAll;
        this.maxBlockingNs = maxBlockingNs;
        this.ackEvery = Math.max(1, history.capacity() / 8);
    }

    public LocalEndpoint endpoint()
    {
        return endpoint;
    }

    /** How many remote readers match now. */
    public int matchedReaders()
    {
        lock.lock();
        try
        {
            refresh();
            return targets.size();
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Waits up to {@code timeoutNs} until at least {@code readers} remote readers match and every reliable one has
     * answered a HEARTBEAT (so it knows this writer and takes its DATA); true when they did.
     */
    public boolean awaitMatched(final int readers, final long timeoutNs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutNs;
        lock.lock();
        try
        {
            while (true)
            {
                refresh();
                if (targets.size() >= readers
                    && targets.stream().allMatch(t -> !t.reliable || t.proxy.answeredHeartbeat()))
                {
                    return true;
                }
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    return false;
                }
                sendHeartbeats(false);
                acknowledged.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Waits up to {@code timeoutNs} until every reliable matched reader acknowledged every change written (DDS's
     * wait_for_acknowledgments); true when they did.
     */
    public boolean awaitAcknowledged(final long timeoutNs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutNs;
        lock.lock();
        try
        {
            while (true)
            {
                refresh();
                releaseAcknowledged();
                if (history.isEmpty())
                {
                    return true;
                }
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    return false;
                }
                sendHeartbeats(true);
                acknowledged.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Changes resent on request so far. */
    public long resent()
    {
        lock.lock();
        try
        {
            return sender.resent();
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Sends {@code payload[offset, +length)} (a serialized sample, encapsulation header first) with {@code keyHash}
     * (16 bytes) to every matched reader; returns how many readers it went to, or -1 when the history stayed full
     * for {@link #maxBlockingNs} or the thread was interrupted while it waited (nothing written; the interrupt flag
     * stays set).
     */
    public int write(final ByteBuffer payload, final int offset, final int length, final byte[] keyHash)
    {
        return write(payload, offset, length, keyHash, SpdpAnnouncer.rtpsNow());
    }

    /** As {@link #write(ByteBuffer, int, int, byte[])} with the source timestamp {@code rtpsTime} (an RTPS Time_t). */
    public int write(final ByteBuffer payload, final int offset, final int length, final byte[] keyHash,
        final long rtpsTime)
    {
        lock.lock();
        try
        {
            refresh();
            if (!makeRoom(length))
            {
                return -1;
            }
            final long sn = history.add(payload, offset, length, keyHash, rtpsTime);
            bytesSinceAckRequest += length;
            final boolean askForAck = sn % ackEvery == 0 || history.isFull()
                || bytesSinceAckRequest >= ACK_REQUEST_BYTES;
            if (askForAck)
            {
                bytesSinceAckRequest = 0;
            }
            boolean anyReliable = false;
            for (final Target t : targets)
            {
                sender.sendNew(t.participant, t.readerId, sn, t.reliable, !askForAck);
                anyReliable |= t.reliable;
            }
            if (!anyReliable)
            {
                history.releaseBelow(sn + 1);
            }
            return targets.size();
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Waits, while the history is full (or, KEEP_ALL, holds too many unacknowledged bytes for {@code length} more),
     * for acknowledgements; false after {@link #maxBlockingNs}.
     */
    private boolean makeRoom(final int length)
    {
        final long deadline = System.nanoTime() + maxBlockingNs;
        while (mustWait(length))
        {
            releaseAcknowledged();
            if (!mustWait(length))
            {
                return true;
            }
            if (!keepAll)
            {
                history.releaseBelow(history.firstSN() + 1); // KEEP_LAST: a reader asking for it gets a GAP
                return true;
            }
            bytesSinceAckRequest = 0; // the heartbeats below ask
            final long left = deadline - System.nanoTime();
            if (left <= 0)
            {
                LOG.debug("RTPS writer on '{}': history full ({} changes) for {} ms, write times out",
                    endpoint.topicName(), history.capacity(), TimeUnit.NANOSECONDS.toMillis(maxBlockingNs));
                return false;
            }
            sendHeartbeats(false);
            try
            {
                acknowledged.awaitNanos(Math.min(left, BLOCKED_HEARTBEAT_NS));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return false;
            }
            refresh();
        }
        return true;
    }

    private boolean mustWait(final int length)
    {
        return history.isFull()
            || (keepAll && !history.isEmpty() && history.bytes() + length > MAX_UNACKNOWLEDGED_BYTES);
    }

    /** An ACKNACK from a reader of {@code source} (RTPS agent thread): resend what it asks for, release the rest. */
    void onAckNack(final GuidPrefix source, final AckNackView ackNack)
    {
        lock.lock();
        try
        {
            refresh();
            final Target t = find(source, ackNack.readerId());
            if (ackNack.isFragment())
            {
                if (t != null && t.reliable)
                {
                    sender.resendFragments(t.participant, t.readerId, ackNack.writerSN(), ackNack.set());
                }
                return;
            }
            if (t == null || !t.reliable || !t.proxy.onAckNack(ackNack.set(), ackNack.count(), ackNack.isFinal()))
            {
                return;
            }
            final boolean resent = sender.resend(t.participant, t.readerId, t.proxy);
            t.proxy.requestsServed();
            releaseAcknowledged();
            acknowledged.signalAll();
            if (!resent && !ackNack.isFinal())
            { // a reader that asks for a HEARTBEAT gets one, even when it has everything (RTPS 2.5, 8.3.7.1, FinalFlag)
                sender.heartbeat(t.participant, t.readerId, false);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Once per {@link #HEARTBEAT_PERIOD_NS} (RTPS agent thread). */
    void heartbeat()
    {
        lock.lock();
        try
        {
            refresh();
            sendHeartbeats(true);
        }
        finally
        {
            lock.unlock();
        }
    }

    /** A HEARTBEAT to each reliable reader that has not acknowledged everything or never answered. */
    private void sendHeartbeats(final boolean onlyUnacknowledged)
    {
        for (final Target t : targets)
        {
            if (t.reliable && (!onlyUnacknowledged || !t.proxy.answeredHeartbeat()
                || t.proxy.acknowledgedBelow() <= history.lastSN()))
            {
                sender.heartbeat(t.participant, t.readerId, false);
            }
        }
    }

    /** Drops from the history what every reliable reader acknowledged. */
    private void releaseAcknowledged()
    {
        long below = history.lastSN() + 1;
        boolean anyReliable = false;
        for (final Target t : targets)
        {
            if (t.reliable)
            {
                below = Math.min(below, t.proxy.acknowledgedBelow());
                anyReliable = true;
            }
        }
        history.releaseBelow(anyReliable ? below : history.lastSN() + 1);
    }

    private Target find(final GuidPrefix prefix, final int readerId)
    {
        for (final Target t : targets)
        {
            if (t.readerId == readerId && t.participant.prefix().equals(prefix))
            {
                return t;
            }
        }
        return null;
    }

    /**
     * Rebuilds the matched readers when the endpoint or the participant table changed (SEDP may announce a reader
     * before SPDP announced its participant), keeping the proxies of those still there.
     */
    private void refresh()
    {
        final long endpointsVersion = endpoints.version();
        final long participantsVersion = participants.version();
        if (endpointsVersion == seenEndpoints && participantsVersion == seenParticipants)
        {
            return;
        }
        seenEndpoints = endpointsVersion;
        seenParticipants = participantsVersion;
        final Map<DiscoveredEndpoint, Target> old = new HashMap<>();
        for (final Target t : targets)
        {
            old.put(t.remote, t);
        }
        final List<Target> matched = new ArrayList<>();
        for (final DiscoveredEndpoint remote : endpoints.endpoints())
        {
            final DiscoveredParticipant p = participants.get(remote.prefix());
            if (p != null && Matching.matches(endpoint, remote))
            {
                final Target kept = old.get(remote);
                matched.add(kept != null ? kept
                    : new Target(remote, p, remote.entityId(), endpoint.reliable() && remote.reliable()));
            }
        }
        if (matched.size() != targets.size())
        {
            LOG.debug("RTPS writer on '{}': {} matched readers", endpoint.topicName(), matched.size());
        }
        targets = List.copyOf(matched);
        releaseAcknowledged();
        acknowledged.signalAll();
    }

    /** A matched remote reader; reliable ones carry the writer's view of what they acknowledged. */
    private static final class Target
    {
        final DiscoveredEndpoint remote;
        final DiscoveredParticipant participant;
        final int readerId;
        final boolean reliable;
        final ReaderProxy proxy = new ReaderProxy();

        Target(final DiscoveredEndpoint remote, final DiscoveredParticipant participant, final int readerId,
            final boolean reliable)
        {
            this.remote = remote;
            this.participant = participant;
            this.readerId = readerId;
            this.reliable = reliable;
        }
    }
}
