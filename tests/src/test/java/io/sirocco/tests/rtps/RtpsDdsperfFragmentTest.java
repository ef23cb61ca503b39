package io.sirocco.tests.rtps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.collections.IntHashSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.sirocco.pubsub.rtps.RtpsOptions;
import io.sirocco.pubsub.rtps.RtpsParticipant;
import io.sirocco.pubsub.rtps.RtpsUserWriter;
import io.sirocco.pubsub.rtps.ddsperf.KeyedSeqCodec;
import io.sirocco.pubsub.rtps.wire.RtpsTime;
import io.sirocco.tests.Closer;
import io.sirocco.transport.udp.DatagramFault;

/**
 * Samples from 16 B to 64 KiB (ddsperf's size), reliable KEEP_ALL, both ways with an unmodified Cyclone DDS
 * {@code ddsperf} on loopback: above 1344 B they travel as DATA_FRAG, cut by Cyclone and reassembled by us, or cut by
 * us and reassembled by Cyclone. With loss (a fault losing a share of the datagrams our participant sends and
 * receives), a sample arrives whole only when the fragments lost were asked for again (NACK_FRAG) or the sample was
 * resent (ACKNACK).
 * <ul>
 * <li>our writer to {@code ddsperf sub}: ddsperf counts every sample written, 0 lost;</li>
 * <li>{@code ddsperf pub} to our reliable reader: every seq from the first to the last received arrives once, in
 * order.</li>
 * </ul>
 * Skipped, with the reason, where ddsperf is not installed.
 */
