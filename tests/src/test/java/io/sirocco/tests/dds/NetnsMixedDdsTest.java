package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.tests.Netns;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issues #4 and #5: one DDS domain over two emulated hosts ({@link Netns}), host A with the publisher and subscriber
 * 1, host B with subscriber 2, the transport left to {@code auto}, discovery by static peers: {@code auto} picks
 * {@code mixed}, so A's two processes share memory and talk tcp with B. Each host has its own shm directory and host
 * identity ({@code sirocco.multicast.host}), as two machines would. The {@link KillScenario} (RELIABLE, KEEP_ALL) checks
 * that both subscribers receive in order without loss, then SIGKILLs subscriber 1 (on A) mid-stream: the publisher
 * keeps writing and subscriber 2 (on B) loses nothing. Then the logs must show the paths really used: the publisher
 * pushed its row to subscriber 1 by shared memory and to subscriber 2 by tcp (and never the other way round), and
 * subscriber 2 received by tcp only; and subscriber 1's table files are gone from host A's shm directory (the
 * publisher removed them in the view without it). Needs root; skipped with the reason otherwise.
 */
@Timeout(360)
class NetnsMixedDdsTest
{
    @Test
    void publisherAndSubscriberOnHostASubscriberOnHostBShareMemoryWithinAHostAndTcpBetween() throws Exception
    {
        final String reason = Netns.unavailableReason();
        Assumptions.assumeTrue(reason == null, reason);
        final String domain = String.valueOf(Dds.newDomain());
        final List<Path> dirs = new ArrayList<>();
        try (Netns hosts = new Netns(2))
        {
            final String peers = hosts.address(0) + "," + hosts.address(1);
            final List<KillScenario.Host> list = new ArrayList<>();
            for (int i = 0; i < 2; i++)
            {
                final Path dir = Files.createTempDirectory(ShmRoot.PATH, "sirocco-mixed-h" + i);
                dirs.add(dir);
                list.add(new KillScenario.Host(hosts.prefix(i), List.of("-Dsirocco.dds.transport=auto",
                    "-Dsirocco.dds.peers=" + peers, "-Dsirocco.dds.interface=" + hosts.interfaceName(i),
                    "-Dsirocco.multicast.shm.dir=" + dir, "-Dsirocco.multicast.host=mixhost" + i,
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                    "-Dorg.slf4j.simpleLogger.log.io.sirocco.pubsub.bus.select.BusSelector=info",
                    "-Dorg.slf4j.simpleLogger.log.io.sirocco.pubsub.bus.group.GroupBus=info",
                    "-Dorg.slf4j.simpleLogger.log.io.sirocco.multicast.spi.mixed=debug")));
            }
            final KillScenario.Host hostA = list.get(0);
            final KillScenario.Host hostB = list.get(1);
            final KillScenario.Outcome out = KillScenario.run(domain, hostA, hostB, hostA,
                List.of("transport 'mixed' chosen by default"));

            final long sub1 = MixedRouteLog.memberId(out.sub1());
            final long sub2 = MixedRouteLog.memberId(out.sub2());
            final long pub = MixedRouteLog.memberId(out.pub());
            // The plan: every view the publisher opened routes subscriber 1 by shm and subscriber 2 by tcp.
            final List<MixedRouteLog.Route> pubRoutes = MixedRouteLog.plans(out.pub()).stream()
                .flatMap(List::stream).toList();
            assertThat(pubRoutes).as("publisher's routes").isNotEmpty()
                .allMatch(r -> r.memberId() == sub1 ? r.route().equals("shm")
                    : r.memberId() != sub2 || r.route().equals("tcp"))
                .anyMatch(r -> r.memberId() == sub1).anyMatch(r -> r.memberId() == sub2);
            // What really happened: a closed view (the kill of subscriber 1 ends one) in which the publisher's row
            // went to subscriber 1 by shared memory and to subscriber 2 by tcp.
            assertThat(MixedRouteLog.reports(out.pub())).as("publisher's closed views")
                .anyMatch(report -> MixedRouteLog.pushes(report, sub1, "shm") > 0
                    && MixedRouteLog.pushes(report, sub2, "tcp") > 0);
            // Subscriber 2 is alone on host B: everything it pushed went by tcp, to both host-A processes.
            assertThat(MixedRouteLog.plans(out.sub2()).stream().flatMap(List::stream))
                .as("subscriber 2's routes").isNotEmpty().allMatch(r -> r.route().equals("tcp"));
            assertThat(MixedRouteLog.reports(out.sub2())).as("subscriber 2's closed views")
                .anyMatch(report -> MixedRouteLog.pushes(report, pub, "tcp") > 0
                    && MixedRouteLog.pushes(report, sub1, "tcp") > 0);
            // Subscriber 1 was killed without closing its views: the publisher, on its host, removed its table files
            // when it installed the view without it.
            assertThat(out.pub()).anyMatch(l -> l.contains("table file(s) of departed members"));
            try (var files = Files.list(dirs.get(0).resolve("sirocco-dds-d" + domain)))
            {
                assertThat(files.map(f -> f.getFileName().toString()))
                    .as("host A's shm directory after the run").noneMatch(f -> f.endsWith("-m" + sub1 + ".sst"));
            }
        }
        finally
        {
            for (final Path dir : dirs)
            {
                MultiProcessTcpPeersTest.deleteTree(dir);
            }
        }
    }
}
