package io.sirocco.tests.durability;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A replacement writer (same topic, same configured identity, {@code sirocco.dds.durability.identity}) is the
 * dead writer: two backups, a TRANSIENT writer process that writes N acknowledged samples and is SIGKILLed, then a
 * late reader gets exactly those N (by digest) from the backup that recovered them; a replacement process with the
 * same identity writes N+1..N+M, which the reader that took 1..N from the dead writer and the late reader take
 * next, in order, none twice (M < N: a replacement restarting at sequence number 1 would be dropped by their
 * duplicate filters); a reader created after that gets all N+M from the replacement's history, by digest. Over
 * shared memory, every process bounded in time.
 */
@Timeout(400)
class ReplacementWriterTest
{
    private static final int N = 2000;
    private static final int M = 700;
    private static final List<String> SHM = List.of("-Dsirocco.dds.transport=shm", "-Dsirocco.dds.interface=lo",
        "-Dsirocco.dds.suspicion.ms=15000", ChildJvm.QUICK_START, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    @Test
    void replacementResumesPastTheRecoveredHistory() throws Exception
    {
        final String domain = "231";
        final List<String> backup = with(SHM, "-Dsirocco.dds.durability.backup=true");
        // The original keeps the default takeover wait. With a 200 ms wait, once in a quiet CI run (ci17, 2026-11-29)
        // its waitForAcknowledgments failed after 60 s with "no participant of the domain holds backups" although
        // both backups had joined: its zone never gained them. An open defect (cause not found yet), not this
        // test's subject; the default wait gives discovery time to finish first, as before.
        final List<String> fresh = with(SHM, "-Dsirocco.dds.durability.identity=publisher-1");
        final List<String> identity = with(SHM, "-Dsirocco.dds.durability.identity=publisher-1",
            "-Dsirocco.dds.durability.takeover.ms=60000");
        final String total = String.valueOf(N + M);
        try (ChildProcess backup1 = start("backup1", backup, "backup", domain);
             ChildProcess backup2 = start("backup2", backup, "backup", domain);
             ChildProcess early = start("early", with(SHM, "-Dcheckpoint=" + N), "witness", domain, total);
             ChildProcess original = start("original", fresh, "publish", domain, "1", String.valueOf(N)))
        {
            ChildProcess late = null;
            ChildProcess replacement = null;
            ChildProcess later = null;
            try
            {
                final String digestN = digest(1, N);
                assertThat(original.await(l -> l.startsWith("ACKED ") || l.startsWith("NOT_ACKED"), 120))
                    .isEqualTo("ACKED " + N + " " + digestN);
                assertThat(early.await(l -> l.startsWith("AT ") || l.startsWith("BROKEN"), 120))
                    .isEqualTo("AT " + N + " " + digestN);
                original.kill();
                awaitRecovered(List.of(backup1, backup2));
                late = start("late", with(SHM, "-Dcheckpoint=" + N), "witness", domain, total);
                assertThat(late.await(l -> l.startsWith("AT ") || l.startsWith("BROKEN"), 120))
                    .as("a late joiner gets exactly the N acknowledged samples").isEqualTo("AT " + N + " " + digestN);
                assertThat(late.await(l -> l.startsWith("HISTORY "), 60)).isEqualTo("HISTORY " + N);
                replacement = start("replacement", identity, "publish", domain, String.valueOf(N + 1), total);
                assertThat(replacement.await(l -> l.startsWith("ACKED ") || l.startsWith("NOT_ACKED"), 180))
                    .isEqualTo("ACKED " + total + " " + digest(N + 1, N + M));
                final String all = "COMPLETE " + total + " " + digest(1, N + M);
                assertThat(early.await(l -> l.startsWith("COMPLETE ") || l.startsWith("BROKEN"), 120))
                    .as("the reader of the dead writer takes N+1.. next").isEqualTo(all);
                assertThat(late.await(l -> l.startsWith("COMPLETE ") || l.startsWith("BROKEN"), 120))
                    .as("the late joiner of the served history takes N+1.. next").isEqualTo(all);
                later = start("later", SHM, "witness", domain, total);
                assertThat(later.await(l -> l.startsWith("COMPLETE ") || l.startsWith("BROKEN"), 120))
                    .as("the replacement's history holds the recovered samples").isEqualTo(all);
                assertThat(early.await(l -> l.startsWith("AFTER ") || l.startsWith("BROKEN"), 120))
                    .as("nothing twice").isEqualTo("AFTER 0");
                for (final ChildProcess reader : List.of(early, late, later))
                {
                    assertThat(reader.lines()).noneMatch(l -> l.startsWith("BROKEN"));
                }
            }
            catch (final AssertionError ex)
            {
                throw new AssertionError(ex.getMessage() + "\nprocesses:" + ChildProcess.tails(30, backup1, backup2,
                    early, original, late == null ? early : late, replacement == null ? early : replacement,
                    later == null ? early : later), ex);
            }
            finally
            {
                for (final ChildProcess child : new ChildProcess[] {later, replacement, late})
                {
                    if (child != null)
                    {
                        child.close();
                    }
                }
            }
        }
    }

    /** SHA-256 over the decimal x values from..to, as the child processes compute it. */
    static String digest(final int from, final int to) throws Exception
    {
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (int i = from; i <= to; i++)
        {
            digest.update(Integer.toString(i).getBytes());
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static List<String> with(final List<String> jvm, final String... more)
    {
        return Stream.concat(jvm.stream(), Stream.of(more)).toList();
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
