package io.sirocco.ib.verbs;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The data-path verbs of one device context. {@code ibv_post_send}, {@code ibv_post_recv},
 * {@code ibv_post_srq_recv} and {@code ibv_poll_cq} are static inline in {@code verbs.h}
 * ({@code qp->context->ops.post_send(qp, wr, bad_wr)} and so on) and have no symbol in the library, so this class
 * reads the provider's function pointers out of {@code struct ibv_context.ops} once, when the context is opened, and
 * binds downcall handles to them.
 *
 * <p>The handles are {@code critical}: the provider functions neither block nor call back into Java, and every
 * argument is off-heap, so the JVM can skip the thread-state transition that dominates a normal downcall. Immutable;
 * any thread may call, with libibverbs' own rule that one QP's send queue is posted by one thread at a time.
 */
public final class ContextOps
{
    private static final AddressLayout PTR = ValueLayout.ADDRESS;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    private final MethodHandle postSend;
    private final MethodHandle postRecv;
    private final MethodHandle postSrqRecv;
    private final MethodHandle pollCq;

    private ContextOps(
        final MethodHandle postSend, final MethodHandle postRecv, final MethodHandle postSrqRecv,
        final MethodHandle pollCq)
    {
        this.postSend = postSend;
        this.postRecv = postRecv;
        this.postSrqRecv = postSrqRecv;
        this.pollCq = pollCq;
    }

    /** Binds the ops table of {@code context} (a {@code struct ibv_context *} sized to its layout). */
    public static ContextOps of(final MemorySegment context)
    {
        final Linker linker = Linker.nativeLinker();
        final Linker.Option critical = Linker.Option.critical(false);
        final FunctionDescriptor post = FunctionDescriptor.of(INT, PTR, PTR, PTR);
        return new ContextOps(
            linker.downcallHandle(pointer(context, "ops.post_send"), post, critical),
            linker.downcallHandle(pointer(context, "ops.post_recv"), post, critical),
            linker.downcallHandle(pointer(context, "ops.post_srq_recv"), post, critical),
            linker.downcallHandle(pointer(context, "ops.poll_cq"), FunctionDescriptor.of(INT, PTR, INT, PTR),
                critical));
    }

    /**
     * {@code ibv_post_send(qp, wr, bad_wr)}.
     *
     * @return 0, or the errno value the provider returned ({@code ENOMEM}: send queue full, {@code EINVAL}).
     */
    public int postSend(final MemorySegment qp, final MemorySegment wr, final MemorySegment badWr)
    {
        try
        {
            return (int)postSend.invokeExact(qp, wr, badWr);
        }
        catch (final Throwable t)
        {
            throw new VerbsException("post_send downcall failed", t);
        }
    }

    /** {@code ibv_post_recv(qp, wr, bad_wr)}; 0 or an errno value. */
    public int postRecv(final MemorySegment qp, final MemorySegment wr, final MemorySegment badWr)
    {
        try
        {
            return (int)postRecv.invokeExact(qp, wr, badWr);
        }
        catch (final Throwable t)
        {
            throw new VerbsException("post_recv downcall failed", t);
        }
    }

    /** {@code ibv_post_srq_recv(srq, wr, bad_wr)}; 0 or an errno value. */
    public int postSrqRecv(final MemorySegment srq, final MemorySegment wr, final MemorySegment badWr)
    {
        try
        {
            return (int)postSrqRecv.invokeExact(srq, wr, badWr);
        }
        catch (final Throwable t)
        {
            throw new VerbsException("post_srq_recv downcall failed", t);
        }
    }

    /**
     * {@code ibv_poll_cq(cq, max, wcs)}.
     *
     * @return the number of completions written to {@code wcs} (0 when empty), negative on error.
     */
    public int pollCq(final MemorySegment cq, final int max, final MemorySegment wcs)
    {
        try
        {
            return (int)pollCq.invokeExact(cq, max, wcs);
        }
        catch (final Throwable t)
        {
            throw new VerbsException("poll_cq downcall failed", t);
        }
    }

    private static MemorySegment pointer(final MemorySegment context, final String field)
    {
        final MemorySegment fn = context.get(PTR, VerbsLayouts.offset(VerbsLayouts.IBV_CONTEXT, field));
        if (MemorySegment.NULL.equals(fn))
        {
            throw new VerbsException("the RDMA provider leaves ibv_context." + field + " unset");
        }
        return fn;
    }
}