@Timeout(300)
class RtpsDdsperfFragmentTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(120);
    private static final String DATA = "DDSPerfRDataKS";
    private static final String TYPE = KeyedSeqCodec.TYPE_NAME;

    /**
     * Samples our reader takes from ddsperf pub (2 s at 500 Hz), counted from the match however late it came under
     * load: ddsperf writes from its start, a reader matched later only sees what follows.
     */
    private static final int FROM_DDSPERF = 1000;

    @RegisterExtension
    final Closer closer = new Closer();

    @TempDir
    Path dir;

    private Path ddsperf;

    @BeforeEach
    void needsDdsperf()
    {
        ddsperf = Ddsperf.require();
    }

    @ParameterizedTest(name = "size {0} B, {1} % loss")
    @CsvSource({"16, 0", "1024, 0", "4096, 0", "16384, 0", "65536, 0", "65536, 2"})
    void ddsperfSubCountsEverySampleOfOurWriter(final int size, final int lossPercent) throws Exception
    {
        final int domain = Ddsperf.randomDomain();
        final Ddsperf sub = closer.add(Ddsperf.start(ddsperf, dir, domain, "-1", "sub"));
        final RtpsParticipant sirocco = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")));
        final RtpsUserWriter writer = sirocco.userWriter(DATA, TYPE, true, List.of(), 64, true,
            TimeUnit.SECONDS.toNanos(60));
        assertThat(writer.awaitMatched(1, WAIT_NS)).as("ddsperf's data reader matched and acknowledged").isTrue();
        sirocco.injectFault(lose(lossPercent));

        final int samples = samplesToDdsperf(size);
        final KeyedSeqSample sample = KeyedSeqSample.ofDdsperfSize(size);
        for (int seq = 0; seq < samples; seq++)
        {
            final long stamp = RtpsTime.fromNanos(System.currentTimeMillis() * 1_000_000L & ~1L);
            assertThat(writer.write(sample.seq(seq), 0, sample.length(), sample.keyHash(), stamp))
                .as("write of seq %d", seq).isOne();
        }
        assertThat(writer.awaitAcknowledged(WAIT_NS)).as("ddsperf acknowledged all %d samples", samples).isTrue();
        if (lossPercent > 0)
        {
            assertThat(writer.resent()).as("samples or fragments resent after the fault lost them").isPositive();
        }

        assertThat(sub.awaitOutput("size " + size + " total " + samples + " lost ", WAIT_NS))
            .as("ddsperf sub counted all %d samples of %d B; it printed:%n%s", samples, size, sub.output()).isTrue();
        final Matcher last = Pattern.compile("size " + size + " total " + samples + " lost (\\d+) ")
            .matcher(sub.output());
        assertThat(last.find()).isTrue();
        System.out.println("to ddsperf sub, size " + size + " B, " + lossPercent + " % loss: total " + samples
            + " lost " + last.group(1) + "; we resent " + writer.resent());
        assertThat(last.group(1)).as("samples ddsperf counted as lost").isEqualTo("0");
    }

    @ParameterizedTest(name = "size {0} B, {1} % loss")
    @CsvSource({"16, 0", "1024, 0", "4096, 0", "16384, 0", "65536, 0", "65536, 2"})
    void ourReaderGetsEveryDdsperfSampleInOrder(final int size, final int lossPercent) throws Exception
    {
        final int domain = Ddsperf.randomDomain();
        final RtpsParticipant sirocco = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")));
        final Received received = new Received(size);
        sirocco.userReader(DATA, TYPE, true, List.of(), (context, data) ->
            received.sample((int) KeyedSeqCodec.seq(data.buffer(), data.payloadOffset(), data.payloadLength()),
                data.payloadLength()));
        sirocco.injectFault(lose(lossPercent));
        final Ddsperf pub = closer.add(Ddsperf.start(ddsperf, dir, domain, "-D", "240", "pub", "500Hz", "size",
            Integer.toString(size)));
        received.awaitReceived(FROM_DDSPERF, WAIT_NS);
        assertThat(pub.stop(WAIT_NS)).as("ddsperf pub's exit status; it printed:%n%s", pub.output()).isZero();
        // Cyclone's writer lingers until its reliable readers acknowledged everything: wait for the last to settle
        final long deadline = System.nanoTime() + WAIT_NS;
        while (received.missing() != 0 && System.nanoTime() - deadline < 0)
        {
            TimeUnit.MILLISECONDS.sleep(100); // polling the reader's counts: no event marks the last resend
        }
        System.out.println("from ddsperf pub, size " + size + " B, " + lossPercent + " % loss: " + received);
        received.check();
    }

    /**
     * Samples our writer sends of {@code size} B: many windows of the writer's 64-sample history whatever the size
     * (flow control blocks, never drops), and at 64 KiB about 12,000 DATA_FRAGs, 2 % of them some 250 losses to repair.
     */
    private static int samplesToDdsperf(final int size)
    {
        if (size >= 65536)
        {
            return 250;
        }
        return size >= 16384 ? 1000 : 5000;
    }

    private static DatagramFault lose(final int percent)
    {
        return (outbound, length, peer) -> ThreadLocalRandom.current().nextInt(100) < percent;
    }

    /**
     * What our reader got, by seq; written on the RTPS agent's thread, read by the test's (under its monitor, which
     * each sample notifies).
     */
    private static final class Received
    {
        private final IntHashSet seen = new IntHashSet();
        private final int size;
        private long duplicates;
        private long outOfOrder;
        private long wrongSize;
        private int highest = -1;
        private int lowest = Integer.MAX_VALUE;

        Received(final int size)
        {
            this.size = size;
        }

        synchronized void sample(final int seq, final int payloadLength)
        {
            if (!seen.add(seq))
            {
                duplicates++;
            }
            if (seq <= highest)
            {
                outOfOrder++;
            }
            // ddsperf's size counts the 12 fixed bytes; the payload adds the 4-byte encapsulation header
            if (payloadLength - 4 < size)
            {
                wrongSize++;
            }
            highest = Math.max(highest, seq);
            lowest = Math.min(lowest, seq);
            notifyAll();
        }

        /** Waits up to {@code timeoutNs} until {@code count} distinct seqs arrived (check() judges if not). */
        synchronized void awaitReceived(final int count, final long timeoutNs) throws InterruptedException
        {
            final long deadline = System.nanoTime() + timeoutNs;
            for (long left = timeoutNs; seen.size() < count && left > 0; left = deadline - System.nanoTime())
            {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }

        synchronized long missing()
        {
            return seen.isEmpty() ? -1 : highest - lowest + 1 - seen.size();
        }

        synchronized void check()
        {
            assertThat(seen.size()).as("samples received").isGreaterThan(100);
            assertThat(missing()).as("seqs missing between the first and the last received").isZero();
            assertThat(duplicates).as("duplicates delivered").isZero();
            assertThat(outOfOrder).as("samples delivered after a higher seq").isZero();
            assertThat(wrongSize).as("samples shorter than ddsperf's size").isZero();
        }

        @Override
        public synchronized String toString()
        {
            return "seq " + lowest + ".." + highest + ", " + seen.size() + " received, lost " + missing() + ", "
                + duplicates + " duplicates, " + outOfOrder + " out of order";
        }
    }
}
