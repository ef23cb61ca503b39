package io.sirocco.multicast.view;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Re-forms a group none of whose members is in a view any more, on the registries that see the whole group (one JVM,
 * one host). After a storm of false suspicions in which every member excluded itself (each side of a mutual suspicion
 * is a minority; seen at load 47 on 2 cores), every member waited for a leader to take it back, and there was none: on
 * these registries only a member in a view adds members, and {@link MembershipRegistry#formsGroup()} is the network
 * registry's business. The rule, asked by an excluded member on each registry poll:
 * <ol>
 *   <li>A live group may exist while any member of the highest installed view has no out mark and may still run (the
 *       caller's test: on this host its pid is alive, and a member in the caller's own JVM has a running predicate
 *       thread; on another host, always). Then the
 *       member waits to be taken back in, as before. A member of a view never has an out mark (it clears it before it
 *       goes in), so a running group is never mistaken for a dead one; a crashed member counts as out.</li>
 *   <li>Otherwise the lowest member id among the live members that look for the group (a looking mark renewed within
 *       {@link #FRESH_MS}) founds the next view, alone, under the next view id; the others see a live group again
 *       and are added by its leader as joiners, through the ordinary view change.</li>
 *   <li>The founder clears its own mark, then publishes the new view with {@link MembershipRegistry#publishFirst}:
 *       should two members both believe they found (one's mark looked stale to the other), exactly one publishes that
 *       view id and the other marks itself again and waits. Two groups of one name sharing a registry never form
 *       (they would share view ids, table files and proposals). The order matters: a founder that published before
 *       clearing its mark, with a mark that looked stale, could have its fresh view taken for a dead one.</li>
 * </ol>
 * Stateless; called on the excluded member's predicate thread.
 */
public final class Refounder
{
    /**
     * A looking mark older than this is a member that no longer polls (crashed in one JVM, where no pid tells): it
     * is not chosen to found. Marks are renewed about once a second.
     */
    public static final long FRESH_MS = 10_000;

    private Refounder()
    {
    }

    /**
     * Founds the group anew if no live group exists and this member is the one to do it.
     *
     * @param registry the group's registry (one that keeps out marks).
     * @param self     this member, out of every view, with its looking mark set.
     * @param mayRun   whether a member may still run (false only when it surely does not: see above).
     * @return the view it founded and published (only this member in it), or empty.
     */
    public static Optional<View> found(final MembershipRegistry registry, final Member self,
        final Predicate<Member> mayRun)
    {
        final Optional<View> latest = registry.latestInstalled();
        if (latest.isEmpty())
        {
            return Optional.empty();
        }
        final List<MembershipRegistry.OutMark> marks = registry.outMarks();
        if (!everyMemberOut(latest.get(), marks, mayRun))
        {
            return Optional.empty();
        }
        final long now = System.currentTimeMillis();
        long founder = Long.MAX_VALUE;
        for (final MembershipRegistry.OutMark m : marks)
        {
            if (m.looking() && now - m.atMillis() <= FRESH_MS && mayRun.test(m.member()))
            {
                founder = Math.min(founder, m.member().memberId());
            }
        }
        if (founder != self.memberId())
        {
            return Optional.empty();
        }
        // Unmarked first: from here on this member counts as possibly running a group, so nobody who sees its view
        // (published next) takes the group for dead, whatever its mark's age.
        registry.clearOut(self.memberId());
        final View view = new View(latest.get().viewId() + 1, List.of(self));
        if (!registry.publishFirst("v" + view.viewId(), view))
        {
            registry.markOut(self, true);
            return Optional.empty();
        }
        // The marks of members that left for good or died mattered only for the view just superseded; and a dead
        // member still announced (it crashed in its view, which nobody installed a successor of) would be taken in by
        // this founder's first view change as a joiner, costing a join grace before it is suspected again.
        clearGone(registry, marks, mayRun);
        return Optional.of(view);
    }

    /** Whether every member of {@code latest} is marked out or surely not running. */
    private static boolean everyMemberOut(final View latest, final List<MembershipRegistry.OutMark> marks,
        final Predicate<Member> mayRun)
    {
        final Map<Long, MembershipRegistry.OutMark> byId = new HashMap<>();
        for (final MembershipRegistry.OutMark m : marks)
        {
            byId.put(m.member().memberId(), m);
        }
        for (final Member m : latest.members())
        {
            if (!byId.containsKey(m.memberId()) && mayRun.test(m))
            {
                return false;
            }
        }
        return true;
    }

    /** Clears the out marks of members not looking any more or dead, and withdraws dead announced members. */
    private static void clearGone(final MembershipRegistry registry, final List<MembershipRegistry.OutMark> marks,
        final Predicate<Member> mayRun)
    {
        for (final MembershipRegistry.OutMark m : marks)
        {
            if (!m.looking() || !mayRun.test(m.member()))
            {
                registry.clearOut(m.member().memberId());
            }
        }
        for (final Member m : registry.announced())
        {
            if (!mayRun.test(m))
            {
                registry.withdraw(m.memberId());
            }
        }
    }

    /**
     * Publishes a view a member installs, unless the registry already holds that view id with other members. Every
     * member of a committed view publishes the same view, so a different one under the id means a second group: a
     * group re-formed by a founder who took this one for dead (its leader died right after publishing the previous
     * view, before the members it named had noticed), which must not be overwritten (its members run that view's
     * table). Registries that do not see the whole group (a network registry) publish as before.
     *
     * @param registry the group's registry.
     * @param view     the view being installed.
     * @return false when another group holds the view id: the caller must not install it.
     */
    public static boolean publishInstalled(final MembershipRegistry registry, final View view)
    {
        final String key = "v" + view.viewId();
        if (registry.latestInstalled().isEmpty())
        {
            registry.publish(key, view);
            return true;
        }
        return registry.publishFirst(key, view)
            || registry.read(key).map(v -> v.encode().equals(view.encode())).orElse(false);
    }
}
