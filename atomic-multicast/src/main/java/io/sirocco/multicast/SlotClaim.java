package io.sirocco.multicast;

import io.sirocco.multicast.smc.SubgroupEngine;

import java.lang.foreign.MemorySegment;

/**
 * A claimed slot, reusable across claims (no allocation per message), in the style of Aeron's {@code BufferClaim}.
 * Between a successful claim and {@link #commit()} (or {@link #abort()}) the claiming thread holds the subgroup's
 * sender lock: build the message quickly, in place, then commit. Not thread-safe; one per sending thread.
 */
public final class SlotClaim
{
    private SubgroupEngine engine;
    private long index;
    private MemorySegment buffer;
    private int length;

    /** Called by the engine when a claim succeeds. */
    public void wrap(final SubgroupEngine engine, final long index, final MemorySegment buffer, final int length)
    {
        this.engine = engine;
        this.index = index;
        this.buffer = buffer;
        this.length = length;
    }

    /**
     * @return where to write the message: the slot's payload area (its first {@link #length()} bytes are sent).
     */
    public MemorySegment buffer()
    {
        return buffer;
    }

    public int length()
    {
        return length;
    }

    /** @return the message index this slot got in the current view. */
    public long index()
    {
        return index;
    }

    /** Publishes the message: the predicate thread pushes it with the next batch. */
    public void commit()
    {
        final SubgroupEngine e = engine;
        if (e == null)
        {
            throw new IllegalStateException("commit without a successful claim");
        }
        engine = null;
        e.commit(index);
    }

    /** Gives the slot back; it still takes its place in the order, as a null message nobody is handed. */
    public void abort()
    {
        final SubgroupEngine e = engine;
        if (e == null)
        {
            throw new IllegalStateException("abort without a successful claim");
        }
        engine = null;
        e.abort(index);
    }
}
