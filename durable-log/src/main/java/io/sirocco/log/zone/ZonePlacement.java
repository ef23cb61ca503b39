package io.sirocco.log.zone;

import java.util.List;
import java.util.SortedSet;


/**
 * Chooses a zone's ordered backup list. Deterministic: a function of the zone, its owner and the membership only,
 * so every member computes the same placement without asking anyone.
 */
public interface ZonePlacement
{
    /**
     * The ordered backups of {@code zone} (backup #1 first). Never contains the owner. Returns fewer than
     * {@code replicationFactor} members when the membership is too small.
     */
    List<Integer> backups(ZoneId zone, int owner, SortedSet<Integer> members, int replicationFactor);

    /**
     * Restores the replication factor after failures: keeps the live backups of {@code current} in their order and
     * appends new ones (chosen as {@link #backups} would, from live members not already used).
     */
    default List<Integer> repair(final ZoneId zone, final int owner, final List<Integer> current,
        final SortedSet<Integer> live, final int replicationFactor)
    {
        final java.util.ArrayList<Integer> result = new java.util.ArrayList<>();
        for (final Integer member : current)
        {
            if (live.contains(member) && member != owner)
            {
                result.add(member);
            }
        }
        if (result.size() >= replicationFactor)
        {
            return result;
        }
        final java.util.TreeSet<Integer> candidates = new java.util.TreeSet<>(live);
        candidates.removeAll(result);
        candidates.remove(owner);
        final java.util.TreeSet<Integer> withOwner = new java.util.TreeSet<>(candidates);
        withOwner.add(owner);
        for (final Integer member : backups(zone, owner, withOwner, replicationFactor))
        {
            if (result.size() >= replicationFactor)
            {
                break;
            }
            if (!result.contains(member))
            {
                result.add(member);
            }
        }
        return result;
    }

    /** Seeded mixing shared by the placements (SplitMix64 finalizer). */
    static long mix(final long... values)
    {
        long h = 0x243F_6A88_85A3_08D3L;
        for (final long v : values)
        {
            h += v * 0x9E37_79B9_7F4A_7C15L;
            h = (h ^ (h >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
            h = (h ^ (h >>> 27)) * 0x94D0_49BB_1331_11EBL;
            h ^= h >>> 31;
        }
        return h;
    }
}
