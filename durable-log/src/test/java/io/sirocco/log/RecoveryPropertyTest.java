package io.sirocco.log;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.zone.ZoneId;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random puts, overwrites and deletes across zones, then recovery (with or without a restart, with an eager
 * cleaner): the newest version of every live key comes back byte-exact, and no deleted key comes back.
 */
class RecoveryPropertyTest
{
    record Op(int zone, int key, boolean delete, int length)
    {
    }

    @Provide
    Arbitrary<List<Op>> operations()
    {
        final Arbitrary<Op> op = Combinators.combine(
            Arbitraries.integers().between(0, 2),
            Arbitraries.integers().between(0, 60),
            Arbitraries.integers().between(0, 9).map(n -> n == 0),
            Arbitraries.integers().between(0, 700)).as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(1500);
    }

    @Property(tries = 25)
    void newestVersionSurvivesAndDeletesStayDeleted(
        @ForAll("operations") final List<Op> ops,
        @ForAll final boolean restart,
        @ForAll final SyncPolicy policy) throws Exception
    {
        final Path dir = Files.createTempDirectory("log-prop");
        try
        {
            final LogConfig config = BackupStoreTest.small(policy).secondaryLogSegments(6)
                .cleanerActivation(0.05).cleanerPrompt(0.10).cleanerIntervalNs(1_000_000).cleanerMinGarbage(0.0);
            final Map<Integer, Map<String, byte[]>> model = new HashMap<>();
            final ZoneId[] ids = {new ZoneId(0xABCDL, 0), new ZoneId(0xABCDL, 1), new ZoneId(42, 0)};
            final int[] versions = new int[3 * 61];
            try (BackupStore store = BackupStore.open(dir, config, null))
            {
                final ZoneHandle[] zones = new ZoneHandle[3];
                for (int z = 0; z < 3; z++)
                {
                    zones[z] = store.createZone(ids[z]);
                    model.put(z, new HashMap<>());
                }
                long ticket = 0;
                for (final Op op : ops)
                {
                    final long keyHash = op.key() * 0x9E3779B97F4A7C15L;
                    final long sequence = op.key() % 7;
                    final String key = Collected.key(keyHash, sequence);
                    if (op.delete())
                    {
                        store.delete(zones[op.zone()], ticket++, keyHash, sequence);
                        model.get(op.zone()).remove(key);
                    }
                    else
                    {
                        final byte[] payload = BackupStoreTest.payload(op.key(), versions[op.zone() * 61 + op.key()]++,
                            op.length());
                        store.append(zones[op.zone()], ticket++, keyHash, sequence, payload);
                        model.get(op.zone()).put(key, payload);
                    }
                }
                if (!restart)
                {
                    check(store, ids, model);
                }
            }
            if (restart)
            {
                try (BackupStore store = BackupStore.open(dir, config, null))
                {
                    check(store, ids, model);
                }
            }
        }
        finally
        {
            try (Stream<Path> walk = Files.walk(dir))
            {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void check(final BackupStore store, final ZoneId[] ids, final Map<Integer, Map<String, byte[]>> model)
    {
        for (int z = 0; z < 3; z++)
        {
            final Collected collected = new Collected();
            store.recover(ids[z], collected);
            assertThat(collected.report.damages()).isEmpty();
            assertThat(collected.duplicates).isZero();
            assertThat(collected.entries.keySet()).containsExactlyInAnyOrderElementsOf(model.get(z).keySet());
            for (final Map.Entry<String, byte[]> e : model.get(z).entrySet())
            {
                assertThat(Arrays.equals(collected.entries.get(e.getKey()), e.getValue()))
                    .as("newest version of %s in zone %d", e.getKey(), z).isTrue();
            }
        }
    }
}
