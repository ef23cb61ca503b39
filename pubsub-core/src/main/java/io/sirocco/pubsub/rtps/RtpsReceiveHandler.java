package io.sirocco.pubsub.rtps;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.EntityIds;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.discovery.ParticipantTable;
import io.sirocco.pubsub.rtps.discovery.SpdpCodec;
import io.sirocco.pubsub.rtps.wire.AckNackView;
import io.sirocco.pubsub.rtps.wire.DataFragView;
import io.sirocco.pubsub.rtps.wire.DataView;
import io.sirocco.pubsub.rtps.wire.GapView;
import io.sirocco.pubsub.rtps.wire.HeartbeatView;
import io.sirocco.pubsub.rtps.wire.ParameterId;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;
import io.sirocco.pubsub.rtps.wire.RtpsDecodeStats;
import io.sirocco.pubsub.rtps.wire.RtpsMessageReader;
import io.sirocco.pubsub.rtps.wire.SubmessageHandler;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.udp.DatagramHandler;
import io.sirocco.transport.udp.UdpReceiveAgent;

/**
 * Interprets every datagram the participant's sockets receive: runs the {@link RtpsMessageReader} over it, logs
 * malformed ones at a bounded rate, and routes SPDP data to the {@link ParticipantTable}. Its own announcements
 * (same GuidPrefix) are ignored.
 *
 * <p>Confined to the RTPS agent's thread (the {@link UdpReceiveAgent} calls it).
 */
final class RtpsReceiveHandler implements DatagramHandler, SubmessageHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(RtpsReceiveHandler.class);

    private final RtpsMessageReader reader = new RtpsMessageReader();
    private final RateLimitedWarning malformedWarning = new RateLimitedWarning(LOG);
    private final GuidPrefix self;
    private final ParticipantTable participants;
    private final int domainId;
    private SedpReader sedp;
    private LocalEndpoints local;
    private UserReaders users;
    private UserWriters writers;

    RtpsReceiveHandler(final GuidPrefix self, final ParticipantTable participants, final int domainId)
    {
        this.self = self;
        this.participants = participants;
        this.domainId = domainId;
    }

    /** Routes SEDP traffic to {@code reader}; set before the agent starts. */
    void sedp(final SedpReader reader)
    {
        this.sedp = reader;
    }

    /** Routes ACKNACKs for our SEDP writers to {@code endpoints}; set before the agent starts. */
    void localEndpoints(final LocalEndpoints endpoints)
    {
        this.local = endpoints;
    }

    /** Routes user DATA and HEARTBEATs to {@code readers}; set before the agent starts. */
    void userReaders(final UserReaders readers)
    {
        this.users = readers;
    }

    /** Routes ACKNACKs for user writers to {@code userWriters}; set before the agent starts. */
    void userWriters(final UserWriters userWriters)
    {
        this.writers = userWriters;
    }

    @Override
    public void onAckNack(final ReceiveContext context, final AckNackView ackNack)
    {
        if (local != null && LocalEndpoints.isSedpWriter(ackNack.writerId()))
        {
            local.onAckNack(context, ackNack);
        }
        else if (writers != null && UserReaders.isUserEntity(ackNack.writerId()))
        {
            writers.onAckNack(context, ackNack);
        }
    }

    @Override
    public void onHeartbeat(final ReceiveContext context, final HeartbeatView heartbeat)
    {
        if (sedp != null && SedpReader.isSedpWriter(heartbeat.writerId()))
        {
            sedp.onHeartbeat(context, heartbeat);
        }
        else if (users != null && UserReaders.isUserEntity(heartbeat.writerId()))
        {
            users.onHeartbeat(context, heartbeat);
        }
    }

    @Override
    public void onGap(final ReceiveContext context, final GapView gap)
    {
        if (users != null && UserReaders.isUserEntity(gap.writerId()))
        {
            users.onGap(context, gap);
        }
    }

    /** User samples larger than a datagram; built-in (discovery) data is never fragmented by the peers we know. */
    @Override
    public void onDataFrag(final ReceiveContext context, final DataFragView fragment)
    {
        if (users != null && UserReaders.isUserEntity(fragment.writerId()))
        {
            users.onDataFrag(context, fragment);
        }
    }

    @Override
    public void onDatagram(final ByteBuffer buffer, final int length, final InetSocketAddress source)
    {
        if (reader.read(buffer, 0, length, this) >= 0)
        {
            // the header's GuidPrefix (octets 8..19): any message keeps its sender's lease
            participants.renew(new GuidPrefix(octets(buffer, 8, 8), (int) octets(buffer, 16, 4)), System.nanoTime());
        }
        else
        {
            malformedWarning.warn("domain {}: dropped a malformed RTPS datagram of {} bytes from {}: {} at offset {}",
                domainId, length, source, reader.lastMalformed(), reader.lastMalformedOffset());
        }
    }

    @Override
    public void onData(final ReceiveContext context, final DataView data)
    {
        if (sedp != null && SedpReader.isSedpWriter(data.writerId()))
        {
            sedp.onData(context, data);
            return;
        }
        if (users != null && UserReaders.isUserEntity(data.writerId()))
        {
            users.onData(context, data);
            return;
        }
        if (data.writerId() != EntityIds.SPDP_WRITER
            || (context.sourcePrefixHigh() == self.high() && context.sourcePrefixLow() == self.low()))
        {
            return;
        }
        final int status = data.inlineQos().statusInfo();
        if ((status & (ParameterId.STATUS_DISPOSED | ParameterId.STATUS_UNREGISTERED)) != 0)
        {
            participants.remove(new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow()),
                (status & ParameterId.STATUS_DISPOSED) != 0 ? "disposed" : "unregistered");
            return;
        }
        if (!data.hasData())
        {
            return;
        }
        final DiscoveredParticipant p = SpdpCodec.decode(data.buffer(), data.payloadOffset(), data.payloadLength(),
            context.vendorId());
        if (p == null)
        {
            malformedWarning.warn("domain {}: dropped an SPDP sample of vendor {} whose data is malformed", domainId,
                String.format("%04x", context.vendorId()));
            return;
        }
        participants.refresh(p, System.nanoTime());
    }

    /** {@code count} octets from {@code at} as a big-endian number, whatever the buffer's byte order. */
    private static long octets(final ByteBuffer buffer, final int at, final int count)
    {
        long value = 0;
        for (int i = 0; i < count; i++)
        {
            value = (value << 8) | (buffer.get(at + i) & 0xff);
        }
        return value;
    }

    RtpsDecodeStats stats()
    {
        return reader.stats();
    }
}
