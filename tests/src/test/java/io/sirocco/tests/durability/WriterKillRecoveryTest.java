package io.sirocco.tests.durability;

import java.util.List;
import java.util.stream.Stream;

import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A TRANSIENT writer's process is SIGKILLed after its samples were acknowledged by the backups: the multicast view
 * change that removes it is what starts the failover (nothing is fed by hand), and the zone's first live backup
 * recovers exactly the acknowledged samples, sequence numbers 1..N, compared by digest with what the writer wrote.
 * Three backup processes and the writer, over shared memory. The backup reports what it recovered through its
 * durability node; DeadWriterHistoryTest shows readers receiving it.
 */
@Timeout(300)
class WriterKillRecoveryTest
{
    private static final int SAMPLES = 3000;
    private static final List<String> PLAIN = List.of("-Dsirocco.dds.transport=shm", "-Dsirocco.dds.interface=lo",
        "-Dsirocco.dds.suspicion.ms=15000", ChildJvm.QUICK_START, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    private static final List<String> BACKUP = Stream.concat(PLAIN.stream(),
        Stream.of("-Dsirocco.dds.durability.backup=true")).toList();

    @Test
    void killedWritersAcknowledgedHistoryIsRecoveredByABackup() throws Exception
    {
        final String domain = "226";
        try (ChildProcess backup1 = start("backup1", BACKUP, "backup", domain);
             ChildProcess backup2 = start("backup2", BACKUP, "backup", domain);
             ChildProcess backup3 = start("backup3", BACKUP, "backup", domain);
             ChildProcess writer = start("writer", PLAIN, "writer", domain, String.valueOf(SAMPLES)))
        {
            try
            {
                final String acked = writer.await(l -> l.startsWith("ACKED ") || l.startsWith("NOT_ACKED"), 120);
                assertThat(acked).startsWith("ACKED " + SAMPLES + " ");
                final String digest = acked.split(" ")[2];
                final long killNs = System.nanoTime();
                writer.kill();
                final String[] recovered = new String[1];
                final long deadline = System.nanoTime() + 120_000_000_000L;
                while (recovered[0] == null && System.nanoTime() - deadline < 0)
                {
                    for (final ChildProcess backup : List.of(backup1, backup2, backup3))
                    {
                        backup.lines().stream().filter(l -> l.startsWith("RECOVERED ")).findFirst()
                            .ifPresent(l -> recovered[0] = l);
                    }
                    Thread.sleep(20);
                }
                assertThat(recovered[0]).as("a backup recovered the writer's zone").isNotNull();
                System.out.printf("durability: writer SIGKILLed, its %d samples recovered by a backup %.0f ms "
                    + "after the kill%n", SAMPLES, (System.nanoTime() - killNs) / 1e6);
                final String[] parts = recovered[0].split(" ");
                assertThat(parts[2]).as("recovered samples").isEqualTo(String.valueOf(SAMPLES));
                assertThat(parts[3] + ".." + parts[4]).as("sequence numbers").isEqualTo("1.." + SAMPLES);
                assertThat(parts[5]).as("digest of the recovered samples").isEqualTo(digest);
            }
            catch (final AssertionError ex)
            {
                throw new AssertionError(ex.getMessage() + "\nprocesses:" + ChildProcess.tails(30, backup1,
                    backup2, backup3, writer), ex);
            }
        }
    }

    private static ChildProcess start(final String name, final List<String> jvm, final String... args)
        throws Exception
    {
        final ChildProcess child = new ChildProcess(name, DurableNode.class, jvm, args);
        child.await(l -> l.equals("JOINED"), 120);
        return child;
    }
}
