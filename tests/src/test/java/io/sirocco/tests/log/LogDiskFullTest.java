package io.sirocco.tests.log;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.log.BackupStore;
import io.sirocco.log.config.LogConfig;
import io.sirocco.log.disk.LogStorageException;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.ZoneHandle;
import io.sirocco.log.zone.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Disk full on a small tmpfs (mounted by the test; needs root): the writer gets a clear error naming the store,
 * the file and the cause, and every entry acknowledged before it is recovered intact once space is freed.
 */
class LogDiskFullTest
{
    @TempDir
    Path dir;

    private Path mount;

    private static int run(final String... command) throws Exception
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            return -1;
        }
        if (process.exitValue() != 0)
        {
            System.err.println(String.join(" ", command) + ": " + output);
        }
        return process.exitValue();
    }

    @AfterEach
    void unmount() throws Exception
    {
        if (mount != null)
        {
            run("umount", "-l", mount.toString());
        }
    }

    @Test
    @Timeout(120)
    void diskFullGivesAClearErrorAndAcknowledgedDataStaysIntact() throws Exception
    {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
            "needs root to mount a 4 MiB tmpfs (running as " + System.getProperty("user.name") + ")");
        final Path target = Files.createDirectories(dir.resolve("tmpfs"));
        Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", target.toString()) == 0,
            "mount -t tmpfs failed (no CAP_SYS_ADMIN in this container?)");
        mount = target;
        final Path ballast = target.resolve("ballast");
        Files.write(ballast, new byte[1 << 20]);
        final LogConfig config = new LogConfig().syncPolicy(SyncPolicy.GROUP).segmentSizeBytes(64 * 1024)
            .secondaryLogSegments(256).writeBufferBytes(64 * 1024).directThresholdBytes(4096)
            .primaryLogSizeBytes(256 * 1024).versionBufferSlots(256).cleanerEnabled(false);
        final Path storeDir = target.resolve("store");
        final ZoneId zone = new ZoneId(0xD15C, 0);
        long acked;
        LogStorageException error = null;
        try (BackupStore store = BackupStore.open(storeDir, config, null))
        {
            final ZoneHandle handle = store.createZone(zone);
            long i = 0;
            try
            {
                for (; i < 1_000_000; i++)
                {
                    store.append(handle, i, i, i, Payloads.of(i));
                    if (i % 256 == 255)
                    {
                        store.awaitPersisted(handle, i, TimeUnit.SECONDS.toNanos(30));
                    }
                }
            }
            catch (final LogStorageException ex)
            {
                error = ex;
            }
            acked = handle.persistedTicket();
            assertThat(error).as("the writer sees the failure").isNotNull();
            assertThat(error.getMessage()).contains(storeDir.toString()).containsIgnoringCase("no space left")
                .contains("acknowledged ones are intact");
            assertThat(acked).isGreaterThan(1000).isLessThan(i);
            assertThat(store.failure()).isNotNull();
        }
        Files.delete(ballast); // the operator frees space and restarts the backup
        try (BackupStore store = BackupStore.open(storeDir, config, null))
        {
            final Recovered recovered = new Recovered();
            store.recover(zone, recovered);
            for (long t = 0; t <= acked; t++)
            {
                assertThat(recovered.entries.get(t)).as("acknowledged entry %d", t).isEqualTo(Payloads.of(t));
            }
            for (final var e : recovered.entries.entrySet())
            {
                assertThat(e.getValue()).isEqualTo(Payloads.of(e.getKey()));
            }
        }
    }
}
