package io.sirocco.pubsub.rtps;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.discovery.LocalEndpoint;
import io.sirocco.pubsub.rtps.reliability.ReaderProxy;
import io.sirocco.pubsub.rtps.reliability.WriterHistory;
import io.sirocco.pubsub.rtps.wire.NumberSetView;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.udp.UdpChannel;

/**
 * Builds and sends one user writer's datagrams to one remote reader at a time: a new change with its HEARTBEAT, a
 * HEARTBEAT alone, and the resends (DATA, or GAP for what the history no longer keeps) an ACKNACK asked for. Resends
 * are packed several to a datagram up to {@link #RESEND_DATAGRAM} bytes.
 *
 * <p>Not thread-safe: used under its {@link RtpsUserWriter}'s lock.
 */
final class WriterSender
{
    /**
     * Samples larger than this go as DATA_FRAGs of this many bytes (Cyclone's default), one to a datagram of at most
     * {@link FragmentSender#MAX_DATAGRAM} bytes: a 1500-byte MTU carries it unfragmented by IP.
     */
    static final int FRAGMENT_SIZE = 1344;
    /** Resends are packed into datagrams up to this size (larger samples go one to a datagram). */
    static final int RESEND_DATAGRAM = 16_384;
    private static final Logger LOG = LoggerFactory.getLogger(WriterSender.class);

    private final LocalEndpoint endpoint;
    private final UdpChannel socket;
    private final WriterHistory history;
    private final RtpsMessageWriter writer;
    private final ByteBuffer out = ByteBuffer.allocateDirect(65_000);
    private final FragmentSender fragments;
    private final int[] noBits = new int[8];
    private final RateLimitedWarning sendWarning = new RateLimitedWarning(LOG);
    private int heartbeatCount;
    private long resent;

    WriterSender(final GuidPrefix self, final LocalEndpoint endpoint, final UdpChannel socket,
        final WriterHistory history)
    {
        this.endpoint = endpoint;
        this.socket = socket;
        this.history = history;
        this.writer = new RtpsMessageWriter(self.high(), self.low());
        this.fragments = new FragmentSender(writer, endpoint, history, out, this::flush);
    }

    /**
     * Change {@code sn} (just added), as one DATA or, above {@link #FRAGMENT_SIZE}, as DATA_FRAGs, then, for a reliable
     * reader, a HEARTBEAT over the whole history.
     */
    void sendNew(final DiscoveredParticipant to, final int readerId, final long sn, final boolean reliable,
        final boolean finalHeartbeat)
    {
        if (isFragmented(sn))
        {
            fragments.sendAll(to, readerId, sn);
            begin(to);
        }
        else
        {
            begin(to);
            writer.infoTimestamp(history.timestamp(sn));
            writer.data(readerId, endpoint.entityId(), sn, history.keyHash(sn), 0, history.payload(sn), 0,
                history.length(sn), false);
        }
        if (reliable)
        {
            writer.heartbeat(readerId, endpoint.entityId(), history.firstSN(), history.lastSN(), ++heartbeatCount,
                finalHeartbeat, false);
        }
        if (!writer.isEmpty())
        {
            flush(to);
        }
    }

    /**
     * A NACK_FRAG: resends the fragments of {@code sn} it names, or a GAP when the history no longer keeps
     * {@code sn}.
     */
    void resendFragments(final DiscoveredParticipant to, final int readerId, final long sn, final NumberSetView set)
    {
        if (!history.contains(sn))
        {
            begin(to);
            writer.gap(readerId, endpoint.entityId(), sn, sn + 1, 0, noBits);
            flush(to);
            return;
        }
        if (isFragmented(sn))
        {
            resent++;
            fragments.send(to, readerId, sn, set);
        }
    }

    /** Whether change {@code sn} is sent as DATA_FRAGs. */
    boolean isFragmented(final long sn)
    {
        return history.length(sn) > FRAGMENT_SIZE;
    }

    /** A HEARTBEAT over the history; not final: the reader must answer. */
    void heartbeat(final DiscoveredParticipant to, final int readerId, final boolean isFinal)
    {
        begin(to);
        writer.heartbeat(readerId, endpoint.entityId(), history.firstSN(), history.lastSN(), ++heartbeatCount,
            isFinal, false);
        flush(to);
    }

    /**
     * Resends what {@code proxy}'s latest ACKNACK asked for: kept changes as DATA, older ones as one GAP, then a
     * HEARTBEAT; returns whether anything was asked for.
     */
    boolean resend(final DiscoveredParticipant to, final int readerId, final ReaderProxy proxy)
    {
        final long first = proxy.nextRequested(1);
        if (first < 0)
        {
            return false;
        }
        begin(to);
        if (first < history.firstSN())
        {
            writer.gap(readerId, endpoint.entityId(), first, history.firstSN(), 0, noBits);
        }
        for (long sn = proxy.nextRequested(history.firstSN()); sn > 0 && sn <= history.lastSN();
            sn = proxy.nextRequested(sn + 1))
        {
            resent++;
            if (isFragmented(sn))
            {
                flush(to);
                fragments.sendAll(to, readerId, sn);
                begin(to);
                continue;
            }
            final int length = history.length(sn);
            if (writer.length() + length + 64 > RESEND_DATAGRAM || !appendData(readerId, sn))
            {
                flush(to);
                begin(to);
                appendData(readerId, sn);
            }
        }
        if (!writer.heartbeat(readerId, endpoint.entityId(), history.firstSN(), history.lastSN(), ++heartbeatCount,
            true, false))
        {
            flush(to);
            begin(to);
            writer.heartbeat(readerId, endpoint.entityId(), history.firstSN(), history.lastSN(), heartbeatCount, true,
                false);
        }
        flush(to);
        return true;
    }

    /** Changes resent so far. */
    long resent()
    {
        return resent;
    }

    private boolean appendData(final int readerId, final long sn)
    {
        return writer.infoTimestamp(history.timestamp(sn))
            && writer.data(readerId, endpoint.entityId(), sn, history.keyHash(sn), 0, history.payload(sn), 0,
                history.length(sn), false);
    }

    void begin(final DiscoveredParticipant to)
    {
        writer.begin(out);
        writer.infoDestination(to.prefix().high(), to.prefix().low());
    }

    void flush(final DiscoveredParticipant to)
    {
        for (final InetSocketAddress target : to.defaultUnicast())
        {
            try
            {
                socket.send(out, writer.length(), target);
            }
            catch (final IOException ex)
            {
                sendWarning.warn("RTPS writer on '{}': send to {} failed: {}", endpoint.topicName(), target,
                    ex.toString());
            }
        }
    }
}
