package io.sirocco.ib.verbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The library loads through FFM and {@code ibv_get_device_list} answers without error. On a host without RDMA
 * hardware (CI) that answer is an empty list; on a host with devices it lists at most the kernel's
 * {@code /sys/class/infiniband} entries (a device without a user-space provider is not listed), so the test holds on
 * both.
 */
final class LibibverbsTest
{
    @Test
    void deviceListAgreesWithTheKernel() throws IOException
    {
        final List<Libibverbs.DeviceHandle> devices = Libibverbs.load().deviceList();

        final Path sysfs = Path.of("/sys/class/infiniband");
        final long kernelDevices;
        if (Files.isDirectory(sysfs))
        {
            try (Stream<Path> entries = Files.list(sysfs))
            {
                kernelDevices = entries.count();
            }
        }
        else
        {
            kernelDevices = 0;
        }
        assertThat((long)devices.size()).isLessThanOrEqualTo(kernelDevices);
        assertThat(devices).allSatisfy(d -> assertThat(d.name()).isNotBlank());
    }

    @Test
    void loadIsIdempotent()
    {
        assertThat(Libibverbs.load()).isSameAs(Libibverbs.load());
    }

    @Test
    void unknownDeviceIsReportedByName()
    {
        final Libibverbs verbs = Libibverbs.load();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> verbs.openDevice("sirocco-no-such-device"))
            .isInstanceOf(VerbsException.class)
            .hasMessageContaining("sirocco-no-such-device");
    }

    @Test
    void statusStringsComeFromTheLibrary()
    {
        assertThat(Libibverbs.load().wcStatusString(Verbs.WC_RETRY_EXC_ERR)).containsIgnoringCase("retry");
    }
}
