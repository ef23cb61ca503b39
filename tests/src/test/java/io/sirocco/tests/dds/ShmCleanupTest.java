package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

import io.sirocco.tests.RunShmRoot;
import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.ExitNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a process leaves under the shm root ({@code sirocco.multicast.shm.dir}, a directory of its own per test): a
 * publisher and a subscriber process exchange samples over {@code shm}, then end by closing their participants, by
 * returning from {@code main} without closing them (the JVM's shutdown hook leaves the group), or by SIGKILL (the
 * next process of the domain removes what they left, with one INFO line). After the first two, and after the
 * processes that follow a kill end, nothing is left under the root. While they run, the group directory is 0700 and
 * every file in it 0600, as docs/multicast.md says.
 */
@Timeout(600)
class ShmCleanupTest
{
    private static final int SAMPLES = 200;

    @Test
    void closedParticipantsLeaveNothing() throws Exception
    {
        final Path root = RunShmRoot.path().resolve("cleanup-close");
        runPair(root, String.valueOf(Dds.newDomain()), "close");
        assertThat(entries(root)).as("left under %s after close()", root).isEmpty();
    }

    @Test
    void mainReturningWithoutCloseLeavesNothing() throws Exception
    {
        final Path root = RunShmRoot.path().resolve("cleanup-return");
        runPair(root, String.valueOf(Dds.newDomain()), "return");
        assertThat(entries(root)).as("left under %s after main returned without close()", root).isEmpty();
    }

    @Test
    void nextStartReclaimsWhatKilledProcessesLeft() throws Exception
    {
        final Path root = RunShmRoot.path().resolve("cleanup-kill");
        final String domain = String.valueOf(Dds.newDomain());
        final List<String> jvm = jvm(root);
        try (ChildProcess sub = new ChildProcess("sub", ExitNode.class, jvm, "sub", domain, "" + SAMPLES, "wait");
             ChildProcess pub = new ChildProcess("pub", ExitNode.class, jvm, "pub", domain, "" + SAMPLES, "wait"))
        {
            sub.await(l -> l.equals("RECEIVED " + SAMPLES), 180);
            final Path group = root.resolve("sirocco-dds-d" + domain);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(group))).isEqualTo("rwx------");
            final List<Path> files = entries(group);
            assertThat(files).as("registry and table files").isNotEmpty();
            for (final Path f : files)
            {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).as("mode of %s", f)
                    .isEqualTo("rw-------");
            }
            sub.kill();
            pub.kill();
        }
        assertThat(entries(root)).as("what the killed processes left").isNotEmpty();
        final List<String> lines = runPair(root, domain, "close");
        assertThat(lines).as("the next start's report of what it removed")
            .filteredOn(l -> l.contains(" INFO ") && l.contains("that processes no longer running left in")).hasSize(1);
        assertThat(entries(root)).as("left under %s after the next processes closed", root).isEmpty();
    }

    /** Runs a publisher and a subscriber that end {@code how}; returns both outputs (bounded waits throughout). */
    private static List<String> runPair(final Path root, final String domain, final String how) throws Exception
    {
        final List<String> jvm = jvm(root);
        try (ChildProcess sub = new ChildProcess("sub-" + how, ExitNode.class, jvm, "sub", domain, "" + SAMPLES, how);
             ChildProcess pub = new ChildProcess("pub-" + how, ExitNode.class, jvm, "pub", domain, "" + SAMPLES, how))
        {
            sub.await(l -> l.equals("RECEIVED " + SAMPLES), 180);
            assertThat(sub.awaitExit(120)).as("subscriber's exit code:%s", ChildProcess.tails(20, sub, pub)).isZero();
            assertThat(pub.awaitExit(120)).as("publisher's exit code:%s", ChildProcess.tails(20, sub, pub)).isZero();
            sub.awaitOutputClosed(30);
            pub.awaitOutputClosed(30);
            final List<String> all = new java.util.ArrayList<>(sub.lines());
            all.addAll(pub.lines());
            assertThat(all).as("WARN or ERROR lines:%s", ChildProcess.tails(20, sub, pub))
                .noneMatch(l -> l.contains(" WARN ") || l.contains(" ERROR "));
            return all;
        }
    }

    private static List<String> jvm(final Path root)
    {
        return List.of("-Dsirocco.multicast.shm.dir=" + root, "-Dsirocco.dds.transport=shm",
            "--enable-native-access=ALL-UNNAMED", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
    }

    /** Every file and directory under {@code dir} (not {@code dir} itself); empty when it does not exist. */
    private static List<Path> entries(final Path dir) throws IOException
    {
        if (!Files.isDirectory(dir))
        {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir))
        {
            return walk.filter(p -> !p.equals(dir)).toList();
        }
    }
}
