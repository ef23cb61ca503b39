package io.sirocco.transport;

/**
 * Told when a connection to a node is lost or closed (peer closed or crashed, bad input, LRU eviction, shutdown).
 * Called on a transport thread: return quickly and never block.
 */
@FunctionalInterface
public interface ConnectionListener
{
    void onConnectionClosed(int nodeId, String reason);

    /**
     * As {@link #onConnectionClosed(int, String)}, with whether the peer ended the stream: its end closed or reset,
     * or a write to it failed (its process crashed or closed the connection), as opposed to a local decision
     * (shutdown, eviction, bad input, a failed connect). A crash detector can act on {@code peerEnded} at once
     * instead of waiting for a heartbeat timeout. The default ignores the flag.
     */
    default void onConnectionClosed(final int nodeId, final String reason, final boolean peerEnded)
    {
        onConnectionClosed(nodeId, reason);
    }
}
