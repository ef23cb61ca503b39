package io.sirocco.pubsub.bus.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The transport decision table of issue #5: shm on one host, mixed across hosts, overrides, logged fallbacks. */
class DomainTransportSelectionTest
{
    private static final String HOST = "h1/0a0b0c0d";

    @Test
    void autoWithTheHostRegistryIsSharedMemory()
    {
        final DomainTransportSelection c = DomainTransportSelection.choose(3, "auto", "shm", HOST, null);
        assertThat(c.transport()).isEqualTo("shm");
        assertThat(c.warn()).isFalse();
        assertThat(c.reason()).startsWith("domain 3: ").contains("'shm' chosen by default");
    }

    @Test
    void autoWithNetworkDiscoveryIsMixedNamingTheHostIdentity()
    {
        for (final String discovery : new String[] {"peers", "multicast"})
        {
            final DomainTransportSelection c = DomainTransportSelection.choose(3, "auto", discovery, HOST, null);
            assertThat(c.transport()).isEqualTo("mixed");
            assertThat(c.warn()).isFalse();
            assertThat(c.reason()).contains("'mixed' chosen by default", discovery, HOST);
        }
    }

    @Test
    void autoWithNetworkDiscoveryButNoUsableShmFallsBackToTcpWithAWarning()
    {
        final DomainTransportSelection c = DomainTransportSelection.choose(3, "auto", "peers", HOST, "shm root /x is not writable");
        assertThat(c.transport()).isEqualTo("tcp");
        assertThat(c.warn()).isTrue();
        assertThat(c.reason()).contains("FALLING BACK to 'tcp'", "/x is not writable");
    }

    @Test
    void mixedAsConfiguredNeverFallsBack()
    {
        assertThat(DomainTransportSelection.choose(3, "mixed", "peers", HOST, null).transport()).isEqualTo("mixed");
        final DomainTransportSelection oneHost = DomainTransportSelection.choose(3, "mixed", "shm", HOST, null);
        assertThat(oneHost.transport()).isEqualTo("mixed");
        assertThat(oneHost.reason()).contains("every pair shares memory");
        assertThatThrownBy(() -> DomainTransportSelection.choose(3, "mixed", "peers", HOST, "shm root /x is not writable"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("domain 3")
            .hasMessageContaining("/x is not writable");
    }

    @Test
    void explicitTransportsWinAndShmAcrossTheNetworkWarns()
    {
        assertThat(DomainTransportSelection.choose(3, "tcp", "peers", HOST, null).transport()).isEqualTo("tcp");
        assertThat(DomainTransportSelection.choose(3, "tcp", "shm", HOST, null).reason()).contains("members on other hosts");
        assertThat(DomainTransportSelection.choose(3, "local", "peers", HOST, null).transport()).isEqualTo("local");
        final DomainTransportSelection shm = DomainTransportSelection.choose(3, "shm", "multicast", HOST, null);
        assertThat(shm.transport()).isEqualTo("shm");
        assertThat(shm.warn()).isTrue();
        assertThat(DomainTransportSelection.choose(3, "shm", "shm", HOST, null).warn()).isFalse();
    }

    @Test
    void unknownTransportNamesTheSettingAndTheAcceptedValues()
    {
        assertThatThrownBy(() -> DomainTransportSelection.choose(4, "rdma2", "shm", HOST, null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("domain 4").hasMessageContaining("sirocco.dds.transport").hasMessageContaining("mixed");
    }

    @Test
    void shmProblemReportsAMissingOrReadOnlyRoot(@TempDir final Path dir) throws Exception
    {
        assertThat(DomainTransportSelection.shmProblem(dir)).isNull();
        assertThat(DomainTransportSelection.shmProblem(dir.resolve("missing"))).contains("not a directory");
        final Path file = Files.createFile(dir.resolve("f"));
        assertThat(DomainTransportSelection.shmProblem(file)).contains("not a directory");
    }
}
