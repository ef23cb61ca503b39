package io.sirocco.tests.rtps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.ParticipantListener;
import io.sirocco.tests.Closer;

/**
 * SEDP interop with Cyclone DDS: our SEDP writers announce a ping writer and reader, a pong reader in the partition
 * named by our GUID and, once ddsperf is found, a pong writer in the partition named by ddsperf's GUID, the four
 * endpoints ddsperf expects of a peer that has no data reader. ddsperf itself judges the match: run with
 * {@code -Qminmatch:1 -Qinitwait:90}, it waits for a peer to match fully, runs 2 s, and exits with status 0 only when
 * at least one peer matched all its expected endpoints and no peer it listed failed to (it prints "error: HOST:PID
 * failed to match ..." otherwise). Skipped, with the reason, where ddsperf is not installed.
 */
@Timeout(240)
class RtpsDdsperfMatchTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(90);
    private static final String TYPE = "KeyedSeq";
    /** How long ddsperf waits for our participant to match all four endpoints before it gives up (exit 1). */
    private static final int INIT_WAIT_S = 90;

    @RegisterExtension
    final Closer closer = new Closer();

    @TempDir
    Path dir;

    @Test
    void ddsperfMatchesOurSedpAnnouncedEndpoints() throws Exception
    {
        final Path ddsperf = Ddsperf.require();
        final int domain = Ddsperf.randomDomain();
        final long pid = ProcessHandle.current().pid();
        final BlockingQueue<DiscoveredParticipant> found = new LinkedBlockingQueue<>();
        final RtpsParticipant sirocco = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")
            .withUserData(("DDSPerf:0:" + pid + ":sirocco-match").getBytes(StandardCharsets.US_ASCII))));
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
                // the run ends with ddsperf's exit
            }
        });
        sirocco.createWriter("DDSPerfRPingKS", TYPE, true, List.of());
        sirocco.createReader("DDSPerfRPingKS", TYPE, true, List.of());
        sirocco.createReader("DDSPerfRPongKS", TYPE, true, List.of(Ddsperf.guidPartition(sirocco.prefix())));
        // the run's 2 s start once a peer matched fully (-Qinitwait), however long discovery takes under load
        final Ddsperf peer = closer.add(Ddsperf.start(ddsperf, dir, domain, "-D", "2", "-Qminmatch:1",
            "-Qinitwait:" + INIT_WAIT_S, "pong"));

        final DiscoveredParticipant cyclone = found.poll(WAIT_NS, TimeUnit.NANOSECONDS);
        assertThat(cyclone).as("ddsperf's participant found by SPDP within 90 s").isNotNull();
        sirocco.createWriter("DDSPerfRPongKS", TYPE, true, List.of(Ddsperf.guidPartition(cyclone.prefix())));

        final int status = peer.awaitExit(TimeUnit.SECONDS.toNanos(INIT_WAIT_S + 60));
        final String output = peer.output();
        System.out.println("ddsperf printed:\n" + output);
        assertThat(output).as("ddsperf lists the Sirocco participant")
            .contains("participant sirocco-match:" + pid + ": new");
        assertThat(output).as("ddsperf matched all four of our endpoints").doesNotContain("failed to match");
        assertThat(status).as("ddsperf's exit status with -Qminmatch:1 (0: a peer matched fully); it printed:%n%s",
            output).isZero();
    }
}
