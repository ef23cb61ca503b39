package io.sirocco.pubsub.rtps;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.pubsub.rtps.discovery.DiscoveredEndpoint;
import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.EndpointTable;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.discovery.LocalEndpoint;
import io.sirocco.pubsub.rtps.discovery.Matching;
import io.sirocco.pubsub.rtps.discovery.ParticipantTable;
import io.sirocco.pubsub.rtps.reliability.FragmentAssembler;
import io.sirocco.pubsub.rtps.reliability.WriterProxy;
import io.sirocco.pubsub.rtps.wire.DataFragView;
import io.sirocco.pubsub.rtps.wire.DataView;
import io.sirocco.pubsub.rtps.wire.GapView;
import io.sirocco.pubsub.rtps.wire.HeartbeatView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.udp.UdpChannel;

/**
 * This participant's user readers on the receive side: a DATA from a remote writer goes to every local reader that
 * matches it (by the writer's SEDP data); a reliable reader keeps one {@link WriterProxy} per remote writer, drops
 * duplicates, takes GAPs and answers HEARTBEATs with ACKNACKs. A reliable reader's {@link SampleListener} gets each
 * remote writer's samples in sequence order, once each (the proxy holds early ones until the gap before them is
 * filled or declared irrelevant); a best-effort reader gets them in arrival order.
 *
 * <p>Threads: readers are added from any thread (a copy-on-write list); everything else runs on the RTPS agent.
 */
final class UserReaders
{
    private static final Logger LOG = LoggerFactory.getLogger(UserReaders.class);

    private final List<Reader> readers = new CopyOnWriteArrayList<>();
    private final Map<ProxyKey, WriterProxy> proxies = new HashMap<>();
    private final Map<ProxyKey, FragmentAssembler> bestEffortFragments = new HashMap<>();
    private final ByteBuffer out = ByteBuffer.allocateDirect(2048);
    private final int[] bitmap = new int[8];
    private final RtpsMessageWriter writer;
    private final UdpChannel socket;
    private final EndpointTable endpoints;
    private final ParticipantTable participants;
    private final RateLimitedWarning sendWarning = new RateLimitedWarning(LOG);

    UserReaders(final GuidPrefix self, final UdpChannel socket, final EndpointTable endpoints,
        final ParticipantTable participants)
    {
        this.writer = new RtpsMessageWriter(self.high(), self.low());
        this.socket = socket;
        this.endpoints = endpoints;
        this.participants = participants;
    }

    /** Whether {@code entityId} is a user-defined endpoint (built-in ones have the 0xc0 kind bits). */
    static boolean isUserEntity(final int entityId)
    {
        return (entityId & 0xc0) == 0;
    }

    void add(final LocalEndpoint endpoint, final SampleListener listener)
    {
        readers.add(new Reader(endpoint, listener));
    }

