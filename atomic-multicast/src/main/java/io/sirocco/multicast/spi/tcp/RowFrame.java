package io.sirocco.multicast.spi.tcp;

import io.sirocco.transport.Exporter;
import io.sirocco.transport.Importer;
import io.sirocco.transport.Message;

import java.lang.foreign.MemorySegment;

/**
 * One batch of row pushes from one member to another, carried as an ordered DXNet message (type
 * {@link #TYPE}, subtype {@link #SUBTYPE}). Payload:
 *
 * <pre>
 *   long viewId, int fromRank, then operations until the end:
 *   byte kind (BYTES | COUNTERS), long rowOffset, int n,
 *     BYTES:    n raw bytes, copied into the receiver's copy of the sender's row
 *     COUNTERS: n longs, each applied with a release store, in order
 * </pre>
 *
 * Ordered messages from one node are handled by one handler thread in arrival order, and TCP is FIFO: a guard is
 * applied after the data pushed before it. The sender serializes the frame when it sends (the snapshot rule).
 */
final class RowFrame extends Message
{
    static final int TYPE = 40;
    static final int SUBTYPE = 1;
    static final byte BYTES = 1;
    static final byte COUNTERS = 2;

    private MemorySegment source;
    private long offset;
    private int length;

    RowFrame()
    {
        super(TYPE, SUBTYPE, true);
    }

    /** Sends {@code lengthBytes} of {@code buffer} from {@code offsetBytes} (one frame: header, then operations). */
    RowFrame wrap(final MemorySegment buffer, final long offsetBytes, final int lengthBytes)
    {
        this.source = buffer;
        this.offset = offsetBytes;
        this.length = lengthBytes;
        return this;
    }

    @Override
    public int payloadSize()
    {
        return length;
    }

    @Override
    public void exportPayload(final Exporter exporter)
    {
        exporter.writeSegment(source, offset, length);
    }

    @Override
    public void importPayload(final Importer importer)
    {
        throw new UnsupportedOperationException("row frames are read by a raw handler");
    }
}
