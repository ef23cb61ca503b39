package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.tests.FreePorts;
import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.SlowReliableNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #5 over the multicast bus between processes: a RELIABLE reader whose listener stalls for 5 s, longer than
 * the multicast suspicion timeout (2 s), blocks its writer (write throws TimeoutException naming the writer after
 * max_blocking_time) and nobody else: no view change excludes its participant (the writer and the reader stay
 * matched, no member is suspected), a second topic between the same two processes keeps flowing during the stall,
 * and once the listener resumes the reader receives every sample that write accepted, in order, none lost.
 */
@Timeout(300)
class MultiProcessSlowReliableReaderTest
{
    private static final int COUNT = 2000;
    private static final String STALL_MS = "5000";

    @Test
    void overShm() throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        final List<String> jvm = List.of("-Dsirocco.dds.transport=shm", "-Dsirocco.dds.window.slots=64",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        run(domain, jvm, jvm);
    }

    @Test
    void overTcp() throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        // Below the ephemeral range: a port from new ServerSocket(0) was once taken by the time the child bound it.
        final int contactPort = FreePorts.next();
        final List<Path> dirs = new ArrayList<>();
        try
        {
            final List<List<String>> jvms = new ArrayList<>();
            for (int i = 0; i < 2; i++)
            {
                final Path dir = Files.createTempDirectory(ShmRoot.PATH, "sirocco-slowrd-h" + i);
                dirs.add(dir);
                jvms.add(List.of("-Dsirocco.dds.transport=tcp", "-Dsirocco.dds.peers=127.0.0.1:" + contactPort,
                    "-Dsirocco.dds.contact.port=" + contactPort, "-Dsirocco.dds.interface=lo", "-Dsirocco.multicast.shm.dir=" + dir,
                    "-Dsirocco.dds.window.slots=64", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
            }
            run(domain, jvms.get(0), jvms.get(1));
        }
        finally
        {
            for (final Path dir : dirs)
            {
                MultiProcessTcpPeersTest.deleteTree(dir);
            }
        }
    }

    private static void run(final String domain, final List<String> subJvm, final List<String> pubJvm)
        throws Exception
    {
        try (ChildProcess sub = new ChildProcess("slowsub", SlowReliableNode.class, subJvm, "sub", domain, STALL_MS))
        {
            sub.await(l -> l.equals("JOINED"), 60);
            try (ChildProcess pub = new ChildProcess("pub", SlowReliableNode.class, pubJvm, "pub", domain,
                String.valueOf(COUNT), "500"))
            {
                pub.await(l -> l.equals("MATCHED"), 90);
                final String timeout = pub.await(l -> l.startsWith("TIMEOUT ") || l.startsWith("DONE "), 120);
                assertThat(timeout).as("write timed out while the reader stalled").startsWith("TIMEOUT ")
                    .contains("DataWriter on topic 'SlowReliable'").contains("max_blocking_time");
                sub.await(l -> l.equals("STALL_END"), 120);
                pub.await(l -> l.equals("DONE " + COUNT), 120);
                sub.await(l -> l.equals("RECEIVED " + COUNT + " last " + COUNT), 120);

                final List<String> subLines = sub.lines();
                final List<String> pubLines = pub.lines();
                assertThat(subLines).as("every accepted sample, in order").noneMatch(l -> l.startsWith("GAP"))
                    .noneMatch(l -> l.startsWith("LOST"));
                // Still matched throughout: the slow reader's participant was never excluded.
                assertStaysMatched(subLines, "SUBMATCHED ");
                assertStaysMatched(pubLines, "PUBMATCHED ");
                assertThat(subLines).as("nobody suspected in the reader's process")
                    .noneMatch(l -> l.contains("suspected") || l.contains("excluded"));
                assertThat(pubLines).as("nobody suspected in the writer's process")
                    .noneMatch(l -> l.contains("suspected") || l.contains("excluded"))
                    .noneMatch(l -> l.startsWith("SIDE_FAILED"));
                // The other topic between the same processes flowed during the stall.
                final int start = subLines.indexOf("STALL_START");
                final int end = subLines.indexOf("STALL_END");
                assertThat(start).isNotNegative().isLessThan(end);
                final long sideDuringStall = subLines.subList(start, end).stream()
                    .filter(l -> l.startsWith("SIDE ")).count();
                assertThat(sideDuringStall).as("SideTopic progress lines (20 samples each) during the 5 s stall")
                    .isGreaterThanOrEqualTo(3);
            }
        }
    }

    /** After the first {@code prefix 1}, the matched count never drops. */
    private static void assertStaysMatched(final List<String> lines, final String prefix)
    {
        final List<String> counts = lines.stream().filter(l -> l.startsWith(prefix)).toList();
        final int first = counts.indexOf(prefix + "1");
        assertThat(first).as("%s reached 1 in %s", prefix, counts).isNotNegative();
        assertThat(counts.subList(first, counts.size())).as("%s never dropped", prefix).containsOnly(prefix + "1");
    }
}
