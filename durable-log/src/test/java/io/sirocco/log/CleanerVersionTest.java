package io.sirocco.log;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.zone.ZoneId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regression tests for the failure of {@code RecoveryPropertyTest} with seed 6166647996241477233: after a restart
 * the version buffer of the last epoch is gone, so the version log the cleaner compacts with does not know the
 * newest versions written in that epoch. The cleaner then took the key's older, logged version for the newest,
 * dropped the real newest version (or tombstone) from a sealed segment and kept the older one: an overwritten key
 * came back with old bytes and a deleted key came back. The cleaner passes run at known points (background cleaner
 * disabled, {@link BackupStore#cleanZone}); every batch goes straight to the secondary log
 * ({@code directThresholdBytes=0}), so no primary-log replay hides the loss.
 */
class CleanerVersionTest
{
    private static final ZoneId ZONE = new ZoneId(0xABCDL, 0);
    private static final long KEPT = 0x1111L;
    private static final long OVERWRITTEN = 0x2222L;
    private static final long DELETED = 0x3333L;

    @TempDir
    Path dir;

    private static LogConfig config()
    {
        return BackupStoreTest.small(SyncPolicy.GROUP).directThresholdBytes(0).cleanerEnabled(false)
            .cleanerMinGarbage(0.0);
    }

    /** Epoch 0: three keys; the clean close records them in the version log and ends the epoch. */
    private void firstEpoch(final Path where)
    {
        try (BackupStore store = BackupStore.open(where, config(), null))
        {
            final ZoneHandle zone = store.createZone(ZONE);
            store.append(zone, 0, KEPT, 1, BackupStoreTest.payload(KEPT, 0, 300));
            store.append(zone, 1, OVERWRITTEN, 2, BackupStoreTest.payload(OVERWRITTEN, 0, 300));
            store.append(zone, 2, DELETED, 3, BackupStoreTest.payload(DELETED, 0, 300));
        }
    }

    /** The next epoch: an overwrite and a delete, known only to the version buffer. */
    private static void secondEpoch(final BackupStore store, final ZoneHandle zone)
    {
        store.append(zone, 3, OVERWRITTEN, 2, BackupStoreTest.payload(OVERWRITTEN, 1, 300));
        store.delete(zone, 4, DELETED, 3);
        store.flush();
    }

    private static void assertNewest(final BackupStore store)
    {
        final Collected collected = new Collected();
        store.recover(ZONE, collected);
        assertThat(collected.report.damages()).isEmpty();
        assertThat(collected.entries.keySet()).containsExactlyInAnyOrder(Collected.key(KEPT, 1),
            Collected.key(OVERWRITTEN, 2));
        assertThat(collected.entries.get(Collected.key(KEPT, 1))).isEqualTo(BackupStoreTest.payload(KEPT, 0, 300));
        assertThat(collected.entries.get(Collected.key(OVERWRITTEN, 2)))
            .isEqualTo(BackupStoreTest.payload(OVERWRITTEN, 1, 300));
    }

    @Test
    @Timeout(60)
    void cleanerAfterACrashKeepsVersionsTheVersionLogNeverSaw() throws IOException
    {
        final Path live = dir.resolve("live");
        final Path copy = dir.resolve("crashed");
        firstEpoch(live);
        try (BackupStore store = BackupStore.open(live, config(), null))
        {
            secondEpoch(store, store.createZone(ZONE));
            // The files as a crash right now leaves them: data synced, version buffer of this epoch lost.
            copyTree(live, copy);
        }
        try (BackupStore store = BackupStore.open(copy, config(), null))
        {
            store.cleanZone(ZONE);
            assertThat(store.cleaner().segmentsCleaned()).as("the pass had something to judge").isPositive();
            assertNewest(store);
        }
    }

    @Test
    @Timeout(60)
    void cleanerAfterACleanRestartKeepsTheNewestVersions()
    {
        firstEpoch(dir);
        try (BackupStore store = BackupStore.open(dir, config(), null))
        {
            secondEpoch(store, store.createZone(ZONE));
        }
        try (BackupStore store = BackupStore.open(dir, config(), null))
        {
            store.cleanZone(ZONE);
            assertNewest(store);
            assertThat(store.cleaner().segmentsCleaned()).isPositive();
        }
    }

    @Test
    @Timeout(60)
    void cleanerDuringWritesDropsOnlyOlderVersions()
    {
        final long filler = 0x4444L;
        firstEpoch(dir);
        try (BackupStore store = BackupStore.open(dir, config(), null))
        {
            final ZoneHandle zone = store.createZone(ZONE);
            secondEpoch(store, zone);
            long ticket = 5;
            for (int version = 0; version < 300; version++) // 90 KB of overwrites seal the first 64 KiB segment
            {
                store.append(zone, ticket++, filler, 4, BackupStoreTest.payload(filler, version, 300));
            }
            store.delete(zone, ticket, filler, 4);
            store.flush();
            final long reclaimed = store.cleanZone(ZONE) + store.cleanZone(ZONE);
            assertThat(reclaimed).isPositive();
            assertNewest(store);
        }
    }

    private static void copyTree(final Path from, final Path to) throws IOException
    {
        try (Stream<Path> walk = Files.walk(from))
        {
            for (final Path path : (Iterable<Path>)walk::iterator)
            {
                final Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path))
                {
                    Files.createDirectories(target);
                }
                else
                {
                    Files.copy(path, target);
                }
            }
        }
    }
}