    void onData(final ReceiveContext context, final DataView data)
    {
        final GuidPrefix source = new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow());
        final DiscoveredEndpoint remote = endpoints.get(source, data.writerId());
        if (remote == null)
        {
            return;
        }
        for (final Reader r : readers)
        {
            if ((data.readerId() == 0 || data.readerId() == r.endpoint.entityId())
                && Matching.matches(r.endpoint, remote))
            {
                if (r.endpoint.reliable())
                {
                    proxy(source, data.writerId(), r).onData(context, data); // delivers in order, maybe later
                }
                else
                {
                    r.listener.onSample(context, data);
                }
            }
        }
    }

    /**
     * A DATA_FRAG: a reliable reader's {@link WriterProxy} reassembles it (and delivers the whole sample in order);
     * for a best-effort reader an assembler per remote writer does, and the whole sample goes out at once.
     */
    void onDataFrag(final ReceiveContext context, final DataFragView fragment)
    {
        final GuidPrefix source = new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow());
        final DiscoveredEndpoint remote = endpoints.get(source, fragment.writerId());
        if (remote == null)
        {
            return;
        }
        for (final Reader r : readers)
        {
            if ((fragment.readerId() == 0 || fragment.readerId() == r.endpoint.entityId())
                && Matching.matches(r.endpoint, remote))
            {
                if (r.endpoint.reliable())
                {
                    proxy(source, fragment.writerId(), r).onDataFrag(context, fragment);
                }
                else
                {
                    final DataView whole = bestEffortFragments.computeIfAbsent(
                        new ProxyKey(source, fragment.writerId(), r.endpoint.entityId()),
                        k -> new FragmentAssembler(WriterProxy.FRAGMENTED_SAMPLES, WriterProxy.FRAGMENT_BYTES))
                        .onFragment(context, fragment);
                    if (whole != null)
                    {
                        r.listener.onSample(context, whole);
                    }
                }
            }
        }
    }

    void onHeartbeat(final ReceiveContext context, final HeartbeatView heartbeat)
    {
        final GuidPrefix source = new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow());
        final DiscoveredEndpoint remote = endpoints.get(source, heartbeat.writerId());
        final DiscoveredParticipant participant = participants.get(source);
        if (remote == null || participant == null || heartbeat.isFragment())
        {
            return;
        }
        for (final Reader r : readers)
        {
            if (r.endpoint.reliable() && (heartbeat.readerId() == 0 || heartbeat.readerId() == r.endpoint.entityId())
                && Matching.matches(r.endpoint, remote))
            {
                final WriterProxy proxy = proxy(source, heartbeat.writerId(), r);
                if (proxy.onHeartbeat(heartbeat.firstSN(), heartbeat.lastSN(), heartbeat.count())
                    && !(heartbeat.isFinal() && proxy.isComplete()))
                {
                    ackNack(participant, r.endpoint.entityId(), heartbeat.writerId(), proxy);
                }
            }
        }
    }

    /** A GAP: the named changes are irrelevant to every matching reliable reader (they will not come). */
    void onGap(final ReceiveContext context, final GapView gap)
    {
        final GuidPrefix source = new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow());
        final DiscoveredEndpoint remote = endpoints.get(source, gap.writerId());
        if (remote == null)
        {
            return;
        }
        for (final Reader r : readers)
        {
            if (r.endpoint.reliable() && (gap.readerId() == 0 || gap.readerId() == r.endpoint.entityId())
                && Matching.matches(r.endpoint, remote))
            {
                proxy(source, gap.writerId(), r).onGap(gap);
            }
        }
    }

    void participantLost(final GuidPrefix prefix)
    {
        proxies.keySet().removeIf(k -> k.prefix.equals(prefix));
        bestEffortFragments.keySet().removeIf(k -> k.prefix.equals(prefix));
    }

    private WriterProxy proxy(final GuidPrefix prefix, final int writerId, final Reader r)
    {
        return proxies.computeIfAbsent(new ProxyKey(prefix, writerId, r.endpoint.entityId()), k -> new WriterProxy(r.listener::onSample));
    }

    private void ackNack(final DiscoveredParticipant to, final int readerId, final int writerId,
        final WriterProxy proxy)
    {
        final int numBits = proxy.missing(bitmap);
        writer.begin(out);
        writer.infoDestination(to.prefix().high(), to.prefix().low());
        writer.ackNack(readerId, writerId, proxy.ackBase(), numBits, bitmap, proxy.nextAckNackCount(), false);
        nackFragments(readerId, writerId, proxy, proxy.ackBase() + WriterProxy.WINDOW);
        for (final InetSocketAddress target : to.defaultUnicast())
        {
            try
            {
                socket.send(out, writer.length(), target);
            }
            catch (final IOException ex)
            {
                sendWarning.warn("RTPS ACKNACK to {} failed: {}", target, ex.toString());
            }
        }
    }

    /**
     * A NACK_FRAG for each sample below {@code end} of which some fragments came, not all, naming the missing ones
     * (the ACKNACK left those samples out); as many as fit the datagram, the lowest first.
     */
    private void nackFragments(final int readerId, final int writerId, final WriterProxy proxy, final long end)
    {
        for (long sn = proxy.nextPartial(proxy.ackBase()); sn > 0 && sn < end; sn = proxy.nextPartial(sn + 1))
        {
            final int numBits = proxy.missingFragments(sn, bitmap);
            if (numBits > 0 && !writer.nackFrag(readerId, writerId, sn, proxy.missingFragmentBase(sn), numBits,
                bitmap, proxy.nextNackFragCount()))
            {
                return;
            }
        }
    }

    private record Reader(LocalEndpoint endpoint, SampleListener listener)
    {
    }

    private record ProxyKey(GuidPrefix prefix, int writerId, int readerId)
    {
    }
}
