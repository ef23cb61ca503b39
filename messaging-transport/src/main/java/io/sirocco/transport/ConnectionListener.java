package io.sirocco.transport;

/**
 * Told when a connection to a node is lost or closed (peer closed or crashed, bad input, LRU eviction, shutdown).
 * Called on a transport thread: return quickly and never block.
 */
@FunctionalInterface
public interface ConnectionListener
{
    void onConnectionClosed(int nodeId, String reason);
}
