package io.sirocco.pubsub.rtps;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.pubsub.rtps.discovery.DiscoveredEndpoint;
import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.EndpointTable;
import io.sirocco.pubsub.rtps.discovery.EntityIds;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.discovery.ParticipantTable;
import io.sirocco.pubsub.rtps.discovery.SedpCodec;
import io.sirocco.pubsub.rtps.reliability.WriterProxy;
import io.sirocco.pubsub.rtps.wire.DataView;
import io.sirocco.pubsub.rtps.wire.HeartbeatView;
import io.sirocco.pubsub.rtps.wire.ParameterId;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.udp.UdpChannel;

/**
 * The two built-in SEDP readers (publications and subscriptions), reliable: one {@link WriterProxy} per remote SEDP
 * writer; every HEARTBEAT that needs an answer gets an ACKNACK (INFO_DST + ACKNACK) sent to the participant's
 * metatraffic locators; each new DATA updates the {@link EndpointTable}, in the remote writer's sequence order. SEDP writers of our own are the next step.
 *
 * <p>Confined to the RTPS agent's thread.
 */
final class SedpReader
{
    private static final Logger LOG = LoggerFactory.getLogger(SedpReader.class);

    private final Map<ProxyKey, WriterProxy> proxies = new HashMap<>();
    private final ByteBuffer out = ByteBuffer.allocateDirect(256);
    private final int[] bitmap = new int[8];
    private final RtpsMessageWriter writer;
    private final UdpChannel socket;
    private final ParticipantTable participants;
    private final EndpointTable endpoints;
    private final RateLimitedWarning sendWarning = new RateLimitedWarning(LOG);

    SedpReader(final GuidPrefix self, final UdpChannel socket, final ParticipantTable participants,
        final EndpointTable endpoints)
    {
        this.writer = new RtpsMessageWriter(self.high(), self.low());
        this.socket = socket;
        this.participants = participants;
        this.endpoints = endpoints;
    }

    static boolean isSedpWriter(final int writerId)
    {
        return writerId == EntityIds.SEDP_PUBLICATIONS_WRITER || writerId == EntityIds.SEDP_SUBSCRIPTIONS_WRITER;
    }

    void onHeartbeat(final ReceiveContext context, final HeartbeatView heartbeat)
    {
        final GuidPrefix source = new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow());
        final DiscoveredParticipant participant = participants.get(source);
        if (participant == null || heartbeat.isFragment())
        {
            return;
        }
        final WriterProxy proxy = proxy(source, heartbeat.writerId());
        if (proxy.onHeartbeat(heartbeat.firstSN(), heartbeat.lastSN(), heartbeat.count())
            && !(heartbeat.isFinal() && proxy.isComplete()))
        {
            ackNack(participant, heartbeat.writerId(), proxy);
        }
    }

    void onData(final ReceiveContext context, final DataView data)
    {
        final GuidPrefix source = new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow());
        proxy(source, data.writerId()).onData(context, data); // calls accept in sequence order, once each
    }

    /** A new discovery sample, in the remote writer's order (a dispose never overtakes the data it disposes). */
    private void accept(final ReceiveContext context, final DataView data)
    {
        final GuidPrefix source = new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow());
        final boolean publications = data.writerId() == EntityIds.SEDP_PUBLICATIONS_WRITER;
        if ((data.inlineQos().statusInfo() & (ParameterId.STATUS_DISPOSED | ParameterId.STATUS_UNREGISTERED)) != 0)
        {
            final byte[] key = new byte[16];
            if (data.inlineQos().keyHash(key, 0))
            {
                endpoints.remove(source, ByteBuffer.wrap(key).getInt(12));
            }
            return;
        }
        if (data.hasData())
        {
            final DiscoveredEndpoint e = SedpCodec.decode(data.buffer(), data.payloadOffset(), data.payloadLength(),
                publications);
            if (e != null)
            {
                endpoints.put(e);
            }
        }
    }

    /** Forgets the proxies and endpoints of a participant that is gone. */
    void participantLost(final GuidPrefix prefix)
    {
        proxies.keySet().removeIf(k -> k.prefix.equals(prefix));
        endpoints.removeParticipant(prefix);
    }

    private WriterProxy proxy(final GuidPrefix prefix, final int writerId)
    {
        return proxies.computeIfAbsent(new ProxyKey(prefix, writerId), k -> new WriterProxy(this::accept));
    }

    private void ackNack(final DiscoveredParticipant to, final int writerId, final WriterProxy proxy)
    {
        final int readerId = writerId == EntityIds.SEDP_PUBLICATIONS_WRITER
            ? EntityIds.SEDP_PUBLICATIONS_READER : EntityIds.SEDP_SUBSCRIPTIONS_READER;
        final int numBits = proxy.missing(bitmap);
        writer.begin(out);
        writer.infoDestination(to.prefix().high(), to.prefix().low());
        writer.ackNack(readerId, writerId, proxy.ackBase(), numBits, bitmap, proxy.nextAckNackCount(), false);
        for (final InetSocketAddress target : to.metatrafficUnicast())
        {
            try
            {
                socket.send(out, writer.length(), target);
            }
            catch (final IOException ex)
            {
                sendWarning.warn("SEDP ACKNACK to {} failed: {}", target, ex.toString());
            }
        }
    }

    private record ProxyKey(GuidPrefix prefix, int writerId)
    {
    }
}
