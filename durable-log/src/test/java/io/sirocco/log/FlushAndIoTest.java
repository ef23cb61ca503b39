package io.sirocco.log;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.zone.ZoneId;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.log.disk.DiskAccess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write buffer is flushed by size or by time without anyone asking (policy none), and the logs read back the
 * same through O_DIRECT and through the buffered fallback.
 */
class FlushAndIoTest
{
    private static final ZoneId A = new ZoneId(5, 0);
    private static final ZoneId B = new ZoneId(5, 1);

    @TempDir
    Path dir;

    private static void await(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean())
        {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(1_000_000);
        }
    }

    @Test
    @Timeout(120)
    void aFullHalfIsFlushedAtOnceAndTheRestWaitsForItsTrigger()
    {
        // The time trigger is an hour away: only the size trigger can write anything during this test.
        final LogConfig config = BackupStoreTest.small(SyncPolicy.NONE).directThresholdBytes(0)
            .flushIntervalNs(TimeUnit.HOURS.toNanos(1)).cleanerEnabled(false);
        try (BackupStore store = BackupStore.open(dir, config, null))
        {
            final ZoneHandle a = store.createZone(A);
            final ZoneHandle b = store.createZone(B);
            final int entries = 600; // 600 x (100 B + 37 B record header) > one 64 KiB half, < two
            for (int i = 0; i < entries; i++)
            {
                store.append(i % 2 == 0 ? a : b, i / 2, i, i, BackupStoreTest.payload(i, 0, 100));
            }
            await("the sealed half on disk", () -> store.segmentBytesOnDisk() > 0);
            final long sizeFlushed = store.segmentBytesOnDisk();
            store.flush();
            assertThat(store.segmentBytesOnDisk()).as("the unsealed half stayed in memory until flush()")
                .isGreaterThan(sizeFlushed).isGreaterThanOrEqualTo(entries * 100L);
        }
    }

    @Test
    @Timeout(120)
    void policyNoneFlushesByTimeWithoutAnyCall()
    {
        final LogConfig config = BackupStoreTest.small(SyncPolicy.NONE).directThresholdBytes(0)
            .flushIntervalNs(TimeUnit.MILLISECONDS.toNanos(20)).cleanerEnabled(false);
        try (BackupStore store = BackupStore.open(dir, config, null))
        {
            final ZoneHandle a = store.createZone(A);
            for (int i = 0; i < 10; i++)
            {
                store.append(a, i, i, i, BackupStoreTest.payload(i, 0, 50));
            }
            await("the time-triggered flush", () -> store.segmentBytesOnDisk() >= 10 * 50L);
        }
    }

    @Test
    @Timeout(120)
    void directAndBufferedIoLogTheSameEntries()
    {
        for (final boolean direct : new boolean[] {true, false})
        {
            final Path where = dir.resolve(direct ? "direct" : "buffered");
            final LogConfig config = BackupStoreTest.small(SyncPolicy.GROUP).directIo(direct);
            try (BackupStore store = BackupStore.open(where, config, null))
            {
                if (!direct)
                {
                    assertThat(store.directIo()).isFalse();
                }
                final ZoneHandle a = store.createZone(A);
                for (int i = 0; i < 3000; i++)
                {
                    store.append(a, i, i % 700, 1, BackupStoreTest.payload(i, 0, 10 + i % 500));
                }
            }
            try (BackupStore store = BackupStore.open(where, config, null))
            {
                final Collected collected = new Collected();
                store.recover(A, collected);
                assertThat(collected.report.damages()).isEmpty();
                assertThat(collected.entries).hasSize(700);
                for (int key = 0; key < 700; key++)
                {
                    final int last = key + 700 * ((2999 - key) / 700);
                    assertThat(collected.entries.get(Collected.key(key, 1)))
                        .isEqualTo(BackupStoreTest.payload(last, 0, 10 + last % 500));
                }
            }
        }
    }

    @Test
    void aDirectoryThatRefusesTheProbeFallsBackToBufferedIo() throws IOException
    {
        assertThat(DiskAccess.probe(dir.resolve("no-such-directory"), true).direct()).isFalse();
        assertThat(DiskAccess.probe(dir, false).direct()).isFalse();
    }
}
