package io.sirocco.tests.durability;

import java.util.List;
import java.util.stream.Stream;

import io.sirocco.tests.FreePorts;
import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dead TRANSIENT writer's history is served by the backup that recovered it, under the writer's GUID: a reader
 * process created after the writer's process was SIGKILLed gets every sample the writer wrote (compared by digest,
 * in order, none twice), then sees the instance NOT_ALIVE_NO_WRITERS; a reader that took everything while the
 * writer lived matches the served writer again and, after {@code waitForHistoricalData}, has received nothing
 * twice. Three backups, the writer and two readers, over shared memory (and once over tcp); the second case
 * SIGKILLs one of the three backups together with the writer.
 */
@Timeout(400)
class DeadWriterHistoryTest
{
    private static final int SAMPLES = 2000;
    private static final List<String> SHM = List.of("-Dsirocco.dds.transport=shm", "-Dsirocco.dds.interface=lo",
        "-Dsirocco.dds.suspicion.ms=15000", ChildJvm.QUICK_START, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    @Test
    void lateReaderGetsTheDeadWritersHistoryAndNothingTwice() throws Exception
    {
        writerDiesLateReaderGetsItsHistory("227", SHM, false);
    }

    /** R = 3: one of the zone's backups is SIGKILLed with the writer; the two others still hold everything. */
    @Test
    void oneBackupDyingWithTheWriterLosesNothing() throws Exception
    {
        writerDiesLateReaderGetsItsHistory("228", SHM, true);
    }

    /** The same over the tcp transport (loopback, one contact port): the log's replication is nio either way. */
    @Test
    void overTcp() throws Exception
    {
        final int contactPort = FreePorts.next();
        writerDiesLateReaderGetsItsHistory("229", List.of("-Dsirocco.dds.transport=tcp",
            "-Dsirocco.dds.peers=127.0.0.1:" + contactPort, "-Dsirocco.dds.contact.port=" + contactPort,
            "-Dsirocco.dds.interface=lo", "-Dsirocco.dds.suspicion.ms=15000",
            ChildJvm.QUICK_START, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"), false);
    }

    private static void writerDiesLateReaderGetsItsHistory(final String domain, final List<String> plain,
        final boolean killBackupToo) throws Exception
    {
        final List<String> backup = Stream.concat(plain.stream(), Stream.of("-Dsirocco.dds.durability.backup=true"))
            .toList();
        final String total = String.valueOf(2 * SAMPLES);
        try (ChildProcess backup1 = start("backup1", backup, "backup", domain);
             ChildProcess backup2 = start("backup2", backup, "backup", domain);
             ChildProcess backup3 = start("backup3", backup, "backup", domain);
             ChildProcess writer = start("writer", plain, "writer", domain, String.valueOf(SAMPLES));
             ChildProcess witness = start("witness", plain, "witness", domain, total))
        {
            ChildProcess late = null;
            try
            {
                final String live = writer.await(l -> l.startsWith("LIVE ") || l.startsWith("NOT_ACKED"), 120);
                assertThat(live).startsWith("LIVE " + total + " ");
                final String digest = live.split(" ")[2];
                assertThat(witness.await(l -> l.startsWith("COMPLETE ") || l.startsWith("BROKEN"), 120))
                    .isEqualTo("COMPLETE " + total + " " + digest);
                writer.kill();
                if (killBackupToo)
                {
                    backup1.kill();
                }
                awaitRecovered(killBackupToo ? List.of(backup2, backup3) : List.of(backup1, backup2, backup3));
                late = start("late", plain, "reader", domain, total);
                assertThat(late.await(l -> l.startsWith("COMPLETE ") || l.startsWith("BROKEN"), 120))
                    .as("the late reader got the dead writer's history, in order, by digest")
                    .isEqualTo("COMPLETE " + total + " " + digest);
                assertThat(late.await(l -> l.startsWith("NO_WRITERS") || l.startsWith("BROKEN"), 120))
                    .as("the instance has no live writer").startsWith("NO_WRITERS");
                assertThat(witness.await(l -> l.startsWith("AFTER ") || l.startsWith("BROKEN"), 120))
                    .as("the reader that had everything got nothing twice").isEqualTo("AFTER 0");
                assertThat(late.lines()).as("nothing after the history").noneMatch(l -> l.startsWith("BROKEN"));
            }
            catch (final AssertionError ex)
            {
                throw new AssertionError(ex.getMessage() + "\nprocesses:" + ChildProcess.tails(30, backup1,
                    backup2, backup3, writer, witness, late == null ? witness : late), ex);
            }
            finally
            {
                if (late != null)
                {
                    late.close();
                }
            }
        }
    }

    /** Waits (bounded) until one backup printed that it recovered the writer's zone. */
    private static void awaitRecovered(final List<ChildProcess> backups) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() - deadline < 0)
        {
            for (final ChildProcess backup : backups)
            {
                if (backup.lines().stream().anyMatch(l -> l.startsWith("RECOVERED ")))
                {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no backup recovered the writer's zone within 120 s");
    }

    private static ChildProcess start(final String name, final List<String> jvm, final String... args)
        throws Exception
    {
        final ChildProcess child = new ChildProcess(name, DurableNode.class, jvm, args);
        child.await(l -> l.equals("JOINED"), 120);
        return child;
    }
}
