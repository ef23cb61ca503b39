package io.sirocco.multicast;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.view.MembershipRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a joining member comes to its first view: it waits until the registry holds a view containing it, or forms
 * view 1 itself, as the contact that founds the group ({@link MembershipRegistry#announceFounding}: no group ran when
 * it announced) once {@link GroupConfig#initialMembers()} members announced, or when the registry says no running
 * group was found ({@link MembershipRegistry#formsGroup()}). A contact that found a running group joins it. Runs on the thread calling
 * {@link Group#join}, before the predicate thread starts; holds no state.
 */
final class FirstView
{
    private static final Logger LOG = LoggerFactory.getLogger(FirstView.class);

    private FirstView()
    {
    }

    /**
     * Announces the joining member. A contact founds the group only if none runs: the registry decides it atomically
     * with the announcement ({@link MembershipRegistry#announceFounding}), so contacts started at the same instant found
     * one group, not one each; a founding contact that needs no other member publishes view 1 at once.
     *
     * @param mayRun false only for a member that surely no longer runs.
     * @return true if this member founds the group.
     */
    static boolean announce(final GroupConfig config, final MembershipRegistry registry, final Member self,
        final Predicate<Member> mayRun)
    {
        if (!config.contact())
        {
            registry.announce(self);
            return false;
        }
        return registry.announceFounding(self, config.initialMembers() <= 1 ? new View(1, List.of(self)) : null,
            mayRun);
    }

    /**
     * @param founds     this member founds the group ({@link MembershipRegistry#announceFounding} said so).
     * @param self       this member's current record.
     * @param deadlineNs when to give up ({@link System#nanoTime()} clock).
     * @return the first view containing this member, or null when none came by the deadline.
     */
    static View await(final GroupConfig config, final boolean founds, final MembershipRegistry registry,
        final Supplier<Member> self, final long deadlineNs)
    {
        while (true)
        {
            final Optional<View> v = registry.latestContaining(config.memberId());
            if (v.isPresent())
            {
                return v.get();
            }
            final View formed = founds ? formAsContact(config, registry, self)
                : config.contact() ? null : formAlone(config, registry, self);
            if (formed != null)
            {
                return formed;
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                return null;
            }
            try
            {
                Thread.sleep(2);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The contact forms view 1 of itself and the first announced members, once enough announced. */
    private static View formAsContact(final GroupConfig config, final MembershipRegistry registry,
        final Supplier<Member> self)
    {
        final List<Member> announced = registry.announced();
        if (announced.size() < config.initialMembers())
        {
            return null;
        }
        final List<Member> ms = new ArrayList<>();
        ms.add(self.get());
        for (final Member m : announced)
        {
            if (m.memberId() != config.memberId() && ms.size() < config.initialMembers())
            {
                ms.add(m);
            }
        }
        final View first = new View(1, ms);
        registry.publish("v1", first);
        return first;
    }

    /** A member that found no running group forms one alone, when the registry says so. */
    private static View formAlone(final GroupConfig config, final MembershipRegistry registry,
        final Supplier<Member> self)
    {
        if (!registry.formsGroup())
        {
            return null;
        }
        final View first = new View(1, List.of(self.get()));
        registry.publish("v1", first);
        LOG.debug("member {}: no running group '{}' found through the registry; formed view 1", config.memberId(),
            config.groupName());
        return first;
    }
}
