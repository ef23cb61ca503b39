package io.sirocco.pubsub.rtps.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import io.sirocco.pubsub.rtps.wire.AckNackView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;
import io.sirocco.pubsub.rtps.wire.RtpsMessageReader;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.pubsub.rtps.wire.SubmessageHandler;

/**
 * When a writer may count a remote reader as knowing it: Cyclone sends a pre-emptive ACKNACK (not FINAL) as soon as
 * it matches a writer, before it saw any HEARTBEAT; DATA sent then is lost (issue 21's first 64 KiB sample that ddsperf
 * never counted), so only an answer to a HEARTBEAT counts.
 */
class ReaderProxyTest
{
    private final ByteBuffer wire = ByteBuffer.allocate(1024);
    private final RtpsMessageWriter writer = new RtpsMessageWriter(0x0102030405060708L, 0x090a0b0c);
    private final RtpsMessageReader reader = new RtpsMessageReader();

    @Test
    void aFirstNonFinalAckNackIsNoAnswerToAHeartbeat()
    {
        final ReaderProxy proxy = new ReaderProxy();
        assertThat(receive(proxy, 1, false)).isTrue();
        assertThat(proxy.hasAcked()).isTrue();
        assertThat(proxy.answeredHeartbeat()).as("after the pre-emptive ACKNACK alone").isFalse();

        assertThat(receive(proxy, 1, false)).as("a stale repeat of it").isFalse();
        assertThat(proxy.answeredHeartbeat()).isFalse();

        assertThat(receive(proxy, 2, false)).isTrue();
        assertThat(proxy.answeredHeartbeat()).as("after a second ACKNACK").isTrue();
    }

    @Test
    void aFinalAckNackAnswersAHeartbeat()
    {
        final ReaderProxy proxy = new ReaderProxy();
        assertThat(receive(proxy, 1, true)).isTrue();
        assertThat(proxy.answeredHeartbeat()).isTrue();
    }

    /** An ACKNACK with base 1 and no bits, through the wire codec, to {@code proxy}; whether it took it. */
    private boolean receive(final ReaderProxy proxy, final int count, final boolean isFinal)
    {
        final boolean[] taken = new boolean[1];
        writer.begin(wire);
        assertThat(writer.ackNack(0x104, 0x103, 1, 0, new int[8], count, isFinal)).isTrue();
        assertThat(reader.read(wire, 0, writer.length(), new SubmessageHandler()
        {
            @Override
            public void onAckNack(final ReceiveContext c, final AckNackView a)
            {
                taken[0] = proxy.onAckNack(a.set(), a.count(), a.isFinal());
            }
        })).isEqualTo(1);
        return taken[0];
    }
}
