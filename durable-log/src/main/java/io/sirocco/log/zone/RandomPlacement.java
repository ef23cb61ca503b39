package io.sirocco.log.zone;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.SplittableRandom;


/**
 * Random backups with a disjunctive first backup (thesis §1.4): consecutive zones of one writer get different first
 * backups, cycling through every other member before one repeats, which spreads recovery (run by first backups)
 * over as many members as possible. The rest are drawn from a PRNG seeded by (owner, writer, zone index).
 * Stateless and thread-safe.
 */
public final class RandomPlacement implements ZonePlacement
{
    @Override
    public List<Integer> backups(final ZoneId zone, final int owner, final SortedSet<Integer> members,
        final int replicationFactor)
    {
        final List<Integer> candidates = new ArrayList<>(members);
        candidates.remove(Integer.valueOf(owner));
        final List<Integer> result = new ArrayList<>();
        if (candidates.isEmpty())
        {
            return result;
        }
        final int start = (int)Math.floorMod(ZonePlacement.mix(owner, zone.writerId()), (long)candidates.size());
        result.add(candidates.remove((start + zone.zoneIndex()) % candidates.size()));
        final SplittableRandom random = new SplittableRandom(ZonePlacement.mix(owner, zone.writerId(),
            zone.zoneIndex()));
        while (result.size() < replicationFactor && !candidates.isEmpty())
        {
            result.add(candidates.remove(random.nextInt(candidates.size())));
        }
        return result;
    }
}
