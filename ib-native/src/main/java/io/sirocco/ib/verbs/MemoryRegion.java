package io.sirocco.ib.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An off-heap segment registered with the NIC. The segment is allocated here, 4096-aligned (page-aligned, so the
 * registration pins whole pages and never shares one with unrelated data), from a shared arena the region owns: it
 * never moves, and it is freed only after {@code ibv_dereg_mr}. One owner registers and closes it; the segment
 * itself is shared with whoever the owner hands it to.
 */
public final class MemoryRegion implements AutoCloseable
{
    /** Registration alignment: one page. */
    public static final long ALIGNMENT = 4096;

    private final Libibverbs verbs;
    private final Arena arena;
    private final MemorySegment segment;
    private final MemorySegment mr;
    private final int lkey;
    private final int rkey;
    private boolean closed;

    private MemoryRegion(
        final Libibverbs verbs, final Arena arena, final MemorySegment segment, final MemorySegment mr)
    {
        this.verbs = verbs;
        this.arena = arena;
        this.segment = segment;
        this.mr = mr;
        this.lkey = mr.get(ValueLayout.JAVA_INT, VerbsLayouts.offset(VerbsLayouts.IBV_MR, "lkey"));
        this.rkey = mr.get(ValueLayout.JAVA_INT, VerbsLayouts.offset(VerbsLayouts.IBV_MR, "rkey"));
    }

    /**
     * Allocates {@code lengthBytes} (rounded up to a page) 4096-aligned and zeroed, and registers it on
     * {@code device}'s protection domain with {@code access} ({@link Verbs#ACCESS_LOCAL_WRITE} etc.).
     */
    public static MemoryRegion allocate(final RdmaDevice device, final long lengthBytes, final int access)
    {
        final long length = (lengthBytes + ALIGNMENT - 1) & -ALIGNMENT;
        final Arena arena = Arena.ofShared();
        try
        {
            final MemorySegment segment = arena.allocate(length, ALIGNMENT);
            final MemorySegment mr = device.verbs().regMr(device.protectionDomain(), segment, access);
            return new MemoryRegion(device.verbs(), arena, segment, mr);
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
    }

    /** The registered memory. */
    public MemorySegment segment()
    {
        return segment;
    }

    /** The address peers write to ({@code remote_addr} base). */
    public long address()
    {
        return segment.address();
    }

    /** Local key, for SGEs. */
    public int lkey()
    {
        return lkey;
    }

    /** Remote key, handed to peers so they may write here. */
    public int rkey()
    {
        return rkey;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                verbs.deregMr(mr);
            }
            finally
            {
                arena.close();
            }
        }
    }
}
