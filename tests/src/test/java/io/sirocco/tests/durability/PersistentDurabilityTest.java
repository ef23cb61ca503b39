package io.sirocco.tests.durability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.sirocco.log.zone.ZoneId;
import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DURABILITY PERSISTENT over shared memory, one process per participant: three backup participants, each with its
 * own data directory ({@code sirocco.durable.data.dir}); a PERSISTENT writer's {@code waitForAcknowledgments}
 * returns once its samples are synced in the zone's disk store on every backup; its process is then SIGKILLed, and a
 * late-joining PERSISTENT reader process gets exactly the acknowledged samples, in order, none twice, compared by
 * SHA-256 with the writer's; the same after every process of the domain was SIGKILLed and the backups restarted
 * with their data directories.
 */
@Timeout(400)
class PersistentDurabilityTest
{
    private static final int SAMPLES = 3000;
    private static final List<String> SHM = List.of("-Dsirocco.dds.transport=shm", "-Dsirocco.dds.interface=lo",
        "-Dsirocco.dds.suspicion.ms=15000", ChildJvm.QUICK_START, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    @TempDir
    Path dataDirs;

    @Test
    void lateJoinerGetsExactlyTheAcknowledgedSamplesOfAKilledPublisher() throws Exception
    {
        publisherKilledLateJoinerGetsHistory("211", false);
    }

    /**
     * Every process of the domain is SIGKILLed after the acknowledgment (power off); the three backups restart with
     * the same data directories, and a late reader gets the history again, by digest.
     */
    @Test
    void fullDomainRestartServesTheHistoryAgain() throws Exception
    {
        publisherKilledLateJoinerGetsHistory("212", true);
    }

    private void publisherKilledLateJoinerGetsHistory(final String domain, final boolean restartAll)
        throws Exception
    {
        final List<ChildProcess> all = new ArrayList<>();
        try
        {
            final List<ChildProcess> backups = startBackups(domain, "", all);
            final ChildProcess writer = start("writer", SHM, PersistentNode.class, "writer", domain,
                String.valueOf(SAMPLES));
            all.add(writer);
            final String acked = writer.await(l -> l.startsWith("ACKED ") || l.startsWith("NOT_ACKED"), 120);
            assertThat(acked).startsWith("ACKED " + SAMPLES + " ");
            final String digest = acked.split(" ")[2];
            for (int b = 1; b <= 3; b++)
            {
                assertThat(persistentZones(dataDirs.resolve("b" + b)))
                    .as("backup %d holds the writer's zone in its data directory", b).hasSize(1);
            }
            writer.kill();
            final List<ChildProcess> serving;
            if (restartAll)
            {
                for (final ChildProcess backup : backups)
                {
                    backup.kill();
                }
                serving = startBackups(domain, "-again", all);
            }
            else
            {
                serving = backups;
            }
            awaitRecovered(serving, SAMPLES);
            final ChildProcess late = start("late", SHM, PersistentNode.class, "reader", domain,
                String.valueOf(SAMPLES));
            all.add(late);
            assertThat(late.await(l -> l.startsWith("COMPLETE ") || l.startsWith("BROKEN"), 120))
                .as("the late reader got exactly the acknowledged samples, by digest")
                .isEqualTo("COMPLETE " + SAMPLES + " " + digest);
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + "\nprocesses:" + ChildProcess.tails(30,
                all.toArray(ChildProcess[]::new)), ex);
        }
        finally
        {
            for (final ChildProcess p : all)
            {
                p.close();
            }
        }
    }

    private List<ChildProcess> startBackups(final String domain, final String suffix, final List<ChildProcess> all)
        throws Exception
    {
        final List<ChildProcess> backups = new ArrayList<>();
        for (int b = 1; b <= 3; b++)
        {
            final ChildProcess backup = startBackup("backup" + b + suffix, domain, dataDirs.resolve("b" + b));
            backups.add(backup);
            all.add(backup);
        }
        return backups;
    }

    /** The PERSISTENT zone directories under a backup's data directory. */
    static List<Path> persistentZones(final Path dataDir) throws IOException
    {
        if (!Files.isDirectory(dataDir))
        {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dataDir))
        {
            return files.filter(p -> Files.isDirectory(p) && p.getFileName().toString().startsWith("zone-")
                && ZoneId.parseDirectoryName(p.getFileName().toString()) != null
                && ZoneId.parseDirectoryName(p.getFileName().toString()).persistent()).toList();
        }
    }

    static ChildProcess startBackup(final String name, final String domain, final Path dataDir) throws Exception
    {
        final List<String> jvm = Stream.concat(SHM.stream(), Stream.of("-Dsirocco.dds.durability.backup=true",
            "-Dsirocco.durable.data.dir=" + dataDir)).toList();
        return start(name, jvm, DurableNode.class, "backup", domain);
    }

    /** Waits (bounded) until one backup printed that it recovered {@code count} samples of the writer. */
    static void awaitRecovered(final List<ChildProcess> backups, final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() - deadline < 0)
        {
            for (final ChildProcess backup : backups)
            {
                if (backup.lines().stream().anyMatch(l -> l.startsWith("RECOVERED ")))
                {
                    assertThat(backup.lines().stream().filter(l -> l.startsWith("RECOVERED ")).findFirst().get()
                        .split(" ")[2]).as("samples recovered").isEqualTo(String.valueOf(count));
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no backup recovered the writer's zone within 120 s");
    }

    static ChildProcess start(final String name, final List<String> jvm, final Class<?> main, final String... args)
        throws Exception
    {
        final ChildProcess child = new ChildProcess(name, main, jvm, args);
        child.await(l -> l.equals("JOINED"), 120);
        return child;
    }
}
