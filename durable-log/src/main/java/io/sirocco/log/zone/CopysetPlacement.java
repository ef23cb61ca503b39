package io.sirocco.log.zone;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.SplittableRandom;


/**
 * Copyset placement (Cidon et al., as adapted in thesis §1.4): P = ceil(S / (R - 1)) permutations of the members
 * are cut into groups of R; a zone's first backup is chosen disjunctively (as {@link RandomPlacement}) and the
 * others come from one copyset holding it. Each member computes the copysets itself from the membership with a
 * PRNG seeded by the members' ids, so all agree. With fewer than R + 1 members it degrades to random placement.
 *
 * <p>Simplification: copysets are recomputed from the whole membership (the thesis adds joiners in groups of R and
 * replaces a failed member in place); documented in docs/durable-log.md. Stateless and thread-safe.
 */
public final class CopysetPlacement implements ZonePlacement
{
    private final int scatterWidth;
    private final RandomPlacement fallback = new RandomPlacement();

    public CopysetPlacement(final int scatterWidth)
    {
        if (scatterWidth < 1)
        {
            throw new IllegalArgumentException("scatterWidth must be >= 1: " + scatterWidth);
        }
        this.scatterWidth = scatterWidth;
    }

    /** The copysets of a membership, each of {@code replicationFactor} members. */
    public List<List<Integer>> copysets(final SortedSet<Integer> members, final int replicationFactor)
    {
        final List<Integer> all = new ArrayList<>(members);
        final int permutations = (scatterWidth + replicationFactor - 2) / Math.max(1, replicationFactor - 1);
        long seed = 0;
        for (final int member : all)
        {
            seed = ZonePlacement.mix(seed, member);
        }
        final List<List<Integer>> copysets = new ArrayList<>();
        for (int p = 0; p < Math.max(1, permutations); p++)
        {
            final List<Integer> permutation = new ArrayList<>(all);
            Collections.shuffle(permutation, new java.util.Random(ZonePlacement.mix(seed, p)));
            for (int i = 0; i < permutation.size(); i += replicationFactor)
            {
                final List<Integer> group = new ArrayList<>();
                for (int k = 0; k < replicationFactor; k++)
                {
                    // The last group is completed from the start of the permutation.
                    group.add(permutation.get((i + k) % permutation.size()));
                }
                copysets.add(group);
            }
        }
        return copysets;
    }

    @Override
    public List<Integer> backups(final ZoneId zone, final int owner, final SortedSet<Integer> members,
        final int replicationFactor)
    {
        final List<Integer> first = fallback.backups(zone, owner, members, 1);
        if (first.isEmpty() || members.size() < replicationFactor + 1)
        {
            return fallback.backups(zone, owner, members, replicationFactor);
        }
        final int primary = first.get(0);
        final List<List<Integer>> holding = new ArrayList<>();
        for (final List<Integer> copyset : copysets(members, replicationFactor))
        {
            if (copyset.contains(primary) && !copyset.contains(owner))
            {
                holding.add(copyset);
            }
        }
        final SplittableRandom random = new SplittableRandom(ZonePlacement.mix(owner, zone.writerId(),
            zone.zoneIndex(), 17));
        final List<Integer> result = new ArrayList<>();
        result.add(primary);
        if (!holding.isEmpty())
        {
            for (final Integer member : holding.get(random.nextInt(holding.size())))
            {
                if (member != primary)
                {
                    result.add(member);
                }
            }
            return result;
        }
        // Every copyset with the primary also holds the owner: take one and replace the owner deterministically.
        for (final List<Integer> copyset : copysets(members, replicationFactor))
        {
            if (copyset.contains(primary))
            {
                for (final Integer member : copyset)
                {
                    if (member != primary && member != owner && !result.contains(member))
                    {
                        result.add(member);
                    }
                }
                break;
            }
        }
        final List<Integer> rest = new ArrayList<>(members);
        rest.removeAll(result);
        rest.remove(Integer.valueOf(owner));
        while (result.size() < replicationFactor && !rest.isEmpty())
        {
            result.add(rest.remove(random.nextInt(rest.size())));
        }
        return result;
    }
}
