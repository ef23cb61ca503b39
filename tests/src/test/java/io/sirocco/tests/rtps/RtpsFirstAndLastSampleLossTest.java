package io.sirocco.tests.rtps;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.pubsub.rtps.RtpsOptions;
import io.sirocco.pubsub.rtps.RtpsParticipant;
import io.sirocco.pubsub.rtps.RtpsUserWriter;
import io.sirocco.pubsub.rtps.ddsperf.KeyedSeqCodec;
import io.sirocco.tests.Closer;
import io.sirocco.transport.udp.DatagramFault;

/**
 * The first and the last sample of a reliable 64 KiB stream, their every datagram lost (all their DATA_FRAGs and the
 * HEARTBEAT after them), then every other fragment-sized datagram the writer sends next: both must still arrive,
 * recovered by the writer's HEARTBEATs and the reader's ACKNACK and NACK_FRAG answers.
 * <ul>
 * <li>The first, with the HEARTBEATs the writing thread sent while it awaited the match also lost: a reader that has
 * seen no HEARTBEAT yet drops DATA, and Cyclone takes the range of the first HEARTBEAT it sees as history it does not
 * want; so the writer may only count a reader as matched once it answered a HEARTBEAT, not on the pre-emptive ACKNACK
 * Cyclone sends when it matches (ddsperf then counted 999 of 1000, 0 lost: the lost first sample is no gap in its
 * count).</li>
 * <li>The last: nothing after it would reveal its loss, only the writer heartbeating while it is unacknowledged.</li>
 * </ul>
 * Against:
 * <ul>
 * <li>our writer to {@code ddsperf sub} (skipped, with the reason, where ddsperf is not installed);</li>
 * <li>our writer to our own reader in a second participant.</li>
 * </ul>
 */
