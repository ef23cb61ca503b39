package io.sirocco.multicast.spi.tcp;

import java.lang.foreign.MemorySegment;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code tcp} transport: row-range frames over messaging-transport's NIO transport. Each member needs an endpoint
 * ({@code host:port}, {@link io.sirocco.multicast.GroupConfig#endpoint()}); its DXNet node id is derived from its
 * member id ({@code memberId % 65000 + 1}), so member ids of one group must differ modulo 65000.
 */
public final class TcpRowTransportProvider implements RowTransportProvider
{
    private static final ConcurrentHashMap<String, TcpEndpoint> ENDPOINTS = new ConcurrentHashMap<>();

    @Override
    public String name()
    {
        return "tcp";
    }

    @Override
    public void prepare(final String groupName, final RowTransportContext.MemberAddress self)
    {
        endpoint(groupName, self);
    }

    @Override
    public void lookingForGroup(final String groupName, final long memberId)
    {
        rejoining(groupName, memberId);
    }

    @Override
    public void left(final String groupName, final long memberId)
    {
        shutdown(groupName, memberId);
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        final TcpEndpoint endpoint = endpoint(context.groupName(), context.members().get(context.myRank()));
        endpoint.addPeers(context);
        final TcpRowTransport t = new TcpRowTransport(endpoint, context);
        endpoint.opened(context.viewId(), t);
        return t;
    }

    /**
     * Opens a tcp transport that serves only some of the view's members and shares its table with another transport
     * (the {@code mixed} transport: shared memory within a host, tcp between hosts). Frames from any member are
     * applied into {@code table}; this member's row is read from it.
     *
     * @param context the view's geometry.
     * @param table   the local table ({@code members * rowLengthBytes} bytes).
     * @param targets ranks to push to over tcp.
     * @return the transport.
     */
    public static RowTransport openInto(final RowTransportContext context, final MemorySegment table,
        final boolean[] targets)
    {
        final TcpEndpoint endpoint = endpoint(context.groupName(), context.members().get(context.myRank()));
        endpoint.addPeers(context);
        final TcpRowTransport t = new TcpRowTransport(endpoint, context, table, targets.clone());
        endpoint.opened(context.viewId(), t);
        return t;
    }

    private static TcpEndpoint endpoint(final String groupName, final RowTransportContext.MemberAddress me)
    {
        final String key = groupName + "/" + me.memberId();
        return ENDPOINTS.computeIfAbsent(key, k ->
        {
            final String ep = me.endpoint();
            final int colon = ep.lastIndexOf(':');
            if (colon <= 0)
            {
                throw new IllegalArgumentException("tcp transport: this member (" + me.memberId() + ") has no"
                    + " host:port endpoint; set GroupConfig.endpoint");
            }
            return new TcpEndpoint(TcpEndpoint.nodeId(me.memberId()), ep.substring(0, colon),
                Integer.parseInt(ep.substring(colon + 1)));
        });
    }

    /**
     * This member is out of its group and looks for one to be taken into (after an exclusion, or to merge into
     * another group of the name, whose view ids may be lower than the ones this endpoint closed): its endpoint keeps
     * frames of any view id not opened yet again. The endpoint and its connections stay: a peer's frames queued on a
     * connection while a link was cut arrive in order once it heals (a restarted endpoint made the peer's next
     * retransmission reset that connection, losing the new view's first frames queued behind it).
     */
    public static void rejoining(final String groupName, final long memberId)
    {
        final TcpEndpoint e = ENDPOINTS.get(groupName + "/" + memberId);
        if (e != null)
        {
            e.forgetClosedViews();
        }
    }

    /** Stops this member's endpoint of a group (when the member leaves). */
    public static void shutdown(final String groupName, final long memberId)
    {
        final TcpEndpoint e = ENDPOINTS.remove(groupName + "/" + memberId);
        if (e != null)
        {
            e.service.close();
        }
    }
}
