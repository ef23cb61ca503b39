package io.sirocco.tests.dds;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.tests.Netns;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * DDS across three emulated hosts: network namespaces on a private bridge ({@link Netns}, addresses 10.77.x.y), one
 * process per namespace, the transport left to {@code auto} (which must pick mixed, since discovery is over the
 * network; every peer is on another host, so every route is tcp). Each "host" has its own shm directory and host name, so nothing is shared but the bridge: no registry
 * file, no same-host crash detection (failures are found by heartbeat). Discovery by UDP multicast beacons in one test
 * and by SIROCCO_DDS_PEERS in the other; then the {@link KillScenario}. Needs root; skipped with the reason otherwise.
 */
@Timeout(360)
class NetnsDdsTest
{
    @Test
    void publisherAndTwoSubscribersOnThreeHostsDiscoveredByMulticast() throws Exception
    {
        runOnThreeHosts("multicast");
    }

    @Test
    void publisherAndTwoSubscribersOnThreeHostsDiscoveredByStaticPeers() throws Exception
    {
        runOnThreeHosts("peers");
    }

    private static void runOnThreeHosts(final String discovery) throws Exception
    {
        final String reason = Netns.unavailableReason();
        Assumptions.assumeTrue(reason == null, reason);
        final String domain = String.valueOf(Dds.newDomain());
        final List<Path> dirs = new ArrayList<>();
        try (Netns hosts = new Netns(3))
        {
            final String peers = hosts.address(0) + "," + hosts.address(1) + "," + hosts.address(2);
            final List<KillScenario.Host> list = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                final Path dir = Files.createTempDirectory(ShmRoot.PATH, "sirocco-netns-h" + i);
                dirs.add(dir);
                final List<String> jvm = new ArrayList<>(List.of("-Dsirocco.dds.transport=auto",
                    "-Dsirocco.dds.discovery=" + discovery, "-Dsirocco.dds.interface=" + hosts.interfaceName(i),
                    "-Dsirocco.multicast.shm.dir=" + dir, "-Dsirocco.multicast.host=nshost" + i,
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                    "-Dorg.slf4j.simpleLogger.log.io.sirocco.pubsub.bus.select.BusSelector=info",
                    "-Dorg.slf4j.simpleLogger.log.io.sirocco.multicast.contact=debug"));
                if ("peers".equals(discovery))
                {
                    jvm.add("-Dsirocco.dds.peers=" + peers);
                }
                list.add(new KillScenario.Host(hosts.prefix(i), jvm));
            }
            // Proof that the processes met over the bridge: auto picked tcp, and with multicast each one heard
            // another's beacon.
            final List<String> expected = new ArrayList<>(List.of("transport 'mixed' chosen by default"));
            if ("multicast".equals(discovery))
            {
                expected.add("by multicast beacon");
                expected.add("multicast beacons on 239.255.0.1:7399 over interface dvn");
            }
            KillScenario.run(domain, list.get(0), list.get(1), list.get(2), expected);
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