@Timeout(300)
class RtpsFirstAndLastSampleLossTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(120);
    private static final String DATA = "DDSPerfRDataKS";
    private static final String TYPE = KeyedSeqCodec.TYPE_NAME;
    private static final int SIZE = 65536;
    private static final int SAMPLES = 20;

    @RegisterExtension
    final Closer closer = new Closer();

    @TempDir
    Path dir;

    @Test
    void ddsperfSubGetsTheFirstAndLastSamplesWhoseDatagramsWereAllLost() throws Exception
    {
        final Path ddsperf = Ddsperf.require();
        final int domain = Ddsperf.randomDomain();
        final Ddsperf sub = closer.add(Ddsperf.start(ddsperf, dir, domain, "-1", "sub"));
        final RtpsParticipant sirocco = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")));
        final RtpsUserWriter writer = sirocco.userWriter(DATA, TYPE, true, List.of(), 64, true,
            TimeUnit.SECONDS.toNanos(60));
        final FirstAndLastSampleLoss loss = new FirstAndLastSampleLoss();
        sirocco.injectFault(loss);
        loss.dropAllFrom(Thread.currentThread());
        assertThat(writer.awaitMatched(1, WAIT_NS)).as("ddsperf's data reader matched and acknowledged").isTrue();
        writeStream(writer, loss);

        assertThat(writer.awaitAcknowledged(WAIT_NS)).as("ddsperf acknowledged all %d samples", SAMPLES).isTrue();
        assertThat(sub.awaitOutput("size " + SIZE + " total " + SAMPLES + " lost 0 ", WAIT_NS))
            .as("ddsperf sub counted all %d samples, 0 lost; it printed:%n%s", SAMPLES, sub.output()).isTrue();
        loss.checkDropped();
        assertThat(writer.resent()).as("samples or fragments resent").isPositive();
    }

    @Test
    void ourReaderGetsTheFirstAndLastSamplesWhoseDatagramsWereAllLost() throws Exception
    {
        final int domain = Ddsperf.randomDomain();
        final RtpsParticipant receiving = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")));
        final CountDownLatch lastArrived = new CountDownLatch(1);
        final AtomicInteger received = new AtomicInteger();
        final AtomicInteger wrong = new AtomicInteger();
        receiving.userReader(DATA, TYPE, true, List.of(), (context, data) ->
        {
            final long seq = KeyedSeqCodec.seq(data.buffer(), data.payloadOffset(), data.payloadLength());
            if (seq != received.getAndIncrement() || data.payloadLength() - 4 < SIZE)
            {
                wrong.incrementAndGet();
            }
            if (seq == SAMPLES - 1)
            {
                lastArrived.countDown();
            }
        });
        final RtpsParticipant sending = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")));
        final RtpsUserWriter writer = sending.userWriter(DATA, TYPE, true, List.of(), 64, true,
            TimeUnit.SECONDS.toNanos(60));
        final FirstAndLastSampleLoss loss = new FirstAndLastSampleLoss();
        sending.injectFault(loss);
        loss.dropAllFrom(Thread.currentThread());
        assertThat(writer.awaitMatched(1, WAIT_NS)).as("our reader matched and acknowledged").isTrue();
        writeStream(writer, loss);

        assertThat(lastArrived.await(WAIT_NS, TimeUnit.NANOSECONDS)).as("the last sample arrived; %d samples did",
            received.get()).isTrue();
        assertThat(writer.awaitAcknowledged(WAIT_NS)).as("our reader acknowledged all %d samples", SAMPLES).isTrue();
        assertThat(received.get()).as("samples delivered").isEqualTo(SAMPLES);
        assertThat(wrong.get()).as("samples out of order or short").isZero();
        loss.checkDropped();
    }

    /**
     * Writes seqs 0..SAMPLES-1 of SIZE bytes, the first and the last with {@code loss} dropping all they send (it
     * drops already what the caller sent since it matched: the HEARTBEATs {@code awaitMatched} sends, so that only
     * those of the RTPS agent can reach the reader before the first sample).
     */
    private static void writeStream(final RtpsUserWriter writer, final FirstAndLastSampleLoss loss)
    {
        final KeyedSeqSample sample = KeyedSeqSample.ofDdsperfSize(SIZE);
        for (int seq = 0; seq < SAMPLES; seq++)
        {
            final ByteBuffer encoded = sample.seq(seq);
            loss.dropAllFrom(seq == 0 || seq == SAMPLES - 1 ? Thread.currentThread() : null);
            assertThat(writer.write(encoded, 0, sample.length(), sample.keyHash())).as("write of seq %d", seq).isOne();
        }
        loss.dropEveryOtherFragmentNext();
    }

    /**
     * Drops every datagram the writing thread sends while armed (the first and the last sample: their DATA_FRAGs and
     * HEARTBEATs), then every other fragment-sized datagram sent, by any thread, up to {@link #LATER_DROPS} of them
     * (the resent fragments). Thread-safe: the sending threads and the receive agent call it at once.
     */
    private static final class FirstAndLastSampleLoss implements DatagramFault
    {
        /** More than a sample's 49 fragments: the first resend loses some, the second too. */
        private static final int LATER_DROPS = 30;
        /** A fragment's datagram carries 1040 to 1344 payload bytes; HEARTBEATs and ACKNACKs are far smaller. */
        private static final int FRAGMENT_DATAGRAM = 1000;
        private volatile Thread writing;
        private volatile boolean later;
        private final AtomicInteger droppedWhileWriting = new AtomicInteger();
        private final AtomicInteger laterSeen = new AtomicInteger();
        private final AtomicInteger laterDropped = new AtomicInteger();

        /** Drops all {@code thread} sends from now on ({@code null}: none). */
        void dropAllFrom(final Thread thread)
        {
            writing = thread;
        }

        void dropEveryOtherFragmentNext()
        {
            writing = null;
            later = true;
        }

        @Override
        public boolean drop(final boolean outbound, final int length, final InetSocketAddress peer)
        {
            if (!outbound)
            {
                return false;
            }
            if (writing != null && Thread.currentThread() == writing)
            {
                droppedWhileWriting.incrementAndGet();
                return true;
            }
            if (later && length > FRAGMENT_DATAGRAM && laterDropped.get() < LATER_DROPS
                && laterSeen.getAndIncrement() % 2 == 0)
            {
                laterDropped.incrementAndGet();
                return true;
            }
            return false;
        }

        void checkDropped()
        {
            assertThat(droppedWhileWriting.get())
                .as("datagrams of the first and the last sample dropped (49 fragments and a heartbeat each)")
                .isGreaterThanOrEqualTo(100);
            assertThat(laterDropped.get()).as("resent fragments dropped").isPositive();
        }
    }
}
