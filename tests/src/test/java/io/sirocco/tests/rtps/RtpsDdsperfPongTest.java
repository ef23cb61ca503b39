package io.sirocco.tests.rtps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.pubsub.rtps.RtpsOptions;
import io.sirocco.pubsub.rtps.RtpsParticipant;
import io.sirocco.pubsub.rtps.RtpsUserWriter;
import io.sirocco.pubsub.rtps.ddsperf.KeyedSeqCodec;
import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.discovery.ParticipantListener;
import io.sirocco.pubsub.rtps.wire.RtpsTime;
import io.sirocco.tests.Closer;

/**
 * User data with Cyclone DDS the other way: an unmodified {@code ddsperf ping} pings Sirocco, which answers each
 * ping on DDSPerfRPongKS in the partition named by the pinger's GUID, with the ping's source timestamp and its
 * lowest nanosecond bit set (ddsperf's mark of an answer to a ping). ddsperf judges: with {@code -Qminmatch:1
 * -Qinitwait:90 -Qroundtrips:500} it waits for our endpoints to match, pings for 5 s, and exits 0 only when our
 * endpoints matched and it counted at least 500 round trips with us; its latency lines are printed. Skipped, with
 * the reason, where ddsperf is not installed.
 */
@Timeout(300)
class RtpsDdsperfPongTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(90);
    private static final String TYPE = KeyedSeqCodec.TYPE_NAME;

    @RegisterExtension
    final Closer closer = new Closer();

    @TempDir
    Path dir;

    @Test
    void ddsperfPingsSiroccoPong() throws Exception
    {
        final Path ddsperf = Ddsperf.require();
        final int domain = Ddsperf.randomDomain();
        final long pid = ProcessHandle.current().pid();
        final RtpsParticipant sirocco = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")
            .withUserData(("DDSPerf:0:" + pid + ":sirocco-pong").getBytes(StandardCharsets.US_ASCII))));
        final Map<GuidPrefix, RtpsUserWriter> pongWriters = new ConcurrentHashMap<>();
        final AtomicLong answered = new AtomicLong();
        sirocco.addListener(new ParticipantListener()
        {
            @Override
            public void onDiscovered(final DiscoveredParticipant p)
            {
                pongWriters.put(p.prefix(), sirocco.userWriter("DDSPerfRPongKS", TYPE, true,
                    List.of(Ddsperf.guidPartition(p.prefix()))));
            }

            @Override
            public void onLost(final DiscoveredParticipant p, final String why)
            {
                pongWriters.remove(p.prefix());
            }
        });
        final byte[] keyHash = new byte[16];
        sirocco.createWriter("DDSPerfRPingKS", TYPE, true, List.of());
        sirocco.createReader("DDSPerfRPongKS", TYPE, true, List.of(Ddsperf.guidPartition(sirocco.prefix())));
        sirocco.userReader("DDSPerfRPingKS", TYPE, true, List.of(), (context, data) ->
        {
            final RtpsUserWriter pong = pongWriters.get(
                new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow()));
            final long keyval = KeyedSeqCodec.keyval(data.buffer(), data.payloadOffset(), data.payloadLength());
            if (pong != null && keyval >= 0)
            {
                KeyedSeqCodec.keyHash((int) keyval, keyHash);
                final long stamp = RtpsTime.fromNanos(RtpsTime.toNanos(context.timestamp()) | 1);
                pong.write(data.buffer(), data.payloadOffset(), data.payloadLength(), keyHash, stamp);
                answered.incrementAndGet();
            }
        });
        // the run's 5 s start once our endpoints matched (-Qinitwait), however long discovery takes under load
        final Ddsperf peer = closer.add(Ddsperf.start(ddsperf, dir, domain, "-D", "5", "-Qminmatch:1",
            "-Qinitwait:90", "-Qroundtrips:500", "ping"));

        final int status = peer.awaitExit(WAIT_NS + TimeUnit.SECONDS.toNanos(60));
        final String output = peer.output();
        System.out.println("ddsperf ping printed:\n" + output);
        assertThat(output).as("ddsperf lists the Sirocco participant")
            .contains("participant sirocco-pong:" + pid + ": new");
        assertThat(answered.get()).as("pings we answered").isGreaterThanOrEqualTo(500);
        assertThat(output).as("ddsperf matched all four of our endpoints").doesNotContain("failed to match");
        assertThat(status).as("ddsperf's exit status with -Qminmatch:1 -Qroundtrips:500; it printed:%n%s", output)
            .isZero();
    }
}
