package io.sirocco.multicast.model;

import java.lang.foreign.MemorySegment;

/**
 * A claimed slot, reusable across claims (no allocation per message), in the style of Aeron's {@code BufferClaim}.
 * Between a successful claim and {@link #commit()} (or {@link #abort()}) the claiming thread holds the subgroup's
 * sender lock: build the message quickly, in place, then commit (with the claimed or a shorter final length) or
 * abort. Not thread-safe; one per sending thread.
 */
public final class SlotClaim
{
    /** The ring that granted the current claim, or null between claims. */
    private ClaimedSlots engine;
    private long index;
    private MemorySegment buffer;
    private int length;

    /** Called by the sender ring when a claim succeeds. */
    public void wrap(final ClaimedSlots engine, final long index, final MemorySegment buffer, final int length)
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

    /**
     * Publishes the message in place with its final length: a writer that serialized straight into the slot learns
     * the size only afterwards, so it claims an upper bound and commits what it wrote. The slot's length is written
     * first, then the commit's release stores (the guard on shared rows, else the send trigger's) cover it. On a bad
     * length the claim is aborted (its place in the order becomes a skip record) before the exception.
     *
     * @param length bytes written at the start of {@link #buffer()}, {@code 0 <= length <= }{@link #length()}.
     */
    public void commit(final int length)
    {
        final ClaimedSlots e = engine;
        if (e == null)
        {
            throw new IllegalStateException("commit without a successful claim");
        }
        if (length < 0 || length > this.length)
        {
            abort();
            throw new IllegalArgumentException("commit(" + length + ") of a claim of " + this.length +
                " bytes: the claim was aborted");
        }
        engine = null;
        e.commit(index, length);
    }

    /** Publishes the message with the claimed length: the predicate thread pushes it with the next batch. */
    public void commit()
    {
        final ClaimedSlots e = engine;
        if (e == null)
        {
            throw new IllegalStateException("commit without a successful claim");
        }
        engine = null;
        e.commit(index);
    }

    /**
     * Gives the slot back: it becomes a skip record (a null run of one) that keeps its place in the order and is
     * delivered to nobody, so nothing waits on it and the bytes written so far are never read.
     */
    public void abort()
    {
        final ClaimedSlots e = engine;
        if (e == null)
        {
            throw new IllegalStateException("abort without a successful claim");
        }
        engine = null;
        e.abort(index);
    }
}
