package io.sirocco.ib.verbs;

import java.nio.ByteOrder;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * Downcall handles for the exported functions of libibverbs ({@code libibverbs.so.1}, Debian {@code libibverbs1}).
 * The data-path verbs ({@code ibv_post_send}, {@code ibv_post_recv}, {@code ibv_post_srq_recv},
 * {@code ibv_poll_cq}) are static inline in {@code verbs.h} and have no symbol: {@link ContextOps} calls them through
 * the function pointers of the context's ops table instead.
 *
 * <p>Loading is explicit: {@link #load()} throws {@link VerbsException} naming the library when it is absent, so a
 * caller can tell "no library" from "no device". The instance is immutable and thread-safe.
 */
public final class Libibverbs
{
    /** The soname we bind; the unversioned {@code libibverbs.so} only exists with the -dev package. */
    public static final String LIBRARY_NAME = "libibverbs.so.1";

    private static final Linker LINKER = Linker.nativeLinker();
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG;
    private static final AddressLayout PTR = ValueLayout.ADDRESS;
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /** {@code ENOSYS}: libibverbs' answer when the kernel has no RDMA support. */
    private static final int ENOSYS = 38;

    private static volatile Libibverbs instance;

    private final MethodHandle getDeviceList;
    private final MethodHandle freeDeviceList;
    private final MethodHandle getDeviceName;
    private final MethodHandle getDeviceGuid;
    private final MethodHandle openDevice;
    private final MethodHandle closeDevice;
    private final MethodHandle queryDevice;
    private final MethodHandle queryPort;
    private final MethodHandle queryGid;
    private final MethodHandle allocPd;
    private final MethodHandle deallocPd;
    private final MethodHandle regMr;
    private final MethodHandle deregMr;
    private final MethodHandle createCq;
    private final MethodHandle destroyCq;
    private final MethodHandle createSrq;
    private final MethodHandle destroySrq;
    private final MethodHandle createQp;
    private final MethodHandle modifyQp;
    private final MethodHandle destroyQp;
    private final MethodHandle wcStatusStr;

    private Libibverbs(final SymbolLookup lookup)
    {
        final Linker.Option errno = Linker.Option.captureCallState("errno");
        getDeviceList = bind(lookup, "ibv_get_device_list", FunctionDescriptor.of(PTR, PTR), errno);
        freeDeviceList = bind(lookup, "ibv_free_device_list", FunctionDescriptor.ofVoid(PTR));
        getDeviceName = bind(lookup, "ibv_get_device_name", FunctionDescriptor.of(PTR, PTR));
        getDeviceGuid = bind(lookup, "ibv_get_device_guid", FunctionDescriptor.of(ValueLayout.JAVA_LONG, PTR));
        openDevice = bind(lookup, "ibv_open_device", FunctionDescriptor.of(PTR, PTR), errno);
        closeDevice = bind(lookup, "ibv_close_device", FunctionDescriptor.of(INT, PTR));
        queryDevice = bind(lookup, "ibv_query_device", FunctionDescriptor.of(INT, PTR, PTR));
        queryPort = bind(lookup, "ibv_query_port", FunctionDescriptor.of(INT, PTR, U8, PTR));
        queryGid = bind(lookup, "ibv_query_gid", FunctionDescriptor.of(INT, PTR, U8, INT, PTR));
        allocPd = bind(lookup, "ibv_alloc_pd", FunctionDescriptor.of(PTR, PTR), errno);
        deallocPd = bind(lookup, "ibv_dealloc_pd", FunctionDescriptor.of(INT, PTR));
        regMr = bind(lookup, "ibv_reg_mr", FunctionDescriptor.of(PTR, PTR, PTR, SIZE_T, INT), errno);
        deregMr = bind(lookup, "ibv_dereg_mr", FunctionDescriptor.of(INT, PTR));
        createCq = bind(lookup, "ibv_create_cq", FunctionDescriptor.of(PTR, PTR, INT, PTR, PTR, INT), errno);
        destroyCq = bind(lookup, "ibv_destroy_cq", FunctionDescriptor.of(INT, PTR));
        createSrq = bind(lookup, "ibv_create_srq", FunctionDescriptor.of(PTR, PTR, PTR), errno);
        destroySrq = bind(lookup, "ibv_destroy_srq", FunctionDescriptor.of(INT, PTR));
        createQp = bind(lookup, "ibv_create_qp", FunctionDescriptor.of(PTR, PTR, PTR), errno);
        modifyQp = bind(lookup, "ibv_modify_qp", FunctionDescriptor.of(INT, PTR, PTR, INT));
        destroyQp = bind(lookup, "ibv_destroy_qp", FunctionDescriptor.of(INT, PTR));
        wcStatusStr = bind(lookup, "ibv_wc_status_str", FunctionDescriptor.of(PTR, INT));
    }

    /**
     * The process-wide binding, loading {@value #LIBRARY_NAME} on first use.
     *
     * @throws VerbsException if the library cannot be loaded or lacks a symbol; the message names the library and
     *                        the Debian package that provides it.
     */
    public static Libibverbs load()
    {
        Libibverbs loaded = instance;
        if (null == loaded)
        {
            synchronized (Libibverbs.class)
            {
                loaded = instance;
                if (null == loaded)
                {
                    final SymbolLookup lookup;
                    try
                    {
                        lookup = SymbolLookup.libraryLookup(LIBRARY_NAME, Arena.global());
                    }
                    catch (final IllegalArgumentException ex)
                    {
                        throw new VerbsException("cannot load " + LIBRARY_NAME + " (install the libibverbs1 package, "
                            + "part of rdma-core): " + ex.getMessage(), ex);
                    }
                    loaded = new Libibverbs(lookup);
                    instance = loaded;
                }
            }
        }
        return loaded;
    }

    /**
     * Calls {@code ibv_get_device_list} and copies the result out, freeing the native list before returning.
     *
     * <p>libibverbs returns NULL with {@code ENOSYS} when the kernel has no RDMA support at all (no
     * {@code /sys/class/infiniband_verbs}); that is "no device", not a failure, and yields an empty list.
     *
     * @return the devices' names and GUIDs; empty (not an error) when the host has no RDMA device.
     * @throws VerbsException if the call fails for another reason.
     */
    public List<DeviceHandle> deviceList()
    {
        return withDeviceList((entries, n) ->
        {
            final List<DeviceHandle> devices = new ArrayList<>(n);
            for (int i = 0; i < n; i++)
            {
                final MemorySegment device = entries.getAtIndex(PTR, i);
                final long guid = (long)getDeviceGuid.invokeExact(device);
                devices.add(new DeviceHandle(i, deviceName(device), fromBigEndian(guid)));
            }
            return devices;
        });
    }

    /**
     * Opens the device named {@code name} ({@code ibv_get_device_list}, match, {@code ibv_open_device}, free list).
     *
     * @return the {@code struct ibv_context *}, sized to {@link VerbsLayouts#IBV_CONTEXT}.
     */
    public MemorySegment openDevice(final String name)
    {
        return withDeviceList((entries, n) ->
        {
            for (int i = 0; i < n; i++)
            {
                final MemorySegment device = entries.getAtIndex(PTR, i);
                if (name.equals(deviceName(device)))
                {
                    try (Arena arena = Arena.ofConfined())
                    {
                        final MemorySegment state = arena.allocate(CALL_STATE);
                        final MemorySegment context = (MemorySegment)openDevice.invokeExact(state, device);
                        return checkPointer(context, "ibv_open_device(" + name + ")", state)
                            .reinterpret(VerbsLayouts.IBV_CONTEXT.byteSize());
                    }
                }
            }
            throw new VerbsException("no RDMA device named '" + name + "' (" + n + " device(s) present)");
        });
    }

    private <T> T withDeviceList(final DeviceListVisitor<T> visitor)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment count = arena.allocate(INT);
            final MemorySegment state = arena.allocate(CALL_STATE);
            final MemorySegment list = (MemorySegment)getDeviceList.invokeExact(state, count);
            if (MemorySegment.NULL.equals(list))
            {
                final int errno = errno(state);
                if (ENOSYS != errno)
                {
                    throw new VerbsException("ibv_get_device_list failed: errno " + errno);
                }
                return visitor.visit(MemorySegment.NULL, 0);
            }
            try
            {
                final int n = count.get(INT, 0);
                return visitor.visit(list.reinterpret(PTR.byteSize() * (n + 1L)), n);
            }
            finally
            {
                freeDeviceList.invokeExact(list);
            }
        }
        catch (final VerbsException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new VerbsException("ibv_get_device_list failed", t);
        }
    }

    private String deviceName(final MemorySegment device) throws Throwable
    {
        return cString((MemorySegment)getDeviceName.invokeExact(device));
    }

    @FunctionalInterface
    private interface DeviceListVisitor<T>
    {
        T visit(MemorySegment entries, int count) throws Throwable;
    }

    /** {@code ibv_close_device}. */
    public void closeDevice(final MemorySegment context)
    {
        checkZero(invokeInt(closeDevice, context), "ibv_close_device");
    }

    /** {@code ibv_query_device} into {@code attr} (a {@link VerbsLayouts#IBV_DEVICE_ATTR} segment). */
    public void queryDevice(final MemorySegment context, final MemorySegment attr)
    {
        try
        {
            checkZero((int)queryDevice.invokeExact(context, attr), "ibv_query_device");
        }
        catch (final VerbsException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new VerbsException("ibv_query_device failed", t);
        }
    }

    /** {@code ibv_query_port} into {@code attr} (a zeroed {@link VerbsLayouts#IBV_PORT_ATTR} segment). */
    public void queryPort(final MemorySegment context, final int portNum, final MemorySegment attr)
    {
        attr.fill((byte)0);
        try
        {
            checkZero((int)queryPort.invokeExact(context, (byte)portNum, attr), "ibv_query_port(" + portNum + ")");
        }
        catch (final VerbsException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new VerbsException("ibv_query_port failed", t);
        }
    }

    /** {@code ibv_query_gid} into {@code gid} (a 16-byte {@link VerbsLayouts#IBV_GID} segment). */
    public void queryGid(final MemorySegment context, final int portNum, final int index, final MemorySegment gid)
    {
        try
        {
            checkZero((int)queryGid.invokeExact(context, (byte)portNum, index, gid),
                "ibv_query_gid(port " + portNum + ", index " + index + ")");
        }
        catch (final VerbsException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new VerbsException("ibv_query_gid failed", t);
        }
    }

    /** {@code ibv_alloc_pd}. */
    public MemorySegment allocPd(final MemorySegment context)
    {
        return pointerCall(allocPd, "ibv_alloc_pd", VerbsLayouts.IBV_PD.byteSize(), context);
    }

    /** {@code ibv_dealloc_pd}. */
    public void deallocPd(final MemorySegment pd)
    {
        checkZero(invokeInt(deallocPd, pd), "ibv_dealloc_pd");
    }

    /**
     * {@code ibv_reg_mr} of the whole of {@code region}, which must be off-heap (native) memory.
     *
     * @param access {@code IBV_ACCESS_*} flags, see {@link Verbs}.
     */
    public MemorySegment regMr(final MemorySegment pd, final MemorySegment region, final int access)
    {
        if (!region.isNative())
        {
            throw new IllegalArgumentException("only off-heap segments can be registered, got " + region);
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = arena.allocate(CALL_STATE);
            final MemorySegment mr = (MemorySegment)regMr.invokeExact(state, pd, region, region.byteSize(), access);
            return checkPointer(mr, "ibv_reg_mr(" + region.byteSize() + " bytes)", state)
                .reinterpret(VerbsLayouts.IBV_MR.byteSize());
        }
        catch (final VerbsException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new VerbsException("ibv_reg_mr failed", t);
        }
    }

    /** {@code ibv_dereg_mr}. */
    public void deregMr(final MemorySegment mr)
    {
        checkZero(invokeInt(deregMr, mr), "ibv_dereg_mr");
    }

    /** {@code ibv_create_cq} with no completion channel (Sirocco polls). */
    public MemorySegment createCq(final MemorySegment context, final int entries)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = arena.allocate(CALL_STATE);
            final MemorySegment cq = (MemorySegment)createCq.invokeExact(
                state, context, entries, MemorySegment.NULL, MemorySegment.NULL, 0);
            return checkPointer(cq, "ibv_create_cq(" + entries + ")", state)
                .reinterpret(VerbsLayouts.IBV_CQ.byteSize());
        }
        catch (final VerbsException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new VerbsException("ibv_create_cq failed", t);
        }
    }

    /** {@code ibv_destroy_cq}. */
    public void destroyCq(final MemorySegment cq)
    {
        checkZero(invokeInt(destroyCq, cq), "ibv_destroy_cq");
    }

    /** {@code ibv_create_srq} from a filled {@link VerbsLayouts#IBV_SRQ_INIT_ATTR}. */
    public MemorySegment createSrq(final MemorySegment pd, final MemorySegment initAttr)
    {
        return pointerCall(createSrq, "ibv_create_srq", VerbsLayouts.IBV_SRQ.byteSize(), pd, initAttr);
    }

    /** {@code ibv_destroy_srq}. */
    public void destroySrq(final MemorySegment srq)
    {
        checkZero(invokeInt(destroySrq, srq), "ibv_destroy_srq");
    }

    /** {@code ibv_create_qp} from a filled {@link VerbsLayouts#IBV_QP_INIT_ATTR}. */
    public MemorySegment createQp(final MemorySegment pd, final MemorySegment initAttr)
    {
        return pointerCall(createQp, "ibv_create_qp", VerbsLayouts.IBV_QP.byteSize(), pd, initAttr);
    }

    /** {@code ibv_modify_qp}; the verb returns an errno value, which is reported. */
    public void modifyQp(final MemorySegment qp, final MemorySegment attr, final int mask, final String what)
    {
        try
        {
            checkZero((int)modifyQp.invokeExact(qp, attr, mask), "ibv_modify_qp(" + what + ")");
        }
        catch (final VerbsException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new VerbsException("ibv_modify_qp failed", t);
        }
    }

    /** {@code ibv_destroy_qp}. */
    public void destroyQp(final MemorySegment qp)
    {
        checkZero(invokeInt(destroyQp, qp), "ibv_destroy_qp");
    }

    /** {@code ibv_wc_status_str}: the library's text for a completion status. */
    public String wcStatusString(final int status)
    {
        try
        {
            return cString((MemorySegment)wcStatusStr.invokeExact(status));
        }
        catch (final Throwable t)
        {
            return "status " + status;
        }
    }

    /** A {@code __be64} read as a native long, in host order. */
    static long fromBigEndian(final long value)
    {
        return ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? value : Long.reverseBytes(value);
    }

    /** Reads a NUL-terminated C string. */
    static String cString(final MemorySegment pointer)
    {
        if (MemorySegment.NULL.equals(pointer))
        {
            return "";
        }
        return pointer.reinterpret(Integer.MAX_VALUE).getString(0);
    }

    private static MethodHandle bind(
        final SymbolLookup lookup, final String symbol, final FunctionDescriptor descriptor,
        final Linker.Option... options)
    {
        final MemorySegment address = lookup.find(symbol).orElseThrow(
            () -> new VerbsException(LIBRARY_NAME + " has no symbol " + symbol + " (rdma-core too old?)"));
        return LINKER.downcallHandle(address, descriptor, options);
    }

    private MemorySegment pointerCall(
        final MethodHandle handle, final String what, final long size, final MemorySegment... args)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = arena.allocate(CALL_STATE);
            final MemorySegment result = switch (args.length)
            {
                case 1 -> (MemorySegment)handle.invokeExact(state, args[0]);
                case 2 -> (MemorySegment)handle.invokeExact(state, args[0], args[1]);
                default -> throw new IllegalArgumentException(what + ": " + args.length + " arguments");
            };
            return checkPointer(result, what, state).reinterpret(size);
        }
        catch (final VerbsException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new VerbsException(what + " failed", t);
        }
    }

    private static int invokeInt(final MethodHandle handle, final MemorySegment arg)
    {
        try
        {
            return (int)handle.invokeExact(arg);
        }
        catch (final Throwable t)
        {
            throw new VerbsException("downcall failed: " + handle, t);
        }
    }

    private static MemorySegment checkPointer(final MemorySegment result, final String what, final MemorySegment state)
    {
        if (MemorySegment.NULL.equals(result))
        {
            throw new VerbsException(what + " returned NULL: errno " + errno(state));
        }
        return result;
    }

    private static void checkZero(final int rc, final String what)
    {
        if (0 != rc)
        {
            throw new VerbsException(what + " failed: returned " + rc);
        }
    }

    private static int errno(final MemorySegment state)
    {
        return (int)ERRNO.get(state, 0L);
    }

    /** One entry of {@code ibv_get_device_list}: its index, kernel name (e.g. {@code mlx5_0}, {@code rxe0}), GUID. */
    public record DeviceHandle(int index, String name, long guid)
    {
    }
}
