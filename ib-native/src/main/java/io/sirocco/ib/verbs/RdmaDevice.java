package io.sirocco.ib.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One opened RDMA device: its {@code ibv_context}, the ops table bound from it, and one protection domain that
 * everything Sirocco creates on the device shares. Opened and closed by one owner (the transport that needs it);
 * the query methods may be called from any thread.
 */
public final class RdmaDevice implements AutoCloseable
{
    private final Libibverbs verbs;
    private final String name;
    private final MemorySegment context;
    private final ContextOps ops;
    private final MemorySegment pd;
    private boolean closed;

    private RdmaDevice(final Libibverbs verbs, final String name, final MemorySegment context)
    {
        this.verbs = verbs;
        this.name = name;
        this.context = context;
        this.ops = ContextOps.of(context);
        this.pd = verbs.allocPd(context);
    }

    /** Opens {@code name} (as {@code ibv_devices} lists it) and allocates its protection domain. */
    public static RdmaDevice open(final Libibverbs verbs, final String name)
    {
        final MemorySegment context = verbs.openDevice(name);
        try
        {
            return new RdmaDevice(verbs, name, context);
        }
        catch (final RuntimeException ex)
        {
            verbs.closeDevice(context);
            throw ex;
        }
    }

    /** The kernel device name, e.g. {@code mlx5_0} or {@code rxe0}. */
    public String name()
    {
        return name;
    }

    /** The bound libibverbs. */
    public Libibverbs verbs()
    {
        return verbs;
    }

    /** The data-path verbs of this context. */
    public ContextOps ops()
    {
        return ops;
    }

    /** {@code struct ibv_context *}. */
    public MemorySegment context()
    {
        return context;
    }

    /** {@code struct ibv_pd *} shared by every MR, QP and SRQ of this device. */
    public MemorySegment protectionDomain()
    {
        return pd;
    }

    /** {@code phys_port_cnt} from {@code ibv_query_device}. */
    public int portCount()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(VerbsLayouts.IBV_DEVICE_ATTR);
            verbs.queryDevice(context, attr);
            return Byte.toUnsignedInt(attr.get(ValueLayout.JAVA_BYTE,
                VerbsLayouts.offset(VerbsLayouts.IBV_DEVICE_ATTR, "phys_port_cnt")));
        }
    }

    /** Firmware version string from {@code ibv_query_device}. */
    public String firmwareVersion()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(VerbsLayouts.IBV_DEVICE_ATTR);
            verbs.queryDevice(context, attr);
            return attr.getString(VerbsLayouts.offset(VerbsLayouts.IBV_DEVICE_ATTR, "fw_ver"));
        }
    }

    /** {@code ibv_query_port} plus every non-zero GID of the port's table. */
    public PortInfo queryPort(final int portNum)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(VerbsLayouts.IBV_PORT_ATTR);
            verbs.queryPort(context, portNum, attr);
            final int gidTableLength = attr.get(ValueLayout.JAVA_INT, portOffset("gid_tbl_len"));
            final MemorySegment gid = arena.allocate(VerbsLayouts.IBV_GID);
            final List<String> gids = new ArrayList<>();
            for (int index = 0; index < gidTableLength; index++)
            {
                gid.fill((byte)0);
                try
                {
                    verbs.queryGid(context, portNum, index, gid);
                }
                catch (final VerbsException ex)
                {
                    continue; // RoCE tables have holes; an unreadable entry is simply not listed
                }
                final byte[] raw = gid.toArray(ValueLayout.JAVA_BYTE);
                if (!allZero(raw))
                {
                    gids.add(index + " " + formatGid(raw));
                }
            }
            return new PortInfo(
                portNum,
                attr.get(ValueLayout.JAVA_INT, portOffset("state")),
                Byte.toUnsignedInt(attr.get(ValueLayout.JAVA_BYTE, portOffset("link_layer"))),
                attr.get(ValueLayout.JAVA_INT, portOffset("active_mtu")),
                attr.get(ValueLayout.JAVA_INT, portOffset("max_mtu")),
                Short.toUnsignedInt(attr.get(ValueLayout.JAVA_SHORT, portOffset("lid"))),
                gids);
        }
    }

    /** The 16 raw bytes of GID {@code index} of {@code portNum}. */
    public byte[] gid(final int portNum, final int index)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment gid = arena.allocate(VerbsLayouts.IBV_GID);
            verbs.queryGid(context, portNum, index, gid);
            return gid.toArray(ValueLayout.JAVA_BYTE);
        }
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                verbs.deallocPd(pd);
            }
            finally
            {
                verbs.closeDevice(context);
            }
        }
    }

    /** A GID in the usual {@code fe80:0000:...} form (eight groups of four hex digits). */
    public static String formatGid(final byte[] raw)
    {
        final String hex = HexFormat.of().formatHex(raw);
        final StringBuilder out = new StringBuilder(39);
        for (int i = 0; i < 32; i += 4)
        {
            if (i > 0)
            {
                out.append(':');
            }
            out.append(hex, i, i + 4);
        }
        return out.toString();
    }

    private static boolean allZero(final byte[] raw)
    {
        for (final byte b : raw)
        {
            if (0 != b)
            {
                return false;
            }
        }
        return true;
    }

    private static long portOffset(final String field)
    {
        return VerbsLayouts.offset(VerbsLayouts.IBV_PORT_ATTR, field);
    }

    /**
     * What {@code ibv_query_port} says about one port, and its GID table as {@code "index gid"} strings.
     *
     * @param state     {@code enum ibv_port_state}
     * @param linkLayer {@code IBV_LINK_LAYER_*}
     * @param activeMtu {@code enum ibv_mtu}
     * @param maxMtu    {@code enum ibv_mtu}
     */
    public record PortInfo(int portNum, int state, int linkLayer, int activeMtu, int maxMtu, int lid,
        List<String> gids)
    {
    }
}
