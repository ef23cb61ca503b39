package io.sirocco.multicast;

import io.sirocco.multicast.config.MulticastSettings;
import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.view.MembershipRegistry;
import io.sirocco.multicast.view.Refounder;
import io.sirocco.multicast.view.ViewManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Takes a member that is out of its group back in, and merges two groups of one name.
 *
 * <ul>
 *   <li><b>Rejoin.</b> A member excluded from its view (cut off by a partition, or falsely suspected under load: the
 *       minority side excludes itself, see {@link ViewManager}) keeps its subgroup handles (claims answer
 *       {@link ClaimResult#VIEW_CHANGING} meanwhile), closes its last view's table, asks its registry to {@linkplain MembershipRegistry#rediscover() look for the group
 *       again}, announces itself and waits, like a joiner, for an installed view that contains it; the group's leader
 *       adds it at its next registry poll once they hear each other. A network registry that hears no running group
 *       within its discovery wait lets this member form a new group of its own (view 1), which the merge below folds
 *       back once the network heals. On the registries that see the whole group (one host, one JVM) it marks itself
 *       out while it looks, and when no member of the group's latest view runs any more (every member excluded
 *       itself), the lowest live member that looks founds the group again and the others join it
 *       ({@link Refounder}).</li>
 *   <li><b>Merge.</b> While in a view, it asks the registry every poll period whether another group of this name
 *       survives over its own ({@link MembershipRegistry#survivingGroup}); if so it leaves its group gracefully (the
 *       others remove it with a view change) and rejoins as above, announcing itself only to the survivor.</li>
 * </ul>
 * Every step is logged (WARN when the member goes out, INFO while it looks, WARN when it is back), naming the group
 * and the member.
 *
 * <p>Threads: {@link #trigger()} runs on the group's predicate thread, registered after the membership trigger, and
 * {@link #excluded} is called on that thread too (from the membership trigger); all state is confined to it.
 */
final class Rejoiner
{
    private static final Logger LOG = LoggerFactory.getLogger(Rejoiner.class);

    /** System property: rejoin after an exclusion and merge groups (default true). */
    static final String REJOIN_PROP = MulticastSettings.REJOIN;

    /** What the rejoiner needs from its group. */
    interface Host
    {
        /** @return the installed view (the last one while out). */
        View view();

        boolean closed();

        ViewManager viewManager();

        MembershipRegistry registry();

        /** @return this member's current announcement. */
        Member self();

        /** Detaches the view's triggers and engines and tells the listeners this member is out. */
        void out(String reason);

        /** Closes the last view's table (the row transport's endpoint stays, with its connections). */
        void closeLastView();

        /** Builds and installs a view that took this member back in. */
        void rejoined(View view);

        /** @return false only for a member that surely no longer runs (its process, or its group in this JVM, ended). */
        boolean mayRun(Member member);
    }

    private enum State
    {
        IN, LEAVING, OUT_PENDING, OUT
    }

    private final Host host;
    private final String groupName;
    private final long memberId;
    private final long pollNs;
    private final boolean enabled;
    private State state = State.IN;
    private String reason;
    private long nextCheckNs;
    private long outSinceNs;
    /** Views up to this id (or any, when negative) are from before the member went out. */
    private long staleViewId = -1;
    /** Polls while out, to re-announce now and then. */
    private long polls;
    /** Since when the registry holds a view naming this member that no member it hears runs (0: none). */
    private long unconfirmedSinceNs;
    /** How long such a view is waited for: longer than the join grace in which its members wait for this one. */
    private static final long UNCONFIRMED_VIEW_NS = TimeUnit.SECONDS.toNanos(15);
    /** How often a member out of its group renews its looking mark (well within {@link Refounder#FRESH_MS}). */
    private static final long MARK_RENEW_NS = TimeUnit.SECONDS.toNanos(1);
    /** When the looking mark was last written. */
    private long lastMarkNs;

    Rejoiner(final Host host, final String groupName, final long memberId, final long pollMs)
    {
        this.host = host;
        this.groupName = groupName;
        this.memberId = memberId;
        this.pollNs = TimeUnit.MILLISECONDS.toNanos(Math.max(10, pollMs));
        this.enabled = MulticastSettings.rejoin();
    }

    /** @return whether an excluded member tries to rejoin (else its subgroups close, as before). */
    boolean enabled()
    {
        return enabled;
    }

    /** The membership trigger excluded this member. Predicate thread. */
    void excluded(final String why)
    {
        if (enabled)
        {
            reason = why;
            state = State.OUT_PENDING;
            nextCheckNs = System.nanoTime();
        }
    }

    /** @return progress. Predicate thread. */
    boolean trigger()
    {
        if (!enabled || host.closed())
        {
            return false;
        }
        final long now = System.nanoTime();
        if (now - nextCheckNs < 0)
        {
            return false;
        }
        nextCheckNs = now + pollNs;
        switch (state)
        {
            case IN:
                return checkMerge();
            case LEAVING:
                if (!host.viewManager().left())
                {
                    return false;
                }
                host.out(reason);
                goOut();
                return true;
            case OUT_PENDING:
                goOut();
                return true;
            default:
                return lookForView(now);
        }
    }

    private boolean checkMerge()
    {
        final View current = host.view();
        if (current == null)
        {
            return false;
        }
        final Optional<String> survivor = host.registry().survivingGroup(current);
        if (survivor.isEmpty())
        {
            return false;
        }
        reason = "left view " + current.viewId() + " to merge into " + survivor.get();
        LOG.debug("group '{}': member {} hears another group of this name that survives over its own (rule: the "
            + "larger group, at equal size the lower leader id): {}; leaving to join it", groupName, memberId,
            survivor.get());
        host.viewManager().requestLeave();
        state = State.LEAVING;
        nextCheckNs = System.nanoTime();
        return true;
    }

    private void goOut()
    {
        outSinceNs = System.nanoTime();
        host.closeLastView();
        final MembershipRegistry registry = host.registry();
        registry.rediscover();
        staleViewId = registry.latestContaining(memberId).map(View::viewId).orElse(-1L);
        registry.announce(host.self());
        markLooking(System.nanoTime());
        state = State.OUT;
        LOG.warn("group '{}': member {} is out of the group ({}); it announced itself again and waits for a view "
            + "that takes it back in", groupName, memberId, reason);
    }

    private void markLooking(final long now)
    {
        host.registry().markOut(host.self(), true);
        lastMarkNs = now;
    }

    /** Keeps this member's announcement and its out mark in the registry while it looks. */
    private void keepLooking(final MembershipRegistry registry, final long now)
    {
        if (++polls % 20 == 0 && registry.announced().stream().noneMatch(m -> m.memberId() == memberId))
        {
            // The old view's leader withdraws removed members when it installs the next view, which can come after
            // this member announced itself again (a network registry re-announces by itself; the others do not).
            registry.announce(host.self());
        }
        if (now - lastMarkNs > MARK_RENEW_NS)
        {
            // Renewed (and restored after a withdrawal) so that a member that stopped looking is never the one
            // chosen to re-form the group (Refounder).
            markLooking(now);
        }
    }

    /** @return the view that takes this member back in (found, formed or re-founded), or null for now. */
    private View viewToJoin(final MembershipRegistry registry, final long now)
    {
        final Optional<View> next = registry.latestContaining(memberId);
        View view = null;
        if (next.isPresent() && next.get().viewId() > staleViewId)
        {
            if (registry.runsNow(next.get()))
            {
                view = next.get();
            }
            else if (unconfirmedSinceNs == 0)
            {
                unconfirmedSinceNs = now;
            }
            else if (now - unconfirmedSinceNs > UNCONFIRMED_VIEW_NS)
            {
                // A view that names this member but that no member it hears runs (its members removed it again,
                // or it is an old one): while the registry holds it, it counts as in a view and stops greeting.
                LOG.debug("group '{}': member {}: nobody it hears runs {}, which names it; looking again", groupName,
                    memberId, next.get());
                unconfirmedSinceNs = 0;
                registry.rediscover();
                registry.announce(host.self());
                return null;
            }
        }
        else if (registry.formsGroup())
        {
            view = new View(1, List.of(host.self()));
            registry.publish("v1", view);
            LOG.warn("group '{}': member {} heard no running group of this name; it formed a new one (view 1), "
                + "which merges with the others once they hear each other", groupName, memberId);
        }
        else
        {
            view = Refounder.found(registry, host.self(), host::mayRun).orElse(null);
            if (view != null)
            {
                LOG.warn("group '{}': no member of the group is in a view any more (every member of its last view is "
                    + "out or gone); member {}, the lowest that looks for it, founded it again: {}", groupName,
                    memberId, view);
            }
        }
        return view;
    }

    private boolean lookForView(final long now)
    {
        final MembershipRegistry registry = host.registry();
        keepLooking(registry, now);
        final View view = viewToJoin(registry, now);
        if (view == null)
        {
            return false;
        }
        // In a view again: a member in a view never has an out mark (a member without one counts as running a group).
        registry.clearOut(memberId);
        LOG.debug("group '{}': member {} is back in the group after {} ms out of it: {}", groupName, memberId,
            TimeUnit.NANOSECONDS.toMillis(now - outSinceNs), view);
        state = State.IN;
        unconfirmedSinceNs = 0;
        host.rejoined(view);
        return true;
    }
}
