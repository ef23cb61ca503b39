package io.sirocco.tests.durability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.tests.Netns;
import io.sirocco.tests.RunShmRoot;
import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A TRANSIENT writer's host is cut off from the network ({@code ip link set DEV down}) after its samples are held by
 * three backups on three other hosts: the backups find the writer gone by heartbeat alone (no same-host crash
 * detection across hosts), one of them recovers its zone, and a reader started afterwards on one of those hosts gets
 * every sample the writer wrote, in order, once (compared by digest), then sees the instance NOT_ALIVE_NO_WRITERS.
 * Four network namespaces on a private bridge ({@link Netns}), static peers, each host with its own shared-memory
 * directory and host name; the writer's process stays alive on its isolated host. Needs root; skipped otherwise.
 */
@Timeout(360)
class NetnsDurabilityTest
{
    private static final int SAMPLES = 2000;
    private static final int WRITER_HOST = 0;

    @Test
    void backupsOnTheOtherThreeHostsServeACutOffWritersHistory() throws Exception
    {
        final String reason = Netns.unavailableReason();
        Assumptions.assumeTrue(reason == null, reason);
        final String domain = "231";
        final List<Path> dirs = new ArrayList<>();
        try (Netns hosts = new Netns(4))
        {
            final String peers = hosts.address(0) + "," + hosts.address(1) + "," + hosts.address(2) + ","
                + hosts.address(3);
            final List<List<String>> jvm = new ArrayList<>();
            for (int i = 0; i < 4; i++)
            {
                final Path dir = Files.createTempDirectory(RunShmRoot.path(), "sirocco-netns-dur-h" + i);
                dirs.add(dir);
                // A suspicion time well above a loaded machine's scheduling stalls: only the cut may remove a member.
                jvm.add(List.of("-Dsirocco.dds.transport=auto", "-Dsirocco.dds.discovery=peers",
                    "-Dsirocco.dds.peers=" + peers, "-Dsirocco.dds.interface=" + hosts.interfaceName(i),
                    "-Dsirocco.multicast.shm.dir=" + dir, "-Dsirocco.multicast.host=nsdurhost" + i,
                    "-Dsirocco.dds.suspicion.ms=8000", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
            }
            runScenario(hosts, jvm, domain);
        }
        finally
        {
            for (final Path dir : dirs)
            {
                RunShmRoot.deleteTree(dir);
            }
        }
    }

    private static void runScenario(final Netns hosts, final List<List<String>> jvm, final String domain)
        throws Exception
    {
        final List<ChildProcess> backups = new ArrayList<>();
        ChildProcess writer = null;
        ChildProcess late = null;
        try
        {
            for (int host = 1; host <= 3; host++)
            {
                backups.add(start("backup" + host, hosts, host, backupJvm(jvm.get(host)), "backup", domain));
            }
            writer = start("writer", hosts, WRITER_HOST, jvm.get(WRITER_HOST), "writer", domain,
                String.valueOf(SAMPLES));
            final String acked = writer.await(l -> l.startsWith("ACKED ") || l.startsWith("NOT_ACKED"), 120);
            assertThat(acked).as("the writer's samples are held by the backups").startsWith("ACKED " + SAMPLES + " ");
            final String digest = acked.split(" ")[2];

            hosts.cutLink(WRITER_HOST);
            final String recovered = awaitRecovered(backups);
            assertThat(recovered).as("the recovering backup's line").contains(" " + SAMPLES + " ").endsWith(digest);

            late = start("late", hosts, 1, jvm.get(1), "reader", domain, String.valueOf(SAMPLES));
            assertThat(late.await(l -> l.startsWith("COMPLETE ") || l.startsWith("BROKEN"), 120))
                .as("the late reader got the cut-off writer's history, in order, by digest")
                .isEqualTo("COMPLETE " + SAMPLES + " " + digest);
            assertThat(late.await(l -> l.startsWith("NO_WRITERS") || l.startsWith("BROKEN"), 120))
                .as("the instance has no live writer").startsWith("NO_WRITERS");
            assertThat(late.lines()).as("nothing after the history").noneMatch(l -> l.startsWith("BROKEN"));
        }
        catch (final AssertionError ex)
        {
            final List<ChildProcess> all = new ArrayList<>(backups);
            if (writer != null)
            {
                all.add(writer);
            }
            if (late != null)
            {
                all.add(late);
            }
            throw new AssertionError(ex.getMessage() + "\nprocesses:" + ChildProcess.tails(30,
                all.toArray(ChildProcess[]::new)), ex);
        }
        finally
        {
            closeAll(late, writer, backups);
        }
    }

    private static List<String> backupJvm(final List<String> plain)
    {
        final List<String> jvm = new ArrayList<>(plain);
        jvm.add("-Dsirocco.dds.durability.backup=true");
        return jvm;
    }

    /** Waits (bounded) until one backup printed that it recovered the writer's zone; returns that line. */
    private static String awaitRecovered(final List<ChildProcess> backups) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() - deadline < 0)
        {
            for (final ChildProcess backup : backups)
            {
                for (final String line : backup.lines())
                {
                    if (line.startsWith("RECOVERED "))
                    {
                        return line;
                    }
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no backup recovered the cut-off writer's zone within 120 s");
    }

    private static ChildProcess start(final String name, final Netns hosts, final int host, final List<String> jvm,
        final String... args) throws Exception
    {
        final ChildProcess child = new ChildProcess(name, hosts.prefix(host), DurableNode.class, jvm, args);
        child.await(l -> l.equals("JOINED"), 120);
        return child;
    }

    private static void closeAll(final ChildProcess late, final ChildProcess writer, final List<ChildProcess> backups)
    {
        final List<ChildProcess> all = new ArrayList<>();
        if (late != null)
        {
            all.add(late);
        }
        if (writer != null)
        {
            all.add(writer);
        }
        all.addAll(backups);
        for (final ChildProcess child : all)
        {
            child.close();
        }
    }
}
