package io.sirocco.ib.row;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.RdmaUnavailableException;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.multicast.spi.shm.ShmRowTransportProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ServiceLoader discovery and the no-device behaviour of {@code rdma} and {@code auto}. */
final class RowTransportProvidersTest
{
    private static final RdmaAvailability NO_DEVICE =
        new RdmaAvailability(true, List.of(), "an RDMA device: ibv_get_device_list returned 0 devices");

    private static RowTransportContext context(final String group, final String otherHost)
    {
        return new RowTransportContext(group, 1, 0, List.of(
            new RowTransportContext.MemberAddress(10, "here", 1, "127.0.0.1:7000"),
            new RowTransportContext.MemberAddress(11, otherHost, 2, "127.0.0.1:7001")), 128, () -> { });
    }

    @Test
    void bothAreFoundThroughServiceLoader()
    {
        final List<String> names = new ArrayList<>();
        ServiceLoader.load(RowTransportProvider.class).forEach(p -> names.add(p.name()));
        assertThat(names).contains("rdma", "auto");
    }

    @Test
    void explicitRdmaWithoutDeviceFailsNamingWhatIsMissing()
    {
        final RdmaRowTransportProvider rdma = new RdmaRowTransportProvider(() -> NO_DEVICE);
        assertThatThrownBy(() -> rdma.open(context("g1", "here")))
            .isInstanceOf(RdmaUnavailableException.class)
            .hasMessageContaining("transport 'rdma'")
            .hasMessageContaining("an RDMA device")
            .hasMessageContaining("group 'g1'");
    }

    @Test
    void explicitRdmaWithoutLibraryFailsAtStartupBeforeTheMemberAnnouncesItself()
    {
        final RdmaAvailability noLibrary = new RdmaAvailability(false, List.of(),
            "the library libibverbs.so.1 could not be loaded (install libibverbs1 from rdma-core)");
        final RdmaRowTransportProvider rdma = new RdmaRowTransportProvider(() -> noLibrary);
        assertThatThrownBy(() -> rdma.prepare("g0", context("g0", "here").members().get(0)))
            .isInstanceOf(RdmaUnavailableException.class)
            .hasMessageContaining("transport 'rdma'")
            .hasMessageContaining("libibverbs.so.1")
            .hasMessageContaining("group 'g0'");
    }

    @Test
    void explicitRdmaOnThisHostFailsCleanlyWhenThereIsNoDevice()
    {
        final RdmaAvailability probe = RdmaAvailability.probe();
        if (!probe.available())
        {
            assertThatThrownBy(() -> new RdmaRowTransportProvider().open(context("g2", "here")))
                .isInstanceOf(RdmaUnavailableException.class)
                .hasMessageContaining(probe.missing());
        }
    }

    @Test
    void autoWithoutDeviceOnOneHostUsesShmAndLogsOneInfoLine() throws IOException
    {
        final List<String> info = new ArrayList<>();
        final AutoRowTransportProvider auto = new AutoRowTransportProvider(() -> NO_DEVICE, info::add);
        final String group = "ib-auto-" + UUID.randomUUID();

        try (RowTransport first = auto.open(context(group, "here"));
            RowTransport second = auto.open(new RowTransportContext(group, 2, 0, context(group, "here").members(),
                128, () -> { })))
        {
            assertThat(first.sharesRows()).isTrue();
            assertThat(second.sharesRows()).isTrue();
            // the wrapper that counts open tables still hands out shm's bell, so an idle predicate thread sleeps on it
            assertThat(first.idleWait()).isNotNull();
        }
        finally
        {
            final Path dir = ShmRowTransportProvider.groupDirectory(group);
            try (Stream<Path> files = Files.walk(dir))
            {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        assertThat(info).singleElement().asString().contains("RDMA not used", "an RDMA device", "shm/tcp");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void autoAcrossHostsWithoutDeviceUsesTcpAndReleasesItsEndpoint() throws Exception
    {
        final String group = "ib-auto-tcp-" + UUID.randomUUID();
        final int port0 = freePort();
        final int port1 = freePort();
        final List<RowTransportContext.MemberAddress> members = List.of(
            new RowTransportContext.MemberAddress(21, "hostA", 1, "127.0.0.1:" + port0),
            new RowTransportContext.MemberAddress(22, "hostB", 2, "127.0.0.1:" + port1));
        final List<String> info = new CopyOnWriteArrayList<>();
        final AutoRowTransportProvider a = new AutoRowTransportProvider(() -> NO_DEVICE, info::add);
        final AutoRowTransportProvider b = new AutoRowTransportProvider(() -> NO_DEVICE, info::add);
        a.prepare(group, members.get(0));
        b.prepare(group, members.get(1));
        try (RowTransport ta = a.open(new RowTransportContext(group, 1, 0, members, 128, () -> { }));
            RowTransport tb = b.open(new RowTransportContext(group, 1, 1, members, 128, () -> { })))
        {
            assertThat(ta.sharesRows()).isFalse();
            // the wrapper that counts open tables still says tcp signals arrivals (the engine then need not poll)
            assertThat(ta.eventDriven()).isTrue();
            ta.table().set(ValueLayout.JAVA_LONG, 64, 5);
            ta.pushCounters(64, 1);
            ta.flush();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // The engine's passes would drain a frame kept for a peer still connecting (TcpRowTransport's per-peer
            // backlog); here the test runs them: each flush sends what the peer can take now.
            while (tb.table().get(ValueLayout.JAVA_LONG, 64) != 5 && System.nanoTime() < deadline)
            {
                ta.flush();
                Thread.onSpinWait();
            }
            assertThat(tb.table().get(ValueLayout.JAVA_LONG, 64)).isEqualTo(5);
        }
        // each member's last table closed: its tcp endpoint was shut down, so its port can be bound again
        for (final int port : new int[] {port0, port1})
        {
            try (ServerSocket again = new ServerSocket(port))
            {
                assertThat(again.getLocalPort()).isEqualTo(port);
            }
        }
        assertThat(info).hasSize(2).allSatisfy(line -> assertThat(line).contains("RDMA not used", "an RDMA device"));
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket s = new ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }

    @Test
    void endpointsMustBeHostAndPort()
    {
        final RowTransportContext bad = new RowTransportContext("g4", 1, 0, List.of(
            new RowTransportContext.MemberAddress(10, "here", 1, "127.0.0.1:7000"),
            new RowTransportContext.MemberAddress(11, "here", 2, "")), 128, () -> { });
        assertThatThrownBy(() -> RowControlEndpoint.HostPort.of("g4", bad.members().get(1), 1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("member 11 (rank 1)")
            .hasMessageContaining("group 'g4'");
        assertThat(RowControlEndpoint.HostPort.of("g4", bad.members().get(0), 0))
            .isEqualTo(new RowControlEndpoint.HostPort("127.0.0.1", 7000));
    }
}
