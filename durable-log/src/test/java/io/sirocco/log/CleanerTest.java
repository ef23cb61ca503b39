package io.sirocco.log;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.zone.ZoneId;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class CleanerTest
{
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void reclaimsSpaceUnderOverwritesAndKeepsTheNewestVersion()
    {
        final int segments = 8;
        final int segmentBytes = 64 * 1024;
        final LogConfig config = BackupStoreTest.small(SyncPolicy.NONE).secondaryLogSegments(segments)
            .cleanerIntervalNs(1_000_000);
        final ZoneId zone = new ZoneId(77, 0);
        final int keys = 300;
        final int rounds = 160;
        long written = 0;
        try (BackupStore store = BackupStore.open(dir, config, null))
        {
            final ZoneHandle handle = store.createZone(zone);
            long ticket = 0;
            for (int round = 0; round < rounds; round++)
            {
                for (int key = 0; key < keys; key++)
                {
                    final byte[] payload = BackupStoreTest.payload(key, round, 100);
                    store.append(handle, ticket++, key, 1, payload);
                    written += payload.length;
                }
                assertThat(store.segmentBytesOnDisk()).isLessThanOrEqualTo((long)segments * segmentBytes);
            }
            store.flush();
            assertThat(written).isGreaterThan(8L * segments * segmentBytes);
            assertThat(store.cleaner().segmentsCleaned()).isPositive();
            assertThat(store.cleaner().reclaimedBytes()).isPositive();
            final Collected collected = new Collected();
            store.recover(zone, collected);
            assertThat(collected.entries).hasSize(keys);
            for (int key = 0; key < keys; key++)
            {
                assertThat(collected.entries.get(Collected.key(key, 1)))
                    .isEqualTo(BackupStoreTest.payload(key, rounds - 1, 100));
            }
            assertThat(collected.report.damages()).isEmpty();
        }
    }

    @Test
    @Timeout(120)
    void urgentCleaningAloneKeepsAFullLogWritableAndKeepsTheNewestVersion()
    {
        final int segments = 6;
        final LogConfig config = BackupStoreTest.small(SyncPolicy.GROUP).secondaryLogSegments(segments)
            .cleanerEnabled(false);
        final ZoneId zone = new ZoneId(78, 0);
        final int keys = 40;
        final int rounds = 200;
        try (BackupStore store = BackupStore.open(dir, config, null))
        {
            final ZoneHandle handle = store.createZone(zone);
            long ticket = 0;
            for (int round = 0; round < rounds; round++)
            {
                for (int key = 0; key < keys; key++)
                {
                    store.append(handle, ticket++, key, 2, BackupStoreTest.payload(key, round, 300));
                }
                if (round % 50 == 49)
                {
                    store.delete(handle, ticket++, round, 2); // keys 49, 99, ... never existed; 0-39 stay
                }
            }
            assertThat(store.awaitPersisted(handle, ticket - 1, 60_000_000_000L)).isTrue();
            // 2.4 MB of overwrites went through a 384 KiB log with no background cleaner.
            assertThat(store.cleaner().segmentsCleaned()).isPositive();
            final Collected collected = new Collected();
            store.recover(zone, collected);
            assertThat(collected.report.damages()).isEmpty();
            assertThat(collected.entries).hasSize(keys);
            for (int key = 0; key < keys; key++)
            {
                assertThat(collected.entries.get(Collected.key(key, 2)))
                    .isEqualTo(BackupStoreTest.payload(key, rounds - 1, 300));
            }
        }
    }

    @Test
    @Timeout(120)
    void aCleanerWithNothingToGainNeverBurnsEpochs()
    {
        final LogConfig config = BackupStoreTest.small(SyncPolicy.NONE).secondaryLogSegments(8)
            .cleanerActivation(0.05).cleanerPrompt(0.05).cleanerIntervalNs(1_000_000).directThresholdBytes(0);
        final ZoneId zone = new ZoneId(79, 0);
        try (BackupStore store = BackupStore.open(dir, config, null))
        {
            final ZoneHandle handle = store.createZone(zone);
            for (int key = 0; key < 3000; key++) // 300 KB of distinct keys: sealed segments, no garbage
            {
                store.append(handle, key, key, 3, BackupStoreTest.payload(key, 0, 100));
            }
            store.flush();
            final long passesBefore = store.cleaner().passes();
            final int epoch = handle.log().epoch();
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (store.cleaner().passes() < passesBefore + 20)
            {
                assertThat(System.nanoTime() - deadline).as("waiting for 20 cleaner passes").isNegative();
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
            assertThat(handle.log().epoch()).as("epoch after 20 fruitless passes").isEqualTo(epoch);
            assertThat(store.cleaner().segmentsCleaned()).isZero();
            final Collected collected = new Collected();
            store.recover(zone, collected);
            assertThat(collected.entries).hasSize(3000);
        }
    }
}
