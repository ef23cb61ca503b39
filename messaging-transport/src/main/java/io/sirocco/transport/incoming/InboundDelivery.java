package io.sirocco.transport.incoming;

import io.sirocco.transport.spi.Connection;

/** What the coordinator and handler threads need from the messaging core. */
public interface InboundDelivery
{
    /** True if a frame of this kind and (type, subtype) can be delivered (a factory or raw handler exists). */
    boolean accepts(int kind, int type, int subtype);

    /**
     * Deserializes and dispatches one message (on a handler thread, or the coordinator for responses).
     * Returns null on success, or the reason the payload was malformed.
     */
    String deliver(InboundMessage message, SegmentImporter importer);

    /** Bad input on the connection: log naming the peer and the reason, close it. Any thread. */
    void protocolError(Connection connection, String reason);

    /** The connection's stream ended after all its data was processed. Coordinator thread. */
    void streamEnded(Connection connection, String reason);

    /** Flow-control credits became pending on the connection. Coordinator thread. */
    void creditsPending(Connection connection);
}
