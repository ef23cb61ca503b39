package io.sirocco.multicast.spi.mixed;

import java.util.List;
import java.util.function.IntToLongFunction;

import io.sirocco.multicast.spi.RowTransportContext;

/**
 * Which path each peer of one view gets this member's row by: {@code shm} for a member whose host identity equals
 * this member's, {@code tcp} for the others. Computed once per view from the announced host identities; formats the
 * route report the transport logs when it opens a view (the plan) and closes it (the pushes each peer really got),
 * which is what a multi-process test reads to tell which path a pair used. Immutable.
 */
final class MixedRoutes
{
    /** Route of a peer by shared memory. */
    static final String SHM = "shm";
    /** Route of a peer by tcp frames. */
    static final String TCP = "tcp";

    private final String groupName;
    private final long viewId;
    private final int myRank;
    private final long[] memberIds;
    private final String[] hosts;
    private final boolean[] sameHost;
    private final boolean[] otherHost;
    private final int remote;

    MixedRoutes(final RowTransportContext context)
    {
        this(context.groupName(), context.viewId(), context.myRank(), context.members());
    }

    MixedRoutes(final String groupName, final long viewId, final int myRank,
        final List<RowTransportContext.MemberAddress> members)
    {
        this.groupName = groupName;
        this.viewId = viewId;
        this.myRank = myRank;
        final int n = members.size();
        this.memberIds = new long[n];
        this.hosts = new String[n];
        this.sameHost = new boolean[n];
        this.otherHost = new boolean[n];
        final String myHost = members.get(myRank).host();
        int others = 0;
        for (int r = 0; r < n; r++)
        {
            final RowTransportContext.MemberAddress m = members.get(r);
            memberIds[r] = m.memberId();
            hosts[r] = m.host();
            if (r != myRank)
            {
                sameHost[r] = m.host().equals(myHost);
                otherHost[r] = !sameHost[r];
                others += otherHost[r] ? 1 : 0;
            }
        }
        this.remote = others;
    }

    long[] memberIds()
    {
        return memberIds;
    }

    /** @return ranks reached by shared memory (not this member's own). */
    boolean[] sameHost()
    {
        return sameHost;
    }

    /** @return ranks reached by tcp. */
    boolean[] otherHost()
    {
        return otherHost;
    }

    /** @return how many peers are on other hosts. */
    int remoteCount()
    {
        return remote;
    }

    /** @return {@link #SHM}, {@link #TCP}, or null for this member's own rank. */
    String routeOf(final int rank)
    {
        return rank == myRank ? null : sameHost[rank] ? SHM : TCP;
    }

    /** The plan, logged when the view opens: {@code member <id> (host <h>) shm|tcp} per peer. */
    String plan()
    {
        return describe(null);
    }

    /**
     * The report, logged when the view closes: {@code member <id> (host <h>) shm|tcp <pushes>} per peer.
     *
     * @param pushes pushes issued to a rank.
     */
    String report(final IntToLongFunction pushes)
    {
        return describe(pushes);
    }

    private String describe(final IntToLongFunction pushes)
    {
        final StringBuilder sb = new StringBuilder("group ").append(groupName).append(" view ").append(viewId)
            .append(" member ").append(memberIds[myRank]).append(" (host ").append(hosts[myRank]).append(')')
            .append(pushes == null ? " mixed routes:" : " closed, row pushes by route:");
        for (int r = 0; r < memberIds.length; r++)
        {
            if (r == myRank)
            {
                continue;
            }
            sb.append(" member ").append(memberIds[r]).append(" (host ").append(hosts[r]).append(") ")
                .append(routeOf(r));
            if (pushes != null)
            {
                sb.append(' ').append(pushes.applyAsLong(r));
            }
            sb.append(';');
        }
        return sb.toString();
    }
}
