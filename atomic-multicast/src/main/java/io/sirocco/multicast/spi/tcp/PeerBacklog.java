package io.sirocco.multicast.spi.tcp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.slf4j.Logger;

/**
 * The row frames one peer could not take when they were pushed (its flow-control window or ring was full, or its
 * connection was not open yet), kept in push order until it can. Consecutive frames are merged into one (same view,
 * same sender: the operations of the later frame are appended to the earlier one) up to {@link #MERGE_BYTES}, so a
 * backlog of many small heartbeat frames drains in a few writes; the operations stay in push order, so the peer still
 * applies every byte range before the counter that covers it.
 *
 * <p>Layout of {@code buffer}: from {@code head} to {@code tail}, frames, each an {@code int} length then that many
 * bytes of frame (header and operations, as {@link RowFrame} carries it). The buffer grows by doubling and never
 * shrinks (no allocation per push once it is large enough); sent frames are dropped from the front and the live bytes
 * moved back to the start when the front passes half the buffer.
 *
 * <p><b>Threads.</b> Confined to the thread that pushes for the transport (the engine's pass-lock holder, see
 * {@link TcpRowTransport}); not thread-safe.
 */
final class PeerBacklog
{
    /** A frame in the backlog grows by merging until it has this many bytes (a frame pushed larger stays whole). */
    static final int MERGE_BYTES = 64 * 1024;
    private static final int HEADER = 12;

    private MemorySegment buffer = Arena.ofAuto().allocate(16 * 1024, 8);
    private long head;
    private long tail;
    /** Start of the last frame's length word, or -1 when empty: where the next frame may be merged. */
    private long last = -1;

    boolean isEmpty()
    {
        return head == tail;
    }

    /** Bytes kept (frames and their length words). */
    long bytes()
    {
        return tail - head;
    }

    /** Keeps {@code length} bytes of {@code frame} (a 12-byte header, then operations) after what is kept. */
    void append(final MemorySegment frame, final int length)
    {
        if (last >= 0)
        {
            final int lastLength = buffer.get(ValueLayout.JAVA_INT_UNALIGNED, last);
            final int ops = length - HEADER;
            if (lastLength + ops <= MERGE_BYTES)
            {
                ensure(ops);
                MemorySegment.copy(frame, HEADER, buffer, tail, ops);
                tail += ops;
                buffer.set(ValueLayout.JAVA_INT_UNALIGNED, last, lastLength + ops);
                return;
            }
        }
        ensure(4L + length);
        buffer.set(ValueLayout.JAVA_INT_UNALIGNED, tail, length);
        MemorySegment.copy(frame, 0, buffer, tail + 4, length);
        last = tail;
        tail += 4L + length;
    }

    /** The buffer holding the first frame (valid until the next call that changes the backlog). */
    MemorySegment buffer()
    {
        return buffer;
    }

    /** Offset in {@link #buffer()} of the first frame's bytes; the backlog must not be empty. */
    long firstOffset()
    {
        return head + 4;
    }

    /** Length of the first frame; the backlog must not be empty. */
    int firstLength()
    {
        return buffer.get(ValueLayout.JAVA_INT_UNALIGNED, head);
    }

    /** Drops the first frame (it was sent). */
    void removeFirst()
    {
        if (head == last)
        {
            last = -1;
        }
        head += 4L + firstLength();
        if (head == tail)
        {
            head = 0;
            tail = 0;
            last = -1;
        }
    }

    /** Drops everything (the peer is frozen). */
    void clear()
    {
        head = 0;
        tail = 0;
        last = -1;
    }

    private void ensure(final long extra)
    {
        if (tail + extra <= buffer.byteSize())
        {
            return;
        }
        final long live = tail - head;
        if (head > 0 && head >= buffer.byteSize() / 2 && live + extra <= buffer.byteSize())
        {
            // Move the live frames back to the start (the copy tolerates the overlap).
            MemorySegment.copy(buffer, head, buffer, 0, live);
        }
        else
        {
            final MemorySegment bigger = Arena.ofAuto().allocate(Math.max(buffer.byteSize() * 2, live + extra), 8);
            MemorySegment.copy(buffer, head, bigger, 0, live);
            buffer = bigger;
        }
        if (last >= 0)
        {
            last -= head;
        }
        tail = live;
        head = 0;
    }

    /** At a view's close: logs each backlog that still holds frames, which its peer never took. */
    static void warnUntaken(final Logger log, final PeerBacklog[] backlogs, final long viewId, final int[] nodeIds)
    {
        for (int r = 0; r < backlogs.length; r++)
        {
            if (backlogs[r] != null && !backlogs[r].isEmpty())
            {
                log.warn("view {}: closed with {} bytes of row frames member rank {} (node {}) never took", viewId,
                    backlogs[r].bytes(), r, nodeIds[r]);
            }
        }
    }
}
