package io.sirocco.multicast.view;

import io.sirocco.multicast.Member;
import io.sirocco.multicast.View;

import java.util.List;
import java.util.Optional;

/**
 * Where joiners announce themselves and where leaders publish views: the contact point of a group. The protocol
 * state (suspicions, proposals, acks, commits, trims) travels in the SST; the registry only carries what a member
 * outside the current view must read (who wants in, what the next view is).
 *
 * <p>Implementations: {@link LocalRegistry} (one JVM), {@link ShmRegistry} (files in the group's private
 * {@code /dev/shm} directory, one host) and {@code io.sirocco.multicast.contact.NetRegistry} (a replica in every
 * member, kept up to date over messaging-transport; joiners reach it through contact members found by a static peer
 * list or UDP multicast beacons: no shared filesystem). Every method may be called from any thread.
 */
public interface MembershipRegistry extends AutoCloseable
{
    /** Announces (or updates) a member; idempotent per id. */
    void announce(Member member);

    /** Removes a member's announcement (it left or was excluded). */
    void withdraw(long memberId);

    /** @return every announced member, in announcement order. */
    List<Member> announced();

    /**
     * Publishes a view under a name ({@code "v<id>"} for installed views, {@code "p<proposal>"} for proposals).
     */
    void publish(String key, View view);

    /** @return the view published under this key, if any. */
    Optional<View> read(String key);

    /** @return the installed view with the highest id that contains this member, if any. */
    Optional<View> latestContaining(long memberId);

    /**
     * Whether a member that is not in any view should form the first view of the group by itself now. Registries
     * that see the whole group (shared files, one JVM) leave this to configuration ({@code GroupConfig.contact}) and
     * answer false; a network registry answers true when discovery found no running group and this member is the
     * one chosen to start it.
     *
     * @return true if the caller should form view 1 alone.
     */
    default boolean formsGroup()
    {
        return false;
    }

    /**
     * Another group of this name that the caller's group must merge into (two groups exist when their members could
     * not hear each other when they formed). Only a network registry hears other groups; the others answer empty.
     * A non-empty answer also makes the next {@link #rediscover()} contact only that group.
     *
     * @param current the caller's installed view.
     * @return a description of the surviving group (for the log), or empty when the caller's group stays.
     */
    default Optional<String> survivingGroup(final View current)
    {
        return Optional.empty();
    }

    /**
     * The caller is out of its group (excluded, or it left to merge) and starts looking for the group again, as a
     * joiner would: a network registry forgets the views it holds (so that only a view published from now on can
     * take the member back in), restarts its discovery wait and greets its contacts again. The file and in-JVM
     * registries need nothing: their view ids only grow.
     */
    default void rediscover()
    {
    }

    /**
     * Whether a view that contains the caller, found after {@link #rediscover()}, is one its members run now rather
     * than an old one still travelling (a network registry can receive a view published long before, and taking
     * that one would put the member in a view nobody runs). The file and in-JVM registries answer true: the caller
     * compares view ids there.
     *
     * @param view a view containing the caller.
     * @return true if the caller may install it.
     */
    default boolean runsNow(final View view)
    {
        return true;
    }

    /** @return where this registry can be reached by other members ({@code host:port}), empty if not networked. */
    default String contactAddress()
    {
        return "";
    }

    /** Releases the registry's resources (network endpoint, threads); the shared-file and in-JVM ones have none. */
    @Override
    default void close()
    {
    }
}
