package io.sirocco.tests.rtps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
 * SPDP interop with Cyclone DDS: a Sirocco RTPS participant and an unmodified {@code ddsperf} (started here, on
 * loopback, in a domain of their own) discover each other. Proven from both sides: ddsperf prints
 * "participant HOST:PID: new" for us (it lists only participants whose USER_DATA follows its
 * {@code DDSPerf:<has reader>:<pid>:<host>} convention, which we announce), and our participant table holds
 * ddsperf's participant with its own USER_DATA naming its pid, and our reliable SEDP readers (HEARTBEAT/ACKNACK)
 * learn ddsperf's endpoints. Killed hard, ddsperf is then dropped when its lease
 * runs out. Skipped, with the reason, where ddsperf is not installed.
 */
@Timeout(180)
class RtpsDdsperfDiscoveryTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(90);

    @RegisterExtension
    final Closer closer = new Closer();

    @TempDir
    Path dir;

    @Test
    void siroccoAndDdsperfDiscoverEachOther() throws Exception
    {
        final Path ddsperf = Ddsperf.require();
        final int domain = Ddsperf.randomDomain();
        final long pid = ProcessHandle.current().pid();
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        final RtpsParticipant sirocco = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")
            .withUserData(("DDSPerf:0:" + pid + ":sirocco-test").getBytes(StandardCharsets.US_ASCII))));
        sirocco.addListener(new ParticipantListener()
        {
            @Override
            public void onDiscovered(final DiscoveredParticipant p)
            {
                events.add("new " + p.userDataText());
            }

            @Override
            public void onLost(final DiscoveredParticipant p, final String why)
            {
                events.add("lost " + p.userDataText() + " " + why);
            }
        });
        final Ddsperf peer = closer.add(Ddsperf.start(ddsperf, dir, domain, "-D", "150", "pong"));

        assertThat(peer.awaitOutput("participant sirocco-test:" + pid + ": new", WAIT_NS))
            .as("ddsperf's own output lists the Sirocco participant; it printed:%n%s", peer.output())
            .isTrue();
        final String discovered = awaitEvent(events, "new DDSPerf:");
        assertThat(discovered).as("our participant table holds ddsperf's participant, pid %d", peer.pid())
            .matches("new DDSPerf:\\d+:" + peer.pid() + ":.*");
        assertThat(sirocco.participants()).anySatisfy(p ->
        {
            assertThat(p.vendorId()).as("Cyclone DDS's vendor id").isEqualTo(0x0110);
            assertThat(p.metatrafficUnicast()).isNotEmpty();
        });
        awaitEndpoint(sirocco, "DDSPerf");
        assertThat(sirocco.decodeStats().malformedTotal()).as("nothing Cyclone sent was rejected").isZero();
        assertThat(sirocco.decodeStats().acceptedDatagrams()).isPositive();

        peer.killHard();
        assertThat(awaitEvent(events, "lost DDSPerf:")).endsWith("lease expired");
        assertThat(sirocco.participants()).isEmpty();
    }

    /** Waits for an SEDP-announced endpoint of ddsperf (its topics are named DDSPerf...). */
    private static void awaitEndpoint(final RtpsParticipant sirocco, final String topicPrefix)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT_NS;
        while (sirocco.endpoints().stream().noneMatch(e -> e.topicName().startsWith(topicPrefix)))
        {
            assertThat(System.nanoTime() - deadline).as("an SEDP endpoint on a %s* topic within 90 s; have %s",
                topicPrefix, sirocco.endpoints()).isNegative();
            TimeUnit.MILLISECONDS.sleep(20); // the endpoint table has no blocking wait; poll it
        }
        System.out.println("SEDP endpoints of ddsperf: " + sirocco.endpoints());
    }

    private static String awaitEvent(final BlockingQueue<String> events, final String prefix)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT_NS;
        for (long left = WAIT_NS; left > 0; left = deadline - System.nanoTime())
        {
            final String event = events.poll(left, TimeUnit.NANOSECONDS);
            if (event != null && event.startsWith(prefix))
            {
                return event;
            }
        }
        throw new AssertionError("no event starting with '" + prefix + "' within " + WAIT_NS / 1_000_000_000 + " s");
    }
}
