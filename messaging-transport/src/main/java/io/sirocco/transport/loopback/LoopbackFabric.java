package io.sirocco.transport.loopback;

import io.sirocco.transport.InProcessFabric;
import io.sirocco.transport.spi.Transport;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-process "network" of the loopback transport: node id to running transport. Services that share a fabric
 * can reach each other; tests create private fabrics to stay isolated. Thread-safe. It maps ids to the
 * {@link Transport} interface (the loopback transport checks the type it finds) so that fabric and transport do not
 * depend on each other.
 */
public final class LoopbackFabric implements InProcessFabric
{
    private static final LoopbackFabric SHARED = new LoopbackFabric();

    private final ConcurrentHashMap<Integer, Transport> nodes = new ConcurrentHashMap<>();

    /** The JVM-wide default fabric. */
    public static LoopbackFabric shared()
    {
        return SHARED;
    }

    void register(final int nodeId, final Transport transport)
    {
        final Transport previous = nodes.putIfAbsent(nodeId, transport);
        if (previous != null)
        {
            throw new IllegalStateException("loopback node " + nodeId + " is already running in this fabric");
        }
    }

    void unregister(final int nodeId, final Transport transport)
    {
        nodes.remove(nodeId, transport);
    }

    Transport lookup(final int nodeId)
    {
        return nodes.get(nodeId);
    }
}
