package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.ShapeNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A publisher and two subscriber processes on one host over the shm transport (zero-config discovery through the
 * per-domain registry). Killing a subscriber (SIGKILL) does not stop the publisher and the other subscriber loses
 * nothing; killing the publisher makes the readers see NOT_ALIVE_NO_WRITERS.
 */
@Timeout(240)
class MultiProcessShmTest
{
    private static final List<String> JVM = List.of("-Dsirocco.transport=shm",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    private static long number(final String line, final String word)
    {
        final String[] parts = line.split(" ");
        for (int i = 0; i < parts.length - 1; i++)
        {
            if (parts[i].equals(word))
            {
                return Long.parseLong(parts[i + 1]);
            }
        }
        throw new AssertionError("no '" + word + "' in: " + line);
    }

    @Test
    void killedSubscriberHurtsNobodyAndKilledPublisherLeavesNoWriters() throws Exception
    {
        final String domain = String.valueOf(150 + (ProcessHandle.current().pid() % 60));
        try (ChildProcess sub1 = new ChildProcess("sub1", ShapeNode.class, JVM, "sub", domain);
             ChildProcess sub2 = startAfter(sub1, "sub2", "sub", domain);
             ChildProcess pub = startAfter(sub2, "pub", "pub", domain, "2"))
        {
            pub.await(l -> l.equals("MATCHED"), 60);
            sub1.await(l -> l.startsWith("RECEIVED 200 "), 60);
            sub2.await(l -> l.startsWith("RECEIVED 200 "), 60);
            sub1.kill();
            final long sentAtKill = number(pub.await(l -> l.startsWith("SENT "), 10), "SENT");
            pub.await(l -> l.startsWith("SENT ") && number(l, "SENT") >= sentAtKill + 1000, 90);
            sub2.await(l -> l.startsWith("RECEIVED ") && number(l, "RECEIVED") >= sentAtKill + 800, 90);
            pub.kill();
            final String end = sub2.await(l -> l.startsWith("NO_WRITERS"), 60);
            assertThat(sub2.lines()).noneMatch(l -> l.startsWith("GAP"));
            assertThat(number(end, "gaps")).isZero();
        }
    }

    private static ChildProcess startAfter(final ChildProcess previous, final String name, final String... args)
        throws Exception
    {
        previous.await(l -> l.equals("JOINED"), 60);
        return new ChildProcess(name, ShapeNode.class, JVM, args);
    }
}
