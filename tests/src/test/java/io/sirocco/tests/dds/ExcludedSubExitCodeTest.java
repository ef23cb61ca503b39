package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import io.sirocco.examples.cli.SiroccoCli;
import io.sirocco.examples.cli.config.ExitCodes;
import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code sirocco sub} exits with {@link ExitCodes#EXCLUDED} (6), not 0, when the domain's group excluded it during the
 * run (issue 23 item 7: it used to print "lost 0" and exit 0, hiding the outage). Over shm, a {@code pub}, a
 * {@code sub} and an idle {@code pong} (the third member, so that the two others are a majority) run; the sub is
 * paused with SIGSTOP until the others install a view without it, then resumed: it finds itself excluded, its writer
 * is gone, and it ends with code 6 and a line saying why.
 */
@Timeout(400)
class ExcludedSubExitCodeTest
{
    private static final List<String> JVM = List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
        "--enable-native-access=ALL-UNNAMED");
    /** The pub's INFO line of a view of exactly two members: the pub and the pong, without the paused sub. */
    private static final Pattern TWO_MEMBER_VIEW = Pattern.compile(".*view \\d+ installed .*members=\\[\\d+, \\d+\\].*");

    @Test
    void aSubExcludedDuringTheRunExitsSix() throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        final List<String> common = List.of("--transport", "shm", "--domain", domain);
        try (ChildProcess pong = cli("pong", common, "--seconds", "300");
             ChildProcess sub = cli("sub", common, "--seconds", "300"))
        {
            pong.await(l -> l.startsWith("pong: ready"), 120);
            try (ChildProcess pub = cli("pub", common, "--seconds", "300", "--rate", "200", "--log-level", "info"))
            {
                try
                {
                    sub.await(l -> l.startsWith("sub: ") && l.contains("samples/s"), 120);
                    final int mark = pub.lineCount();
                    signal("STOP", sub);
                    try
                    {
                        pub.awaitFrom(mark, l -> TWO_MEMBER_VIEW.matcher(l).matches(), 120);
                    }
                    finally
                    {
                        signal("CONT", sub);
                    }
                    assertThat(sub.awaitExit(120)).as("sub's exit code").isEqualTo(ExitCodes.EXCLUDED);
                    sub.awaitOutputClosed(30);
                }
                catch (final AssertionError ex)
                {
                    throw new AssertionError(ex.getMessage() + ChildProcess.tails(40, sub, pub, pong), ex);
                }
                assertThat(sub.lines()).as("sub's output").anyMatch(l -> l.startsWith("sub: received "))
                    .anyMatch(l -> l.contains("sub: this process was excluded from the domain's group"));
            }
        }
    }

    private static ChildProcess cli(final String command, final List<String> common, final String... more)
        throws Exception
    {
        final List<String> args = new java.util.ArrayList<>(List.of(command));
        args.addAll(common);
        args.addAll(List.of(more));
        return new ChildProcess(command, SiroccoCli.class, JVM, args.toArray(String[]::new));
    }

    private static void signal(final String signal, final ChildProcess child) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(child.pid())).inheritIO().start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).as("kill -%s finished", signal).isTrue();
        assertThat(kill.exitValue()).as("kill -%s %s", signal, child).isZero();
    }
}
