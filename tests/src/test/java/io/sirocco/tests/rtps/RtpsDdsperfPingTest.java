package io.sirocco.tests.rtps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.pubsub.rtps.RtpsOptions;
import io.sirocco.pubsub.rtps.RtpsParticipant;
import io.sirocco.pubsub.rtps.RtpsUserWriter;
import io.sirocco.pubsub.rtps.ddsperf.KeyedSeqCodec;
import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.ParticipantListener;
import io.sirocco.tests.Closer;

/**
 * User data with Cyclone DDS: Sirocco pings an unmodified {@code ddsperf pong} over RTPS on loopback. Our reliable
 * writer sends KeyedSeq samples on DDSPerfRPingKS; ddsperf answers each on DDSPerfRPongKS in the partition named by
 * our GUID, which our reliable reader (HEARTBEAT/ACKNACK) receives. Every ping of the measured run must come back,
 * once and in order; the round-trip times are printed (not asserted: the machine is shared). Until both sides have
 * matched, a ping that got no answer within a second is followed by the next one (warm-up). Skipped, with the
 * reason, where ddsperf is not installed.
 */
@Timeout(300)
class RtpsDdsperfPingTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(90);
    private static final int ROUND_TRIPS = 2000;
    private static final String TYPE = KeyedSeqCodec.TYPE_NAME;

    @RegisterExtension
    final Closer closer = new Closer();

    @TempDir
    Path dir;

    @Test
    void siroccoPingsDdsperfPong() throws Exception
    {
        final Path ddsperf = Ddsperf.require();
        final int domain = Ddsperf.randomDomain();
        final long pid = ProcessHandle.current().pid();
        final BlockingQueue<DiscoveredParticipant> found = new LinkedBlockingQueue<>();
        final BlockingQueue<Long> pongs = new LinkedBlockingQueue<>();
        final RtpsParticipant sirocco = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")
            .withUserData(("DDSPerf:0:" + pid + ":sirocco-ping").getBytes(StandardCharsets.US_ASCII))));
        sirocco.addListener(new ParticipantListener()
        {
            @Override
            public void onDiscovered(final DiscoveredParticipant p)
            {
                found.add(p);
            }

            @Override
            public void onLost(final DiscoveredParticipant p, final String why)
            {
                // ddsperf is killed at the end
            }
        });
        final RtpsUserWriter ping = sirocco.userWriter("DDSPerfRPingKS", TYPE, true, List.of());
        sirocco.createReader("DDSPerfRPingKS", TYPE, true, List.of());
        sirocco.userReader("DDSPerfRPongKS", TYPE, true, List.of(Ddsperf.guidPartition(sirocco.prefix())),
            (context, data) -> pongs.add(KeyedSeqCodec.seq(data.buffer(), data.payloadOffset(), data.payloadLength())));
        final Ddsperf peer = closer.add(Ddsperf.start(ddsperf, dir, domain, "pong"));
        final DiscoveredParticipant cyclone = found.poll(WAIT_NS, TimeUnit.NANOSECONDS);
        assertThat(cyclone).as("ddsperf's participant found by SPDP within 90 s").isNotNull();
        sirocco.createWriter("DDSPerfRPongKS", TYPE, true, List.of(Ddsperf.guidPartition(cyclone.prefix())));

        final ByteBuffer sample = ByteBuffer.allocateDirect(64);
        final byte[] keyHash = new byte[16];
        KeyedSeqCodec.keyHash(0, keyHash);
        int seq = warmUp(ping, sample, keyHash, pongs);
        final long[] rtt = new long[ROUND_TRIPS];
        for (int i = 0; i < ROUND_TRIPS; i++)
        {
            seq++;
            final long start = System.nanoTime();
            final int length = KeyedSeqCodec.encode(sample, 0, KeyedSeqCodec.XCDR1_LE, seq, 0, 0);
            assertThat(ping.write(sample, 0, length, keyHash)).isPositive();
            final Long pong = pongs.poll(60, TimeUnit.SECONDS);
            rtt[i] = System.nanoTime() - start;
            assertThat(pong).as("the pong of ping %d (round trip %d of %d) within 60 s; ddsperf printed:%n%s", seq,
                i, ROUND_TRIPS, peer.output()).isEqualTo(seq);
        }
        assertThat(pongs).as("no pong came twice or unasked").isEmpty();
        Arrays.sort(rtt);
        System.out.printf("sirocco ping -> ddsperf pong over RTPS/UDP loopback: %d round trips, min %.1f us, "
            + "median %.1f us, p90 %.1f us, p99 %.1f us%n", ROUND_TRIPS, rtt[0] / 1e3, rtt[ROUND_TRIPS / 2] / 1e3,
            rtt[ROUND_TRIPS * 9 / 10] / 1e3, rtt[ROUND_TRIPS * 99 / 100] / 1e3);
    }

    /** Pings until one comes back (both sides matched); returns the last sequence number used. */
    private static int warmUp(final RtpsUserWriter ping, final ByteBuffer sample, final byte[] keyHash,
        final BlockingQueue<Long> pongs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT_NS;
        for (int seq = 1; System.nanoTime() - deadline < 0; seq++)
        {
            final int length = KeyedSeqCodec.encode(sample, 0, KeyedSeqCodec.XCDR1_LE, seq, 0, 0);
            ping.write(sample, 0, length, keyHash);
            final Long pong = pongs.poll(1, TimeUnit.SECONDS);
            if (pong != null && pong == seq)
            {
                pongs.clear(); // late answers to earlier warm-up pings are not part of the measured run
                return seq;
            }
        }
        throw new AssertionError("no pong from ddsperf within 90 s: the ping/pong endpoints never matched");
    }
}
