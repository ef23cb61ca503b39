package io.sirocco.log.zone;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * A placement that picks backups only among the members that hold backup stores: the log's membership also lists
 * members that only own zones (a DDS participant that writes durable topics but opted out of holding backups), and
 * those must never be chosen. Stateless apart from the delegate; thread-safe if the predicate is.
 */
public final class EligiblePlacement implements ZonePlacement
{
    private final ZonePlacement delegate;
    private final IntPredicate eligible;

    /**
     * @param delegate the placement among eligible members (random or copysets).
     * @param eligible whether a member holds a backup store.
     */
    public EligiblePlacement(final ZonePlacement delegate, final IntPredicate eligible)
    {
        this.delegate = delegate;
        this.eligible = eligible;
    }

    @Override
    public List<Integer> backups(final ZoneId zone, final int owner, final SortedSet<Integer> members,
        final int replicationFactor)
    {
        return delegate.backups(zone, owner, only(members), replicationFactor);
    }

    @Override
    public List<Integer> repair(final ZoneId zone, final int owner, final List<Integer> current,
        final SortedSet<Integer> members, final int replicationFactor)
    {
        return delegate.repair(zone, owner, current, only(members), replicationFactor);
    }

    private SortedSet<Integer> only(final SortedSet<Integer> members)
    {
        final TreeSet<Integer> result = new TreeSet<>();
        for (final int member : members)
        {
            if (eligible.test(member))
            {
                result.add(member);
            }
        }
        return result;
    }
}
