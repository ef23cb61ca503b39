package io.sirocco.examples.cli.perf;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.sirocco.multicast.Group;
import io.sirocco.multicast.MembershipListener;
import io.sirocco.multicast.model.View;
import io.sirocco.pubsub.bus.group.GroupBus;
import io.sirocco.pubsub.domain.ParticipantImpl;
import org.omg.dds.domain.DomainParticipant;

/**
 * Counts how often the domain's group excluded a participant, for the perf commands' exit code
 * ({@code ExitCodes.EXCLUDED}). The OMG API has no status for it (a reader only sees its writers go away, as when
 * they close), so this one class reaches into Sirocco's implementation: the participant's bus, and the group's
 * membership events. A participant on a transport without a group ({@code local}) is never excluded.
 *
 * <p>Threads: {@link #onExcluded} runs on the group's predicate thread; {@link #count} on any thread.
 */
final class GroupExclusions implements MembershipListener
{
    private final AtomicInteger exclusions = new AtomicInteger();
    /** The participant's group, or null on a transport without one. */
    private final Group group;

    private GroupExclusions(final Group group)
    {
        this.group = group;
    }

    /** Starts counting the exclusions of {@code participant} from now on. */
    static GroupExclusions watch(final DomainParticipant participant)
    {
        final Group group = participant instanceof ParticipantImpl impl && impl.bus() instanceof GroupBus bus
            ? bus.group() : null;
        final GroupExclusions watcher = new GroupExclusions(group);
        if (group != null)
        {
            group.addMembershipListener(watcher);
        }
        return watcher;
    }

    /**
     * The exclusions so far. The group sets its exclusion before it calls the listeners, the bus's first (which tells
     * the readers their writers are gone), so a command that ends on that news may ask before {@link #onExcluded}
     * ran: a current exclusion counts as one.
     */
    int count()
    {
        final int counted = exclusions.get();
        return group != null && group.exclusion() != null ? Math.max(1, counted) : counted;
    }

    @Override
    public void onViewInstalled(final View view, final List<Long> joined, final List<Long> left)
    {
        // Views come and go in a healthy run; only the exclusion of this member counts.
    }

    @Override
    public void onExcluded(final String reason)
    {
        exclusions.incrementAndGet();
    }
}
