package io.sirocco.ib.row;

import io.sirocco.ib.bootstrap.ControlExchange;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;

/**
 * One member's messaging-transport control endpoint for the RDMA row transport of a group, shared by the tables of
 * its successive views: a {@link MessagingService} bound to the member's {@code endpoint} ({@code host:port}) that
 * carries the {@link ControlExchange}. A member's messaging node id is derived from its member id
 * ({@code memberId % 65000 + 1}, as the tcp row transport does), so member ids of one group must differ modulo 65000.
 *
 * <p>Threading: {@link #nodeIds} and {@link #exchange()} on the view opener's thread; the service's own threads
 * answer peers. Closed by the provider when its last open table closes.
 */
final class RowControlEndpoint implements AutoCloseable
{
    private final MessagingService service;
    private final ControlExchange exchange;

    RowControlEndpoint(final TransportContext context)
    {
        this.service = MessagingService.start(context);
        this.exchange = new ControlExchange(service);
    }

    /** The default control endpoint: messaging-transport's {@code nio} (TCP) transport at the member's endpoint. */
    static TransportContext nioContext(final String groupName, final RowTransportContext.MemberAddress self)
    {
        final HostPort own = HostPort.of(groupName, self, -1);
        final TransportContext context = new TransportContext().ownNodeId(nodeId(self.memberId())).transport("nio")
            .handlerThreads(1).connectTimeoutMs(1000).ringBufferBytes(1 << 16).flowControlWindowBytes(1 << 16);
        context.addressMap().put(nodeId(self.memberId()), own.host(), own.port());
        return context;
    }

    static int nodeId(final long memberId)
    {
        return (int)(memberId % 65_000) + 1;
    }

    /** Adds every member's endpoint to the address map and returns the members' node ids by rank. */
    int[] nodeIds(final RowTransportContext context)
    {
        final int[] nodeIds = new int[context.memberCount()];
        for (int rank = 0; rank < nodeIds.length; rank++)
        {
            final RowTransportContext.MemberAddress member = context.members().get(rank);
            final HostPort address = HostPort.of(context.groupName(), member, rank);
            nodeIds[rank] = nodeId(member.memberId());
            service.addressMap().put(nodeIds[rank], address.host(), address.port());
        }
        return nodeIds;
    }

    ControlExchange exchange()
    {
        return exchange;
    }

    @Override
    public void close()
    {
        service.close();
    }

    /** A member's endpoint, parsed; the error names the member and the group. */
    record HostPort(String host, int port)
    {
        static HostPort of(final String groupName, final RowTransportContext.MemberAddress member, final int rank)
        {
            final String endpoint = member.endpoint();
            final int colon = null == endpoint ? -1 : endpoint.lastIndexOf(':');
            try
            {
                if (colon <= 0)
                {
                    throw new NumberFormatException("no host:port");
                }
                return new HostPort(endpoint.substring(0, colon), Integer.parseInt(endpoint.substring(colon + 1)));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("transport 'rdma' needs every member's endpoint as host:port for "
                    + "its control connection; member " + member.memberId() + (rank < 0 ? "" : " (rank " + rank + ")")
                    + " of group '" + groupName + "' has '" + endpoint + "'; set GroupConfig.endpoint", ex);
            }
        }
    }
}
