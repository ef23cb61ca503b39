package io.sirocco.pubsub.rtps.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.pubsub.rtps.wire.DataView;
import io.sirocco.pubsub.rtps.wire.GapView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;
import io.sirocco.pubsub.rtps.wire.RtpsMessageReader;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.pubsub.rtps.wire.SubmessageHandler;

/**
 * Feeds DATA and GAP submessages through the real codec to a {@link WriterProxy} and records what it delivers: each
 * DATA's payload carries its own sequence number (after a CDR_LE encapsulation header), so a delivered sample shows
 * whether its bytes (a held copy or the live datagram) belong to the number it came with. One datagram buffer is
 * reused, as the receive loop does, so a held sample that is not a copy would show the wrong bytes.
 */
final class DataFeeder implements InOrderListener
{
    final List<Long> delivered = new ArrayList<>();
    final WriterProxy proxy = new WriterProxy(this);
    private final RtpsMessageReader reader = new RtpsMessageReader();
    private final RtpsMessageWriter writer = new RtpsMessageWriter(1, 2);
    private final ByteBuffer wire = ByteBuffer.allocate(1024);
    private final ByteBuffer payload = ByteBuffer.allocate(12);
    private final SubmessageHandler handler = new SubmessageHandler()
    {
        @Override
        public void onData(final ReceiveContext context, final DataView data)
        {
            proxy.onData(context, data);
        }

        @Override
        public void onGap(final ReceiveContext context, final GapView gap)
        {
            proxy.onGap(gap);
        }
    };

    @Override
    public void onSample(final ReceiveContext context, final DataView data)
    {
        final long carried = data.buffer().getLong(data.payloadOffset() + 4);
        assertThat(carried).as("payload of the sample delivered as %d", data.sequenceNumber())
            .isEqualTo(data.sequenceNumber());
        assertThat(context.sourcePrefixHigh()).isEqualTo(1);
        delivered.add(data.sequenceNumber());
    }

    /** A DATA with number {@code sn} arrives. */
    void data(final long sn)
    {
        payload.putShort(0, (short) 0x0001).putShort(2, (short) 0).putLong(4, sn);
        writer.begin(wire);
        assertThat(writer.data(0x104, 0x103, sn, null, 0, payload, 0, 12, false)).isTrue();
        assertThat(reader.read(wire, 0, writer.length(), handler)).isEqualTo(1);
    }

    /** A GAP declaring {@code from .. to - 1} irrelevant arrives. */
    void gap(final long from, final long to)
    {
        writer.begin(wire);
        assertThat(writer.gap(0x104, 0x103, from, to, 0, new int[0])).isTrue();
        assertThat(reader.read(wire, 0, writer.length(), handler)).isEqualTo(1);
    }
}
