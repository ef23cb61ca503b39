package io.sirocco.multicast.spi;

import java.util.List;

/**
 * What a {@link RowTransportProvider} needs to open the SST of one view: who is in it, which row is ours and how long
 * a row is. Immutable.
 *
 * @param groupName      the group's name (one DDS domain), used to name shared files and connections.
 * @param viewId         the view id; every view gets a fresh table.
 * @param myRank         this member's row.
 * @param members        the view's members in rank order.
 * @param rowLengthBytes row length, a multiple of 64.
 * @param doorbell       rung when another member's push landed in the local table (may be a no-op).
 * @param received       what a transport's own receiving thread runs after it applied a push (tcp frames): the
 *                       group's inline pass, which runs the view's triggers on that thread when no other thread runs
 *                       them and rings {@code doorbell} otherwise; or {@code doorbell} itself. Never waits.
 */
public record RowTransportContext(
    String groupName,
    long viewId,
    int myRank,
    List<MemberAddress> members,
    long rowLengthBytes,
    Runnable doorbell,
    Runnable received)
{
    /** A context whose receiving threads only ring the doorbell. */
    public RowTransportContext(final String groupName, final long viewId, final int myRank,
        final List<MemberAddress> members, final long rowLengthBytes, final Runnable doorbell)
    {
        this(groupName, viewId, myRank, members, rowLengthBytes, doorbell, doorbell);
    }

    /**
     * Where a member can be reached.
     *
     * @param memberId the member's id, unique in the group.
     * @param host     host name (members with the same host share memory when the shm transport is used).
     * @param pid      operating-system process id.
     * @param endpoint transport-specific address ({@code host:port} for tcp), may be empty.
     */
    public record MemberAddress(long memberId, String host, long pid, String endpoint)
    {
    }

    /**
     * @return the number of rows of the table.
     */
    public int memberCount()
    {
        return members.size();
    }
}
