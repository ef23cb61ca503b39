package io.sirocco.transport;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The mutable map from 16-bit node id to network address. Any thread may read or change it at any time; a change
 * applies to connections opened afterwards (an open connection keeps its socket). Backed by an array indexed by
 * node id: lookups are one volatile read.
 */
public final class NodeAddressMap
{
    private final AtomicReferenceArray<InetSocketAddress> addresses = new AtomicReferenceArray<>(NodeIds.COUNT);

    public NodeAddressMap put(final int nodeId, final InetSocketAddress address)
    {
        addresses.set(NodeIds.check(nodeId), address);
        return this;
    }

    public NodeAddressMap put(final int nodeId, final String host, final int port)
    {
        return put(nodeId, new InetSocketAddress(host, port));
    }

    public void remove(final int nodeId)
    {
        addresses.set(NodeIds.check(nodeId), null);
    }

    /** The address of the node, or null if unknown. */
    public InetSocketAddress address(final int nodeId)
    {
        return addresses.get(NodeIds.check(nodeId));
    }
}
