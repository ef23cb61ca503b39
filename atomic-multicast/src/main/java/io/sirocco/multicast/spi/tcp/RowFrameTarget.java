package io.sirocco.multicast.spi.tcp;

import java.lang.foreign.MemorySegment;

/**
 * What the endpoint needs of a view's tcp row transport: apply a received row frame to the view's table, and say
 * whether the view is still open. {@link TcpRowTransport} implements it, so the endpoint (which routes frames by view)
 * and the transports (which send through the endpoint) do not depend on each other.
 */
interface RowFrameTarget
{
    /**
     * Applies a row frame of {@code lengthBytes} bytes from node {@code sourceNodeId} to the view's table (on the
     * receiving thread).
     *
     * @throws IllegalArgumentException if the frame is malformed or names a rank that is not the sending node's.
     */
    void apply(int sourceNodeId, MemorySegment bytes, long lengthBytes);

    /** Whether the view is still open (frames for a closed view are dropped). */
    boolean isOpen();
}
