package io.sirocco.transport.loopback;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-process "network" of the loopback transport: node id to running transport. Services that share a fabric
 * can reach each other; tests create private fabrics to stay isolated. Thread-safe.
 */
public final class LoopbackFabric
{
    private static final LoopbackFabric SHARED = new LoopbackFabric();

    private final ConcurrentHashMap<Integer, LoopbackTransport> nodes = new ConcurrentHashMap<>();

    /** The JVM-wide default fabric. */
    public static LoopbackFabric shared()
    {
        return SHARED;
    }

    void register(final int nodeId, final LoopbackTransport transport)
    {
        final LoopbackTransport previous = nodes.putIfAbsent(nodeId, transport);
        if (previous != null)
        {
            throw new IllegalStateException("loopback node " + nodeId + " is already running in this fabric");
        }
    }

    void unregister(final int nodeId, final LoopbackTransport transport)
    {
        nodes.remove(nodeId, transport);
    }

    LoopbackTransport lookup(final int nodeId)
    {
        return nodes.get(nodeId);
    }
}
