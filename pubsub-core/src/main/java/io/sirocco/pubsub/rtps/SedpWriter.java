package io.sirocco.pubsub.rtps;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.discovery.LocalEndpoint;
import io.sirocco.pubsub.rtps.discovery.SedpCodec;
import io.sirocco.pubsub.rtps.reliability.ReaderProxy;
import io.sirocco.pubsub.rtps.wire.AckNackView;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.udp.UdpChannel;

/**
 * One built-in SEDP writer (publications or subscriptions), reliable and stateful (DDSI-RTPS 2.5, 8.4.9): its
 * history is this participant's endpoints of one direction, sequence number i + 1 for the i-th; one
 * {@link ReaderProxy} per foreign participant's matching SEDP reader. A new participant gets the whole history and a
 * HEARTBEAT; a new endpoint goes to every participant; each period a HEARTBEAT goes to every participant that has
 * not acknowledged everything; an ACKNACK's requested numbers are resent. Endpoints are never deleted yet, so the
 * history only grows (a few hundred bytes per endpoint).
 *
 * <p>Confined to the RTPS agent's thread.
 */
final class SedpWriter
{
    private static final Logger LOG = LoggerFactory.getLogger(SedpWriter.class);
    private static final int DATAGRAM = 1400;

    private final List<ByteBuffer> history = new ArrayList<>();
    private final List<byte[]> keyHashes = new ArrayList<>();
    private final Map<GuidPrefix, Remote> remotes = new HashMap<>();
    private final ByteBuffer out = ByteBuffer.allocateDirect(DATAGRAM);
    private final ByteBuffer scratch = ByteBuffer.allocate(DATAGRAM);
    private final RtpsMessageWriter writer;
    private final GuidPrefix self;
    private final UdpChannel socket;
    private final int writerId;
    private final int readerId;
    private final RateLimitedWarning sendWarning = new RateLimitedWarning(LOG);
    private int heartbeatCount;

    SedpWriter(final GuidPrefix self, final UdpChannel socket, final int writerId, final int readerId)
    {
        this.self = self;
        this.writer = new RtpsMessageWriter(self.high(), self.low());
        this.socket = socket;
        this.writerId = writerId;
        this.readerId = readerId;
    }

    int writerId()
    {
        return writerId;
    }

    /** Appends {@code e} to the history and sends it to every participant known. */
    void announce(final LocalEndpoint e)
    {
        final int end = SedpCodec.encode(self, e, scratch, 0);
        final ByteBuffer sample = ByteBuffer.allocate(end);
        sample.put(0, scratch, 0, end);
        history.add(sample);
        keyHashes.add(self.guid(e.entityId()));
        final long sn = history.size();
        for (final Remote r : remotes.values())
        {
            send(r, sn, sn);
        }
    }

    void participantDiscovered(final DiscoveredParticipant p)
    {
        final Remote r = new Remote(p);
        remotes.put(p.prefix(), r);
        send(r, 1, history.size());
    }

    void participantLost(final GuidPrefix prefix)
    {
        remotes.remove(prefix);
    }

    /** Once a period: a HEARTBEAT to every participant that has not acknowledged the whole history. */
    void heartbeat()
    {
        for (final Remote r : remotes.values())
        {
            if (r.proxy.acknowledgedBelow() <= history.size())
            {
                send(r, 1, 0);
            }
        }
    }

    void onAckNack(final GuidPrefix source, final AckNackView ackNack)
    {
        final Remote r = remotes.get(source);
        if (r == null || ackNack.isFragment() || !r.proxy.onAckNack(ackNack.set(), ackNack.count()))
        {
            return;
        }
        boolean any = false;
        for (long sn = r.proxy.nextRequested(1); sn > 0 && sn <= history.size(); sn = r.proxy.nextRequested(sn + 1))
        {
            send(r, sn, sn);
            any = true;
        }
        r.proxy.requestsServed();
        if (!any && !ackNack.isFinal() && r.proxy.acknowledgedBelow() <= history.size())
        {
            send(r, 1, 0);
        }
    }

    /** Sends samples {@code from..to} (none when to &lt; from) to {@code r}, then a HEARTBEAT. */
    private void send(final Remote r, final long from, final long to)
    {
        begin(r);
        for (long sn = from; sn <= to; sn++)
        {
            final ByteBuffer sample = history.get((int) sn - 1);
            if (!writer.data(readerId, writerId, sn, keyHashes.get((int) sn - 1), 0, sample, 0, sample.capacity(),
                false))
            {
                flush(r);
                begin(r);
                writer.data(readerId, writerId, sn, keyHashes.get((int) sn - 1), 0, sample, 0, sample.capacity(),
                    false);
            }
        }
        if (!writer.heartbeat(readerId, writerId, 1, history.size(), ++heartbeatCount, false, false))
        {
            flush(r);
            begin(r);
            writer.heartbeat(readerId, writerId, 1, history.size(), heartbeatCount, false, false);
        }
        flush(r);
    }

    private void begin(final Remote r)
    {
        writer.begin(out);
        writer.infoDestination(r.participant.prefix().high(), r.participant.prefix().low());
    }

    private void flush(final Remote r)
    {
        for (final InetSocketAddress target : r.participant.metatrafficUnicast())
        {
            try
            {
                socket.send(out, writer.length(), target);
            }
            catch (final IOException ex)
            {
                sendWarning.warn("SEDP to {} failed: {}", target, ex.toString());
            }
        }
    }

    /** A foreign participant's SEDP reader of this writer's kind. */
    private static final class Remote
    {
        final DiscoveredParticipant participant;
        final ReaderProxy proxy = new ReaderProxy();

        Remote(final DiscoveredParticipant participant)
        {
            this.participant = participant;
        }
    }
}
