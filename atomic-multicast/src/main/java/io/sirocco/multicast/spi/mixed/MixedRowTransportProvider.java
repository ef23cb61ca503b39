package io.sirocco.multicast.spi.mixed;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.multicast.spi.shm.ShmRowTransportProvider;
import io.sirocco.multicast.spi.tcp.TcpRowTransportProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code mixed} transport, for a group whose members span hosts: shared memory between the members of one host,
 * tcp row frames between hosts, chosen per target row by the host name each member announced
 * ({@link io.sirocco.multicast.Member#host()}). Every member needs a tcp endpoint ({@code host:port}).
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
    public RowTransport open(final RowTransportContext context)
    {
        final int n = context.memberCount();
        final int me = context.myRank();
        final String myHost = context.members().get(me).host();
        final long[] ids = new long[n];
        final boolean[] sameHost = new boolean[n];
        final boolean[] otherHost = new boolean[n];
        int remote = 0;
        for (int r = 0; r < n; r++)
        {
            final RowTransportContext.MemberAddress m = context.members().get(r);
            ids[r] = m.memberId();
            if (r != me)
            {
                sameHost[r] = m.host().equals(myHost);
                otherHost[r] = !sameHost[r];
                remote += otherHost[r] ? 1 : 0;
            }
        }
        final SameHostRows near = new SameHostRows(ShmRowTransportProvider.groupDirectory(context.groupName()),
            context.viewId(), ids, sameHost, me, context.rowLengthBytes(), context.doorbell());
        // The tcp half exists only when some member of this view is on another host.
        final RowTransport far = remote == 0 ? null : TcpRowTransportProvider.openInto(context, near.table(), otherHost);
        LOG.debug("group {} view {}: mixed transport, {} member(s) on host {} by shared memory, {} by tcp",
            context.groupName(), context.viewId(), n - remote, myHost, remote);
        return new MixedRowTransport(near, far);
    }
}
