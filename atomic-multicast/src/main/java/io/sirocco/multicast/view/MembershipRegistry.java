package io.sirocco.multicast.view;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

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

    /** Removes a member's announcement (it left or was excluded), and its {@linkplain #markOut out mark} if any. */
    void withdraw(long memberId);

    /**
     * Announces a member that founds the group unless one runs, deciding atomically among every member that shares
     * this registry (on one host: every process; in one JVM: every thread), so that members started at the same
     * instant found one group, not one each. A group runs when a member of the latest installed view other than
     * {@code self} is announced and may still run. When none does, the registry first drops what members that no
     * longer run left (the shared-memory registry removes their files, with one log line), then announces
     * {@code self} and, if {@code first} is given, publishes it as {@code v1} before any other member can decide.
     *
     * @param self   the joining member.
     * @param first  view 1 to publish if {@code self} founds (itself alone), or null to publish it later (a contact
     *               that waits for more members to announce).
     * @param mayRun false only for a member that surely no longer runs (its process exited, or on this JVM it closed).
     * @return true if {@code self} founds the group.
     */
    default boolean announceFounding(final Member self, final View first, final Predicate<Member> mayRun)
    {
        synchronized (this)
        {
            final boolean runs = groupRuns(this, self.memberId(), mayRun);
            announce(self);
            if (!runs && first != null)
            {
                publish("v1", first);
            }
            return !runs;
        }
    }

    /**
     * Whether a group runs on this registry for a member that is not in it: a member of the latest installed view,
     * other than {@code selfId}, is announced and may still run. A member that closed withdrew its announcement.
     */
    static boolean groupRuns(final MembershipRegistry registry, final long selfId, final Predicate<Member> mayRun)
    {
        final Optional<View> latest = registry.latestInstalled();
        if (latest.isEmpty())
        {
            return false;
        }
        for (final Member m : registry.announced())
        {
            if (m.memberId() != selfId && latest.get().rankOf(m.memberId()) >= 0 && mayRun.test(m))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * A member leaves for good (it closed): withdraws it and, when no other member that may run is left, drops the
     * group's state. The shared-memory registry removes the group's directory, so nothing of a closed domain stays
     * under the shm root; the others keep their state.
     *
     * @param memberId the member leaving.
     * @param mayRun   as for {@link #announceFounding}.
     */
    default void leave(final long memberId, final Predicate<Member> mayRun)
    {
        withdraw(memberId);
    }

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

    /**
     * A member's record that it is out of every view ({@link #markOut}).
     *
     * @param member   the member as it marked itself (host and pid tell whether it still runs).
     * @param looking  true while it looks for its group (rejoin), false once it left for good (closed).
     * @param atMillis when it last marked itself (wall clock, ms): a looking member renews its mark about once a second.
     */
    record OutMark(Member member, boolean looking, long atMillis)
    {
    }

    /**
     * Records that a member is out of every view: looking for its group again (renewed while it looks), or gone for
     * good. Only the registries that see the whole group (one JVM, one host) keep these marks: with them a group whose
     * members all excluded themselves is re-formed ({@link Refounder}). A network registry ignores them (it forms groups
     * through {@link #formsGroup()} and merges them).
     *
     * @param member  the member.
     * @param looking true while it looks for its group, false when it left for good.
     */
    default void markOut(final Member member, final boolean looking)
    {
    }

    /** Removes a member's out mark: it is in a view again. */
    default void clearOut(final long memberId)
    {
    }

    /** @return every member's out mark; empty for a registry that keeps none. */
    default List<OutMark> outMarks()
    {
        return List.of();
    }

    /**
     * @return the installed view with the highest id, whoever it contains; empty for a registry that does not see
     *         the whole group (a network registry's replica holds only what reached it).
     */
    default Optional<View> latestInstalled()
    {
        return Optional.empty();
    }

    /**
     * Publishes a view under a key only if nothing is published under it yet, atomically among every member of the
     * group: of two members that found a group under the same view id at once, exactly one succeeds.
     *
     * @return true if this call published it.
     * @throws UnsupportedOperationException for a registry that cannot decide that (a network registry).
     */
    default boolean publishFirst(final String key, final View view)
    {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot publish " + key
            + " exclusively");
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
