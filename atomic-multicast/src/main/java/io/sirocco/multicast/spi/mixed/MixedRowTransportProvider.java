package io.sirocco.multicast.spi.mixed;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.multicast.spi.GroupDirectory;
import io.sirocco.multicast.spi.tcp.TcpRowTransportProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code mixed} transport, for a group whose members span hosts: shared memory between the members of one host,
 * tcp row frames between hosts, chosen per target row by the host name each member announced
 * ({@link io.sirocco.multicast.model.Member#host()}). Every member needs a tcp endpoint ({@code host:port}).
 */
public final class MixedRowTransportProvider implements RowTransportProvider
{
    private static final Logger LOG = LoggerFactory.getLogger(MixedRowTransportProvider.class);

    private final TcpRowTransportProvider tcp = new TcpRowTransportProvider();

    @Override
    public String name()
    {
        return "mixed";
    }

    @Override
    public void prepare(final String groupName, final RowTransportContext.MemberAddress self)
    {
        tcp.prepare(groupName, self);
    }

    @Override
    public void lookingForGroup(final String groupName, final long memberId)
    {
        tcp.lookingForGroup(groupName, memberId);
    }

    @Override
    public void left(final String groupName, final long memberId)
    {
        tcp.left(groupName, memberId);
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        final MixedRoutes routes = new MixedRoutes(context);
        final SameHostRows near = new SameHostRows(GroupDirectory.create(context.groupName()),
            context.viewId(), routes.memberIds(), routes.sameHost(), context.myRank(), context.rowLengthBytes(),
            context.doorbell());
        // The tcp half exists only when some member of this view is on another host.
        final RowTransport far = routes.remoteCount() == 0 ? null
            : TcpRowTransportProvider.openInto(context, near.table(), routes.otherHost());
        // Once per view (views change only on membership events): the route of every peer, so that an operator or
        // a test can see which pairs share memory.
        LOG.debug("{}", routes.plan());
        return new MixedRowTransport(near, far, routes);
    }
}
