package io.sirocco.log;

import io.sirocco.log.zone.ZoneId;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.sirocco.log.zone.CopysetPlacement;
import io.sirocco.log.zone.RandomPlacement;
import io.sirocco.log.zone.ZoneAssigner;

import static org.assertj.core.api.Assertions.assertThat;

class PlacementTest
{
    private static final TreeSet<Integer> MEMBERS = new TreeSet<>(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9));

    @Test
    void randomPlacementIsDeterministicExcludesTheOwnerAndCyclesFirstBackups()
    {
        final RandomPlacement placement = new RandomPlacement();
        final Set<Integer> firsts = new HashSet<>();
        for (int zone = 0; zone < 8; zone++)
        {
            final ZoneId id = new ZoneId(42, zone);
            final List<Integer> backups = placement.backups(id, 5, MEMBERS, 3);
            assertThat(backups).hasSize(3).doesNotHaveDuplicates().doesNotContain(5);
            assertThat(placement.backups(id, 5, new TreeSet<>(MEMBERS), 3)).isEqualTo(backups);
            firsts.add(backups.get(0));
        }
        assertThat(firsts).as("disjunctive first backups over 8 other members").hasSize(8);
    }

    @Test
    void copysetPlacementUsesFewCopysetsAndIsDeterministic()
    {
        final CopysetPlacement placement = new CopysetPlacement(4);
        final List<List<Integer>> copysets = placement.copysets(MEMBERS, 3);
        assertThat(copysets).hasSize(2 * 3);
        assertThat(placement.copysets(new TreeSet<>(MEMBERS), 3)).isEqualTo(copysets);
        final Set<Set<Integer>> used = new HashSet<>();
        for (int zone = 0; zone < 50; zone++)
        {
            final List<Integer> backups = placement.backups(new ZoneId(7, zone), 1, MEMBERS, 3);
            assertThat(backups).hasSize(3).doesNotHaveDuplicates().doesNotContain(1);
            used.add(new HashSet<>(backups));
        }
        assertThat(used.size()).as("distinct backup sets (random would use far more)").isLessThanOrEqualTo(12);
    }

    @Test
    void repairKeepsLiveBackupsInOrderAndRestoresTheFactor()
    {
        final RandomPlacement placement = new RandomPlacement();
        final ZoneId zone = new ZoneId(3, 0);
        final TreeSet<Integer> live = new TreeSet<>(MEMBERS);
        live.remove(2);
        final List<Integer> repaired = placement.repair(zone, 9, List.of(4, 2, 6), live, 3);
        assertThat(repaired).hasSize(3).startsWith(4, 6).doesNotContain(2, 9);
    }

    @Test
    void zoneAssignerOpensTheNextZoneAtTheSizeLimit()
    {
        final ZoneAssigner assigner = new ZoneAssigner(5, 1000);
        assertThat(assigner.zoneForNew(600)).isEqualTo(new ZoneId(5, 0));
        assertThat(assigner.zoneForNew(400)).isEqualTo(new ZoneId(5, 0));
        assertThat(assigner.zoneForNew(1)).isEqualTo(new ZoneId(5, 1));
        assertThat(assigner.openedNewZone()).isTrue();
    }
}
