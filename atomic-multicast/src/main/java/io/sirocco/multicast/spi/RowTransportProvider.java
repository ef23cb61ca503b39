package io.sirocco.multicast.spi;

/**
 * Opens {@link RowTransport}s. Every provider, the built-ins ({@code local}, {@code shm}, {@code tcp},
 * {@code mixed}) as well as others (for example {@code ib-native}'s RDMA transport), is registered in
 * {@code META-INF/services/io.sirocco.multicast.spi.RowTransportProvider} and found by its {@link #name()} through
 * {@link RowTransportProviders}, so the protocol and the registries never name a concrete transport.
 */
public interface RowTransportProvider
{
    /**
     * @return the name users select this transport by, e.g. {@code shm}.
     */
    String name();

    /**
     * Opens the table of one view. Called on the group's predicate thread when a view is installed; every member of
     * the view calls it with the same geometry. A push to a member that has not opened yet must not be lost (it
     * lands once that member opens, or the transport buffers it).
     *
     * @param context the view's geometry.
     * @return the transport, owning the local table.
     */
    RowTransport open(RowTransportContext context);

    /**
     * Called once when a member starts joining, before it announces itself: a transport that must accept
     * connections (tcp) binds here, so every member of a view is reachable before anyone sees the view.
     *
     * @param groupName the group.
     * @param self      this member's address.
     */
    default void prepare(final String groupName, final RowTransportContext.MemberAddress self)
    {
    }

    /**
     * Whether an idle predicate thread of this transport sleeps on a doorbell that the other members' pushes ring
     * (the {@code shm} futex), so that spinning only takes the core from a peer; {@link
     * io.sirocco.multicast.GroupConfig} then spins less by default on few cores.
     *
     * @return true when pushes wake an idle reader.
     */
    default boolean doorbell()
    {
        return false;
    }

    /**
     * Called when this member is out of its group and looks for one to be taken into (after an exclusion, or to
     * merge), after its last view's table was closed: a transport that keeps per-member state across views (tcp)
     * prepares it to accept any view id again.
     *
     * @param groupName the group.
     * @param memberId  this member.
     */
    default void lookingForGroup(final String groupName, final long memberId)
    {
    }

    /**
     * Called once when this member leaves its group for good: releases what {@link #prepare} set up.
     *
     * @param groupName the group.
     * @param memberId  this member.
     */
    default void left(final String groupName, final long memberId)
    {
    }
}
