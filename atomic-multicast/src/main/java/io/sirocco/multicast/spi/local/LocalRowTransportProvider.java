package io.sirocco.multicast.spi.local;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code local} transport: members in one JVM, each with its <em>own</em> copy of the table, and a push copies
 * bytes into the peers' copies (the "faithful" mode of the design: same visibility semantics as a one-sided write, so
 * tests exercise the guard discipline that tcp and RDMA need). All copies of a view are allocated by whichever member
 * opens first, so a push never lands before its target exists.
 */
public final class LocalRowTransportProvider implements RowTransportProvider
{
    private static final ConcurrentHashMap<String, LocalFabric> FABRICS = new ConcurrentHashMap<>();

    @Override
    public String name()
    {
        return "local";
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        final String key = context.groupName() + "/v" + context.viewId();
        final LocalFabric fabric = FABRICS.computeIfAbsent(
            key, k -> new LocalFabric(k, context.memberCount(), context.rowLengthBytes(), FABRICS::remove));
        fabric.attach(context.myRank(), context.doorbell());
        return new LocalRowTransport(fabric, context.myRank());
    }

}
