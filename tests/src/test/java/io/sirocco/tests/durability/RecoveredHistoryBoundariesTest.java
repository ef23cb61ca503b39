package io.sirocco.tests.durability;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dead writer's recovered history reaches a late reader whole, in order, exactly once, at the boundaries of the
 * backup's off-heap blocks (1 KiB here, so a few thousand samples span hundreds) and of the replay's batches (3 KiB
 * here: larger than a topic slot, so each goes through the multicast's bulk region, and thousands of samples span
 * hundreds of them, the last one partly filled): an
 * empty history, one sample, thousands of samples, one instance overwritten thousands of times (DURABILITY_SERVICE
 * KEEP_LAST 1: the last one only) and three instances KEEP_LAST 2. Two backups, a writer process with one writer
 * per case (SIGKILLed) and a late reader process, over shared memory.
 */
@Timeout(400)
class RecoveredHistoryBoundariesTest
{
    private static final List<String> CASES = List.of("HistEmpty:0:1:0", "HistOne:1:1:0", "HistMany:5000:1:0",
        "HistOverwritten:3000:1:1", "HistLastTwo:1000:3:2");
    private static final List<String> SHM = List.of("-Dsirocco.dds.transport=shm", "-Dsirocco.dds.interface=lo",
        "-Dsirocco.dds.suspicion.ms=15000", "-Dsirocco.dds.durability.replicas=2",
        ChildJvm.QUICK_START, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    @Test
    void lateReaderGetsEveryRecoveredSampleOnceInOrderAcrossBlocksAndBatches() throws Exception
    {
        final String domain = "231";
        final List<String> backup = Stream.concat(SHM.stream(), Stream.of("-Dsirocco.dds.durability.backup=true",
            "-Dsirocco.dds.durability.recovery.block.kb=1", "-Dsirocco.dds.durability.replay.batch.kb=3")).toList();
        try (ChildProcess backup1 = start("backup1", DurableNode.class, backup, "backup", domain);
             ChildProcess backup2 = start("backup2", DurableNode.class, backup, "backup", domain);
             ChildProcess writer = start("writer", RecoveredHistoryNode.class, SHM, args("writer", domain)))
        {
            ChildProcess late = null;
            try
            {
                final List<String> acked = new ArrayList<>();
                for (final String spec : CASES)
                {
                    final String name = spec.split(":")[0];
                    acked.add(writer.await(l -> l.startsWith("ACKED " + name + " ")
                        || l.startsWith("NOT_ACKED " + name + " "), 120));
                }
                assertThat(acked).as("the backups hold every case").allMatch(l -> l.startsWith("ACKED "));
                writer.kill();
                // Every case but the empty one: a zone nothing was written to may hold nothing to recover.
                awaitRecovered(List.of(backup1, backup2), CASES.size() - 1);
                late = start("late", RecoveredHistoryNode.class, SHM, args("reader", domain));
                for (final String ack : acked)
                {
                    final String name = ack.split(" ")[1];
                    final ChildProcess reader = late;
                    assertThat(reader.await(l -> l.startsWith("GOT " + name + " ")
                        || l.startsWith("BROKEN " + name + " "), 120))
                        .as("case %s: the late reader took the kept history once, in order, by digest", name)
                        .isEqualTo("GOT " + ack.substring("ACKED ".length()));
                }
                assertThat(acked.stream().map(l -> l.split(" ")[2]).toList())
                    .as("the kept histories: empty, one, all 5000, the last of one instance, the last 2 of 3")
                    .containsExactly("0", "1", "5000", "1", "6");
            }
            catch (final AssertionError ex)
            {
                throw new AssertionError(ex.getMessage() + "\nprocesses:" + ChildProcess.tails(30, backup1,
                    backup2, writer, late == null ? writer : late), ex);
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

    private static String[] args(final String role, final String domain)
    {
        final List<String> all = new ArrayList<>(List.of(role, domain));
        all.addAll(CASES);
        return all.toArray(new String[0]);
    }

    /** Waits (bounded) until the backups printed a recovery for every case's writer. */
    private static void awaitRecovered(final List<ChildProcess> backups, final int writers)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() - deadline < 0)
        {
            long recovered = 0;
            for (final ChildProcess backup : backups)
            {
                recovered += backup.lines().stream().filter(l -> l.startsWith("RECOVERED ")).count();
            }
            if (recovered >= writers)
            {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the backups did not recover the " + writers + " writers' zones within 120 s");
    }

    private static ChildProcess start(final String name, final Class<?> main, final List<String> jvm,
        final String... args) throws Exception
    {
        final ChildProcess child = new ChildProcess(name, main, jvm, args);
        child.await(l -> l.equals("JOINED"), 120);
        return child;
    }
}
