package io.sirocco.ib;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.sirocco.ib.verbs.Libibverbs;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class RdmaSelectionTest
{
    private static final RdmaAvailability NO_LIBRARY =
        new RdmaAvailability(false, List.of(), "the library libibverbs.so.1 could not be loaded");
    private static final RdmaAvailability NO_DEVICE =
        new RdmaAvailability(true, List.of(), "an RDMA device: ibv_get_device_list returned 0 devices");
    private static final RdmaAvailability ONE_DEVICE =
        new RdmaAvailability(true, List.of(new Libibverbs.DeviceHandle(0, "rxe0", 1L)), "");

    @Test
    void autoWithoutDeviceFallsBackWithOneInfoLine()
    {
        final List<String> info = new ArrayList<>();
        assertThat(RdmaSelection.useRdma("auto", "row transport", () -> NO_DEVICE, info::add)).isFalse();
        assertThat(info).singleElement().asString()
            .contains("RDMA not used", "an RDMA device", "shm/tcp");
    }

    @Test
    void autoWithoutLibraryNamesTheLibrary()
    {
        final List<String> info = new ArrayList<>();
        assertThat(RdmaSelection.useRdma("AUTO", "row transport", () -> NO_LIBRARY, info::add)).isFalse();
        assertThat(info).singleElement().asString().contains("libibverbs.so.1");
    }

    @Test
    void explicitRdmaFailsNamingWhatIsMissing()
    {
        assertThatThrownBy(() -> RdmaSelection.useRdma("rdma", "messaging transport", () -> NO_LIBRARY, s -> { }))
            .isInstanceOf(RdmaUnavailableException.class)
            .hasMessageContaining("libibverbs.so.1")
            .hasMessageContaining("messaging transport");
        assertThatThrownBy(() -> RdmaSelection.useRdma("rdma", "row transport", () -> NO_DEVICE, s -> { }))
            .isInstanceOf(RdmaUnavailableException.class)
            .hasMessageContaining("an RDMA device");
    }

    @Test
    void availableRdmaIsUsedSilently()
    {
        final List<String> info = new ArrayList<>();
        assertThat(RdmaSelection.useRdma("auto", "row transport", () -> ONE_DEVICE, info::add)).isTrue();
        assertThat(RdmaSelection.useRdma("rdma", "row transport", () -> ONE_DEVICE, info::add)).isTrue();
        assertThat(info).isEmpty();
    }

    @Test
    void otherChoicesNeverProbe()
    {
        final AtomicInteger probes = new AtomicInteger();
        assertThat(RdmaSelection.useRdma("tcp", "row transport", () ->
        {
            probes.incrementAndGet();
            return ONE_DEVICE;
        }, s -> { })).isFalse();
        assertThat(probes).hasValue(0);
    }

    @Test
    void realProbeOnThisHostIsConsistent()
    {
        final RdmaAvailability probe = RdmaAvailability.probe();
        if (probe.available())
        {
            assertThat(probe.devices()).isNotEmpty();
            assertThat(probe.missing()).isEmpty();
        }
        else
        {
            assertThat(probe.missing()).isNotBlank();
            assertThatThrownBy(() -> RdmaSelection.useRdma("rdma", "row transport", () -> probe, s -> { }))
                .isInstanceOf(RdmaUnavailableException.class)
                .hasMessageContaining(probe.missing());
        }
    }
}
