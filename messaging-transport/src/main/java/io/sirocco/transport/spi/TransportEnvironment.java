package io.sirocco.transport.spi;

import io.sirocco.transport.TransportContext;
import io.sirocco.transport.TransportStatistics;

/** What the messaging core offers a {@link Transport}. All methods are thread-safe. */
public interface TransportEnvironment
{
    int ownNodeId();

    TransportContext context();

    /** The node's counters, which a transport adds its own to. */
    TransportStatistics statistics();

    /** The pooled off-heap receive buffers. */
    BufferPool bufferPool();

    /**
     * Paper operation 3: hands a filled buffer (its {@code connection} and {@code length} set) to the incoming
     * buffer queue. Waits while the queue is full. Buffers of one connection must be pushed in stream order.
     */
    void pushIncoming(IncomingBuffer buffer);

    /**
     * A peer opened its outgoing direction to us: returns the connection whose incoming half it feeds, creating it
     * if needed. An older connection to the same node that already had an incoming half is closed first (the peer
     * restarted).
     */
    Connection acceptIncoming(int nodeId);

    /**
     * A channel of the connection ended (peer closed, reset, I/O error). Queued behind the data already pushed, so
     * that data is processed first; then the core closes the connection and fails pending requests to the node.
     */
    void endOfStream(Connection connection, String reason);
}
