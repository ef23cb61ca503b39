package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.ShapeNode;

/**
 * The multi-process publish/subscribe scenario shared by the cross-host tests: subscriber 1, subscriber 2, then the
 * publisher (RELIABLE, KEEP_ALL, one sample per millisecond once both subscribers matched) each on its own "host"
 * (a command prefix and JVM settings per process). Both subscribers receive the first 200 samples, in order and
 * without a gap; subscriber 1 is killed (SIGKILL): the publisher keeps writing and subscriber 2 keeps receiving
 * without a gap; the publisher is killed: subscriber 2 sees NOT_ALIVE_NO_WRITERS, still without a gap.
 */
final class KillScenario
{
    /** How one process is started. */
    record Host(List<String> prefix, List<String> jvm)
    {
    }

    private KillScenario()
    {
    }

    /** The output (stdout and log) of each process, for checks beyond the scenario's own. */
    record Outcome(List<String> sub1, List<String> sub2, List<String> pub)
    {
    }

    /**
     * Runs the scenario.
     *
     * @param everyLogHas text each process must have logged (for example the transport it chose), checked at the end.
     * @return every process's output.
     */
    static Outcome run(final String domain, final Host sub1Host, final Host sub2Host, final Host pubHost,
        final List<String> everyLogHas) throws Exception
    {
        try (ChildProcess sub1 = new ChildProcess("sub1", sub1Host.prefix(), ShapeNode.class, sub1Host.jvm(), "sub",
                domain);
             ChildProcess sub2 = startAfter(sub1, "sub2", sub2Host, "sub", domain);
             ChildProcess pub = startAfter(sub2, "pub", pubHost, "pub", domain, "2"))
        {
            pub.await(l -> l.equals("MATCHED"), 90);
            sub1.await(l -> l.startsWith("RECEIVED 200 "), 60);
            sub2.await(l -> l.startsWith("RECEIVED 200 "), 60);
            // In order, nothing lost or repeated (ShapeNode prints GAP for any x that is not the last one plus 1).
            assertThat(sub1.lines()).as("subscriber 1 before the kill").noneMatch(l -> l.startsWith("GAP"));
            // What happens after each kill is read from the lines printed after it: under load a false suspicion
            // can retract the writer for a moment earlier (an earlier NO_WRITERS line), and the first SENT line is
            // not the count at the kill.
            final int pubMark = pub.lineCount();
            sub1.kill();
            final long sentAtKill = number(pub.awaitFrom(pubMark, l -> l.startsWith("SENT "), 10), "SENT");
            pub.await(l -> l.startsWith("SENT ") && number(l, "SENT") >= sentAtKill + 1000, 90);
            sub2.await(l -> l.startsWith("RECEIVED ") && number(l, "RECEIVED") >= sentAtKill + 800, 90);
            final int sub2Mark = sub2.lineCount();
            pub.kill();
            final String end = sub2.awaitFrom(sub2Mark, l -> l.startsWith("NO_WRITERS"), 60);
            assertThat(sub2.lines()).noneMatch(l -> l.startsWith("GAP"));
            assertThat(number(end, "gaps")).isZero();
            assertThat(number(end, "received")).as("subscriber 2 received everything up to the kills")
                .isGreaterThanOrEqualTo(sentAtKill + 800);
            for (final ChildProcess p : List.of(sub1, sub2, pub))
            {
                for (final String text : everyLogHas)
                {
                    assertThat(p.lines()).as("log of %s", p).anyMatch(l -> l.contains(text));
                }
            }
            return new Outcome(sub1.lines(), sub2.lines(), pub.lines());
        }
    }

    private static ChildProcess startAfter(final ChildProcess previous, final String name, final Host host,
        final String... args) throws Exception
    {
        previous.await(l -> l.equals("JOINED"), 90);
        return new ChildProcess(name, host.prefix(), ShapeNode.class, host.jvm(), args);
    }

    static long number(final String line, final String word)
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
}
