package io.sirocco.pubsub.rtps;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

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
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.udp.UdpChannel;

/**
 * A user writer's RTPS side, KEEP_LAST 1 per write: each sample goes at once, as INFO_DST + INFO_TS + DATA, to
 * every matched remote reader's participant (its default unicast locators); when reliable, a final HEARTBEAT naming
 * only this sample follows in the same datagram, so a reliable reader that missed earlier ones treats them as gone
 * rather than waiting. Resending (KEEP_ALL) is not built yet. The matched readers are recomputed only when the
 * endpoint table changed.
 *
 * <p>Threads: one application thread writes (not thread-safe); the tables it reads are concurrent.
 */
public final class RtpsUserWriter
{
    private static final Logger LOG = LoggerFactory.getLogger(RtpsUserWriter.class);

    private final LocalEndpoint endpoint;
    private final RtpsMessageWriter writer;
    private final UdpChannel socket;
    private final EndpointTable endpoints;
    private final ParticipantTable participants;
    private final ByteBuffer out = ByteBuffer.allocateDirect(65_000);
    private final RateLimitedWarning sendWarning = new RateLimitedWarning(LOG);
    private List<Target> targets = List.of();
    private long seenVersion = -1;
    private long sequenceNumber;
    private int heartbeatCount;

    RtpsUserWriter(final GuidPrefix self, final LocalEndpoint endpoint, final UdpChannel socket,
        final EndpointTable endpoints, final ParticipantTable participants)
    {
        this.endpoint = endpoint;
        this.writer = new RtpsMessageWriter(self.high(), self.low());
        this.socket = socket;
        this.endpoints = endpoints;
        this.participants = participants;
    }

    public LocalEndpoint endpoint()
    {
        return endpoint;
    }

    /** How many remote readers match now. */
    public int matchedReaders()
    {
        refresh();
        return targets.size();
    }

    /**
     * Sends {@code payload[offset, +length)} (a serialized sample, encapsulation header first) with {@code keyHash}
     * (16 bytes) to every matched reader; returns how many it went to.
     */
    public int write(final ByteBuffer payload, final int offset, final int length, final byte[] keyHash)
    {
        return write(payload, offset, length, keyHash, SpdpAnnouncer.rtpsNow());
    }

    /** As {@link #write(ByteBuffer, int, int, byte[])} with the source timestamp {@code rtpsTime} (an RTPS Time_t). */
    public int write(final ByteBuffer payload, final int offset, final int length, final byte[] keyHash,
        final long rtpsTime)
    {
        refresh();
        final long sn = ++sequenceNumber;
        final long now = rtpsTime;
        int sent = 0;
        for (final Target t : targets)
        {
            writer.begin(out);
            writer.infoDestination(t.prefix.high(), t.prefix.low());
            writer.infoTimestamp(now);
            writer.data(t.readerId, endpoint.entityId(), sn, keyHash, 0, payload, offset, length, false);
            if (endpoint.reliable())
            {
                writer.heartbeat(t.readerId, endpoint.entityId(), sn, sn, ++heartbeatCount, true, false);
            }
            for (final InetSocketAddress to : t.locators)
            {
                try
                {
                    if (socket.send(out, writer.length(), to))
                    {
                        sent++;
                    }
                }
                catch (final IOException ex)
                {
                    sendWarning.warn("RTPS writer on '{}': send to {} failed: {}", endpoint.topicName(), to,
                        ex.toString());
                }
            }
        }
        return sent;
    }

    private void refresh()
    {
        final long version = endpoints.version();
        if (version == seenVersion)
        {
            return;
        }
        seenVersion = version;
        final List<Target> matched = new ArrayList<>();
        for (final DiscoveredEndpoint remote : endpoints.endpoints())
        {
            final DiscoveredParticipant p = participants.get(remote.prefix());
            if (p != null && Matching.matches(endpoint, remote))
            {
                matched.add(new Target(remote.prefix(), remote.entityId(), p.defaultUnicast()));
            }
        }
        if (matched.size() != targets.size())
        {
            LOG.debug("RTPS writer on '{}': {} matched readers", endpoint.topicName(), matched.size());
        }
        targets = List.copyOf(matched);
    }

    private record Target(GuidPrefix prefix, int readerId, List<InetSocketAddress> locators)
    {
    }
}
