package io.sirocco.multicast.spi;

/**
 * Opens {@link RowTransport}s; found by name (built-ins {@code local}, {@code shm}, {@code tcp}) or through
 * {@link java.util.ServiceLoader} (for example {@code ib-native}'s RDMA transport).
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
}
