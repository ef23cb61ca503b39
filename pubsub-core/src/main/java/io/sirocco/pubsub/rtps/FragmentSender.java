package io.sirocco.pubsub.rtps;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.LocalEndpoint;
import io.sirocco.pubsub.rtps.reliability.WriterHistory;
import io.sirocco.pubsub.rtps.wire.NumberSetView;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;

/**
 * Sends a change larger than {@link WriterSender#FRAGMENT_SIZE} as DATA_FRAG submessages (DDSI-RTPS 2.5, 8.4.14.1),
 * one fragment per datagram of INFO_DST + INFO_TS + DATA_FRAG, all of a sample or those a NACK_FRAG names. The
 * KeyHash travels in the first fragment's inline QoS only, as Cyclone sends it.
 *
 * <p>Not thread-safe: used under its {@link RtpsUserWriter}'s lock, through its {@link WriterSender}, whose message
 * writer and buffer it shares (each datagram is built and flushed before the next begins).
 */
final class FragmentSender
{
    /** The largest datagram a fragment goes in: a 1500-byte MTU minus the IPv4 and UDP headers. */
    static final int MAX_DATAGRAM = 1472;

    private final RtpsMessageWriter writer;
    private final LocalEndpoint endpoint;
    private final WriterHistory history;
    private final ByteBuffer out;
    private final Consumer<DiscoveredParticipant> flush;

    FragmentSender(final RtpsMessageWriter writer, final LocalEndpoint endpoint, final WriterHistory history,
        final ByteBuffer out, final Consumer<DiscoveredParticipant> flush)
    {
        this.writer = writer;
        this.endpoint = endpoint;
        this.history = history;
        this.out = out;
        this.flush = flush;
    }

    /** Every fragment of change {@code sn}. */
    void sendAll(final DiscoveredParticipant to, final int readerId, final long sn)
    {
        final int count = fragmentCount(sn);
        for (int fragment = 1; fragment <= count; fragment++)
        {
            send(to, readerId, sn, fragment);
        }
    }

    /** The fragments of change {@code sn} that {@code set} (a NACK_FRAG's fragmentNumberState) names. */
    void send(final DiscoveredParticipant to, final int readerId, final long sn, final NumberSetView set)
    {
        final int count = fragmentCount(sn);
        for (int i = 0; i < set.numBits(); i++)
        {
            final long fragment = set.base() + i;
            if (fragment > count)
            {
                return;
            }
            if (set.bit(i))
            {
                send(to, readerId, sn, (int) fragment);
            }
        }
    }

    private int fragmentCount(final long sn)
    {
        return (history.length(sn) + WriterSender.FRAGMENT_SIZE - 1) / WriterSender.FRAGMENT_SIZE;
    }

    /** One datagram: fragment {@code fragment} (1-based) of change {@code sn}. */
    private void send(final DiscoveredParticipant to, final int readerId, final long sn, final int fragment)
    {
        final int length = history.length(sn);
        final int offset = (fragment - 1) * WriterSender.FRAGMENT_SIZE;
        writer.begin(out);
        writer.infoDestination(to.prefix().high(), to.prefix().low());
        writer.infoTimestamp(history.timestamp(sn));
        writer.dataFrag(readerId, endpoint.entityId(), sn, fragment, 1, WriterSender.FRAGMENT_SIZE, length,
            fragment == 1 ? history.keyHash(sn) : null, history.payload(sn), offset,
            Math.min(WriterSender.FRAGMENT_SIZE, length - offset));
        flush.accept(to);
    }
}
