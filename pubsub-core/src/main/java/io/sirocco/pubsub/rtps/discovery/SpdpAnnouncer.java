package io.sirocco.pubsub.rtps.discovery;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Collection;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.udp.UdpChannel;

/**
 * Sends this participant's SPDP announcement (INFO_TS + DATA from the SPDP writer, the participant's GUID as KeyHash)
 * to a set of locators: the well-known SPDP ports of the peers, the multicast group when enabled, and every
 * participant already found. The payload is built once; each announcement only bumps the sequence number and time.
 *
 * <p>Confined to the RTPS agent's thread.
 */
public final class SpdpAnnouncer
{
    private static final Logger LOG = LoggerFactory.getLogger(SpdpAnnouncer.class);

    private final ByteBuffer payload = ByteBuffer.allocate(1024);
    private final int payloadLength;
    private final ByteBuffer datagram = ByteBuffer.allocateDirect(1500);
    private final RtpsMessageWriter writer;
    private final byte[] keyHash;
    private final RateLimitedWarning sendWarning = new RateLimitedWarning(LOG);
    private long sequenceNumber;

    public SpdpAnnouncer(final LocalParticipant self)
    {
        this.writer = new RtpsMessageWriter(self.prefix().high(), self.prefix().low());
        this.keyHash = self.prefix().guid(EntityIds.PARTICIPANT);
        this.payloadLength = SpdpCodec.encode(self, payload, 0);
    }

    /** Sends one announcement to every target through {@code socket}; returns how many sends succeeded. */
    public int announce(final UdpChannel socket, final Collection<InetSocketAddress> targets)
    {
        writer.begin(datagram);
        writer.infoTimestamp(rtpsNow());
        writer.data(EntityIds.SPDP_READER, EntityIds.SPDP_WRITER, ++sequenceNumber, keyHash, 0, payload, 0,
            payloadLength, false);
        int sent = 0;
        for (final InetSocketAddress target : targets)
        {
            try
            {
                if (socket.send(datagram, writer.length(), target))
                {
                    sent++;
                }
            }
            catch (final IOException ex)
            {
                sendWarning.warn("SPDP announcement to {} failed: {}", target, ex.toString());
            }
        }
        return sent;
    }

    /** Now as an RTPS Time_t: seconds since 1970 in the high 32 bits, 2^-32 s in the low 32. */
    public static long rtpsNow()
    {
        final long nowMs = System.currentTimeMillis();
        return ((nowMs / 1000) << 32) | (((nowMs % 1000) << 32) / 1000);
    }
}
