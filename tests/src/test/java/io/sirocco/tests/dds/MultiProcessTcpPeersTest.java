package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.sirocco.tests.FreePorts;
import io.sirocco.tests.RunShmRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three processes on this host over the {@code tcp} transport, discovered through static peers
 * ({@code sirocco.dds.peers} = SIROCCO_DDS_PEERS) on loopback, with no shared registry: each process has its own shm
 * directory ({@code sirocco.multicast.shm.dir}), so membership can only travel over the network registry. The first
 * subscriber holds the listed contact port; the others find it taken and listen on ephemeral ports. Then the
 * {@link KillScenario}: no loss, a killed subscriber hurts nobody, a killed publisher leaves NOT_ALIVE_NO_WRITERS.
 */
@Timeout(300)
class MultiProcessTcpPeersTest
{
    @Test
    void threeProcessesOverTcpWithStaticPeersAndNoSharedRegistry() throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        // Below the ephemeral range: a port from new ServerSocket(0) was once taken by the time the child bound it.
        final int contactPort = FreePorts.next();
        final List<Path> dirs = new ArrayList<>();
        try
        {
            final List<KillScenario.Host> hosts = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                final Path dir = Files.createTempDirectory(ShmRoot.PATH, "sirocco-peers-h" + i);
                dirs.add(dir);
                hosts.add(new KillScenario.Host(List.of(), List.of("-Dsirocco.dds.transport=tcp",
                    "-Dsirocco.dds.peers=127.0.0.1:" + contactPort, "-Dsirocco.dds.contact.port=" + contactPort,
                    "-Dsirocco.dds.interface=lo", "-Dsirocco.multicast.shm.dir=" + dir,
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                    "-Dorg.slf4j.simpleLogger.log.io.sirocco.multicast.contact=debug")));
            }
            KillScenario.run(domain, hosts.get(0), hosts.get(1), hosts.get(2),
                List.of("serves its membership registry on 127.0.0.1:", "static peers [/127.0.0.1:" + contactPort));
            for (final Path dir : dirs)
            {
                try (Stream<Path> files = Files.list(dir))
                {
                    assertThat(files.map(p -> p.getFileName().toString()))
                        .as("no registry directory in %s: membership went over the network", dir)
                        .noneMatch(n -> n.startsWith("sirocco-dds-d"));
                }
            }
        }
        finally
        {
            for (final Path dir : dirs)
            {
                deleteTree(dir);
            }
        }
    }

    static void deleteTree(final Path dir)
    {
        RunShmRoot.deleteTree(dir);
    }
}
