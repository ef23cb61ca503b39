package io.sirocco.tests.rtps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.collections.IntHashSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.pubsub.rtps.RtpsOptions;
import io.sirocco.pubsub.rtps.RtpsParticipant;
import io.sirocco.pubsub.rtps.RtpsUserWriter;
import io.sirocco.pubsub.rtps.ddsperf.KeyedSeqCodec;
import io.sirocco.pubsub.rtps.wire.RtpsTime;
import io.sirocco.tests.Closer;
import io.sirocco.transport.udp.DatagramFault;

/**
 * Reliable KEEP_ALL throughput with an unmodified Cyclone DDS {@code ddsperf} on loopback, through a fault that loses
 * 10 % of the datagrams our participant sends and receives, so that nothing arrives complete without retransmission:
 * <ul>
 * <li>our writer to {@code ddsperf sub}: every sample written arrives, by ddsperf's own count ("total N lost 0"), and
 * our writer resent some (HEARTBEAT, ACKNACK, resend, GAP; flow control blocks instead of dropping);</li>
 * <li>{@code ddsperf pub} to our reliable reader: every seq from the first to the last received arrives exactly once
 * and in order, each seq above the one before (our ACKNACKs made Cyclone resend what the fault lost, and the reader
 * held what came early until the resends filled the gaps).</li>
 * </ul>
 * Skipped, with the reason, where ddsperf is not installed.
 */
@Timeout(300)
class RtpsDdsperfThroughputTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(120);
    private static final String DATA = "DDSPerfRDataKS";
    private static final String TYPE = KeyedSeqCodec.TYPE_NAME;
    private static final DatagramFault LOSE_10_PERCENT = (outbound, length, peer) ->
        ThreadLocalRandom.current().nextInt(10) == 0;

    /**
     * Samples our reader takes from ddsperf pub (2 s at 2 kHz), counted from the match however late it came under
     * load: ddsperf writes from its start, a reader matched later only sees what follows.
     */
    private static final int FROM_DDSPERF = 4000;

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

    @Test
    void ddsperfSubReceivesEverySampleDespiteLoss() throws Exception
    {
        final int domain = Ddsperf.randomDomain();
        final Ddsperf sub = closer.add(Ddsperf.start(ddsperf, dir, domain, "-1", "sub"));
        final RtpsParticipant sirocco = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")));
        final RtpsUserWriter writer = sirocco.userWriter(DATA, TYPE, true, List.of(), 64, true,
            TimeUnit.SECONDS.toNanos(60));
        assertThat(writer.awaitMatched(1, WAIT_NS)).as("ddsperf's data reader matched and acknowledged").isTrue();
        sirocco.injectFault(LOSE_10_PERCENT);

        final int samples = 20_000;
        final KeyedSeqSample sample = KeyedSeqSample.ofDdsperfSize(1024);
        for (int seq = 0; seq < samples; seq++)
        {
            final long stamp = RtpsTime.fromNanos(System.currentTimeMillis() * 1_000_000L & ~1L);
            assertThat(writer.write(sample.seq(seq), 0, sample.length(), sample.keyHash(), stamp))
                .as("write of seq %d", seq).isOne();
        }
        assertThat(writer.awaitAcknowledged(WAIT_NS)).as("ddsperf acknowledged all %d samples", samples).isTrue();
        assertThat(writer.resent()).as("samples resent after the fault lost them").isPositive();

        assertThat(sub.awaitOutput(" total " + samples + " lost ", WAIT_NS))
            .as("ddsperf sub counted all %d samples; it printed:%n%s", samples, sub.output()).isTrue();
        final Matcher last = Pattern.compile("total " + samples + " lost (\\d+) ").matcher(sub.output());
        assertThat(last.find()).isTrue();
        System.out.println("ddsperf sub: total " + samples + " lost " + last.group(1) + "; we resent "
            + writer.resent());
        assertThat(last.group(1)).as("samples ddsperf counted as lost").isEqualTo("0");
    }

    @Test
    void siroccoReaderReceivesEveryDdsperfSampleDespiteLoss() throws Exception
    {
        final int domain = Ddsperf.randomDomain();
        final RtpsParticipant sirocco = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")));
        final IntHashSet seen = new IntHashSet();
        final AtomicLong duplicates = new AtomicLong();
        final AtomicLong outOfOrder = new AtomicLong();
        final AtomicLong highest = new AtomicLong(-1);
        final AtomicLong lowest = new AtomicLong(Long.MAX_VALUE);
        sirocco.userReader(DATA, TYPE, true, List.of(), (context, data) ->
        {
            final int seq = (int) KeyedSeqCodec.seq(data.buffer(), data.payloadOffset(), data.payloadLength());
            synchronized (seen)
            {
                if (!seen.add(seq))
                {
                    duplicates.incrementAndGet();
                }
                if (seq <= highest.get())
                {
                    outOfOrder.incrementAndGet();
                }
                highest.set(Math.max(highest.get(), seq));
                lowest.set(Math.min(lowest.get(), seq));
            }
        });
        sirocco.injectFault(LOSE_10_PERCENT);
        final Ddsperf pub = closer.add(Ddsperf.start(ddsperf, dir, domain, "-D", "240", "pub", "2kHz", "size", "1k"));
        awaitReceived(seen, FROM_DDSPERF);
        assertThat(pub.stop(WAIT_NS)).as("ddsperf pub's exit status; it printed:%n%s", pub.output()).isZero();
        // Cyclone's writer lingers until its reliable readers acknowledged everything: wait for the last to settle
        final long deadline = System.nanoTime() + WAIT_NS;
        long missing;
        do
        {
            TimeUnit.MILLISECONDS.sleep(100); // polling the reader's counts: no event marks the last resend
            synchronized (seen)
            {
                missing = highest.get() - lowest.get() + 1 - seen.size();
            }
        }
        while (missing != 0 && System.nanoTime() - deadline < 0);
        synchronized (seen)
        {
            System.out.println("from ddsperf pub: seq " + lowest.get() + ".." + highest.get() + ", " + seen.size()
                + " received, " + duplicates.get() + " duplicates, " + outOfOrder.get() + " out of order");
            assertThat(seen.size()).as("samples received").isGreaterThan(1000);
            assertThat(missing).as("seqs missing between the first and the last received").isZero();
            assertThat(duplicates.get()).as("duplicates delivered").isZero();
            assertThat(outOfOrder.get()).as("samples delivered after a higher seq").isZero();
        }
    }

    /** Waits up to WAIT_NS until {@code count} distinct seqs arrived (the assertions after judge if not). */
    private static void awaitReceived(final IntHashSet seen, final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT_NS;
        while (System.nanoTime() - deadline < 0)
        {
            synchronized (seen)
            {
                if (seen.size() >= count)
                {
                    return;
                }
            }
            TimeUnit.MILLISECONDS.sleep(100); // polling the reader's counts, as below
        }
    }
}
