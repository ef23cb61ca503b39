package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.tests.RunShmRoot;
import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.LatchedStart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Processes of one domain started at the same instant (a user's script starting a publisher and its subscribers
 * together) form one group and deliver everything, with no WARN line. Each child's JVM starts first and waits on a
 * latch file ({@link LatchedStart}); the test creates the file once every child is up, so their participants are
 * created within a millisecond or so of each other. Before the shm registry decided the founder under a host-wide
 * lock, two processes each found no running group and each formed view 1: a storm of exclusions and missing
 * proposals ("committed proposal p256 of view 1 is missing from the registry"), and 16 s before data flowed.
 *
 * <p>Asserted per round: exactly one process formed the group, the publisher wrote all samples, every subscriber
 * received all of them from the first, in order, and no process logged a WARN or ERROR line.
 */
@Timeout(900)
class SimultaneousStartTest
{
    private static final int SAMPLES = 1000;

    @Test
    void twoProcessesStartedTogetherFormOneGroup() throws Exception
    {
        for (int round = 0; round < 3; round++)
        {
            round(2, round);
        }
    }

    @Test
    void fourProcessesStartedTogetherFormOneGroup() throws Exception
    {
        for (int round = 0; round < 2; round++)
        {
            round(4, round);
        }
    }

    private static void round(final int processes, final int round) throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        final Path latch = RunShmRoot.path().resolve("latch-" + domain);
        final List<ChildProcess> children = new ArrayList<>();
        final List<String> jvm = List.of("-Dsirocco.dds.transport=shm", "--enable-native-access=ALL-UNNAMED",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
        try
        {
            children.add(new ChildProcess("pub" + round, LatchedStart.class, jvm, latch.toString(), "burst", domain,
                String.valueOf(processes - 1), String.valueOf(SAMPLES), "60000"));
            for (int i = 1; i < processes; i++)
            {
                children.add(new ChildProcess("sub" + round + "-" + i, LatchedStart.class, jvm, latch.toString(),
                    "sub", domain));
            }
            for (final ChildProcess child : children)
            {
                child.await(l -> l.equals("READY"), 120);
            }
            Files.createFile(latch);
            final ChildProcess pub = children.get(0);
            pub.await(l -> l.equals("DONE " + SAMPLES), 180);
            for (final ChildProcess sub : children.subList(1, children.size()))
            {
                sub.await(l -> l.equals("RECEIVED " + SAMPLES + " gaps 0"), 120);
                assertThat(sub.lines()).as("%s from the first sample on", sub).contains("FIRST 1")
                    .noneMatch(l -> l.startsWith("GAP"));
            }
            final List<String> all = new ArrayList<>();
            children.forEach(c -> all.addAll(c.lines()));
            final String tails = ChildProcess.tails(30, children.toArray(ChildProcess[]::new));
            assertThat(all).as("WARN or ERROR lines of %d processes started together:%s", processes, tails)
                .noneMatch(l -> l.contains(" WARN ") || l.contains(" ERROR "));
            assertThat(all.stream().filter(l -> l.contains("first member, formed the view")).count())
                .as("processes that formed a group:%s", tails).isEqualTo(1);
        }
        finally
        {
            children.forEach(ChildProcess::close);
            Files.deleteIfExists(latch);
        }
    }
}
