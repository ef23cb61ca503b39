package io.sirocco.ib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.sirocco.ib.verbs.Libibverbs;
import io.sirocco.ib.verbs.VerbsException;

/**
 * Whether RDMA can be used in this process, and if not, exactly what is missing: the library, or a device. Probing
 * loads {@code libibverbs.so.1} and calls {@code ibv_get_device_list}; it never throws and never crashes the caller.
 *
 * @param libraryLoaded whether {@value Libibverbs#LIBRARY_NAME} loaded
 * @param devices       the devices libibverbs lists (empty when none, or when the library is missing)
 * @param missing       what is missing, phrased for a user ("" when RDMA is usable)
 */
public record RdmaAvailability(boolean libraryLoaded, List<Libibverbs.DeviceHandle> devices, String missing)
{
    /** Probes this host. Cheap enough to call once per transport selection. */
    public static RdmaAvailability probe()
    {
        final Libibverbs verbs;
        try
        {
            verbs = Libibverbs.load();
        }
        catch (final VerbsException | LinkageError ex)
        {
            return new RdmaAvailability(false, List.of(), "the library " + Libibverbs.LIBRARY_NAME
                + " could not be loaded (install libibverbs1 from rdma-core): " + ex.getMessage());
        }
        final List<Libibverbs.DeviceHandle> devices;
        try
        {
            devices = verbs.deviceList();
        }
        catch (final VerbsException ex)
        {
            return new RdmaAvailability(true, List.of(), "an RDMA device: " + ex.getMessage());
        }
        if (devices.isEmpty())
        {
            final String why = Files.isDirectory(Path.of("/sys/class/infiniband_verbs"))
                ? "ibv_get_device_list returned 0 devices (no user-space provider for the kernel's devices?)"
                : "ibv_get_device_list returned 0 devices and the kernel exposes no RDMA devices "
                    + "(/sys/class/infiniband_verbs is absent)";
            return new RdmaAvailability(true, List.of(), "an RDMA device: " + why
                + "; attach InfiniBand/RoCE hardware or create Soft-RoCE with "
                + "'rdma link add rxe0 type rxe netdev <interface>'");
        }
        return new RdmaAvailability(true, List.copyOf(devices), "");
    }

    /** True when the library loaded and at least one device is listed. */
    public boolean available()
    {
        return libraryLoaded && !devices.isEmpty();
    }
}
