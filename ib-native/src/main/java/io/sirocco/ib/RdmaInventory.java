package io.sirocco.ib;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.ib.verbs.Libibverbs;
import io.sirocco.ib.verbs.RdmaDevice;
import io.sirocco.ib.verbs.VerbsException;

/**
 * What {@code sirocco rdma-info} shows: every device libibverbs lists, with its ports (state, link layer, MTU, LID)
 * and GID tables. A device that cannot be opened is listed with the error instead of its ports.
 */
public final class RdmaInventory
{
    private RdmaInventory()
    {
    }

    /** Opens each listed device read-only in effect (queries only) and closes it again. */
    public static List<DeviceInfo> describe(final RdmaAvailability availability)
    {
        final List<DeviceInfo> out = new ArrayList<>();
        if (!availability.available())
        {
            return out;
        }
        final Libibverbs verbs = Libibverbs.load();
        for (final Libibverbs.DeviceHandle handle : availability.devices())
        {
            try (RdmaDevice device = RdmaDevice.open(verbs, handle.name()))
            {
                final List<RdmaDevice.PortInfo> ports = new ArrayList<>();
                final int portCount = device.portCount();
                for (int port = 1; port <= portCount; port++)
                {
                    ports.add(device.queryPort(port));
                }
                out.add(new DeviceInfo(handle.name(), handle.guid(), device.firmwareVersion(), ports, ""));
            }
            catch (final VerbsException ex)
            {
                out.add(new DeviceInfo(handle.name(), handle.guid(), "", List.of(), ex.getMessage()));
            }
        }
        return out;
    }

    /**
     * One device.
     *
     * @param error why it could not be queried, or ""
     */
    public record DeviceInfo(String name, long guid, String firmware, List<RdmaDevice.PortInfo> ports, String error)
    {
    }
}
