package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import io.sirocco.examples.cli.SiroccoCli;
import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three of a domain's five processes killed at once (SIGKILL, as a script that stops its helpers, or the soak's end
 * stopping every churn process): the two survivors carry on in a view of their own, and the subscriber receives every
 * sample the publisher wrote. The majority rule guards against a partition whose other side runs on; processes of this
 * host whose death is certain are on no side. Before, the survivors were a minority of the view (2 of 5), excluded
 * themselves, and the samples in flight were lost (the soak smoke run lost 3 to 6 of the long-lived pair's samples).
 */
@Timeout(600)
class MajorityKilledTest
{
    private static final List<String> JVM = List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
        "--enable-native-access=ALL-UNNAMED");
    /** The pub's INFO line of an installed view of exactly two members: the pub and the sub. */
    private static final Pattern TWO_MEMBER_VIEW = Pattern.compile(".*view \\d+ installed .*members=\\[\\d+, \\d+\\].*");
    private static final Pattern SUB_RESULT = Pattern.compile("sub: received (\\d+) samples .* lost (\\d+)");
    /**
     * The pub's run: the kill comes about 1 s in (once the sub reports a rate), the failure detection (2 s) and the
     * view change must end before the pub does, which leaves over 10 s of margin for a loaded machine.
     */
    private static final String PUB_SECONDS = "15";
    private static final Pattern PUB_RESULT = Pattern.compile("pub: sent (\\d+) samples.*");

    @Test
    void survivorsOfAKilledMajorityLoseNothing() throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        final List<String> common = List.of("--transport", "shm", "--domain", domain);
        final List<ChildProcess> pongs = new ArrayList<>();
        try
        {
            for (int i = 0; i < 3; i++)
            {
                pongs.add(cli("pong", common, "--seconds", "500"));
            }
            for (final ChildProcess pong : pongs)
            {
                pong.await(l -> l.startsWith("pong: ready"), 180);
            }
            try (ChildProcess sub = cli("sub", common, "--seconds", "500");
                 ChildProcess pub = cli("pub", common, "--seconds", PUB_SECONDS, "--rate", "200", "--log-level",
                     "info"))
            {
                try
                {
                    sub.await(l -> l.startsWith("sub: ") && l.contains("samples/s"), 180);
                    final int mark = pub.lineCount();
                    killAll(pongs);
                    final String view = pub.awaitFrom(mark, l -> TWO_MEMBER_VIEW.matcher(l).matches(), 180);
                    final String sent = pub.await(l -> PUB_RESULT.matcher(l).matches(), 300);
                    assertThat(pub.lines().indexOf(view)).as("the two-member view came while the pub still wrote")
                        .isLessThan(pub.lines().indexOf(sent));
                    final String received = sub.await(l -> SUB_RESULT.matcher(l).find(), 300);
                    final var s = SUB_RESULT.matcher(received);
                    assertThat(s.find()).isTrue();
                    final var p = PUB_RESULT.matcher(sent);
                    assertThat(p.matches()).isTrue();
                    assertThat(Long.parseLong(s.group(2))).as("lost, by the sub: %s", received).isZero();
                    assertThat(Long.parseLong(s.group(1))).as("received by the sub against %s", sent)
                        .isEqualTo(Long.parseLong(p.group(1)));
                    assertThat(sub.awaitExit(60)).as("sub's exit code").isZero();
                    assertThat(pub.awaitExit(60)).as("pub's exit code").isZero();
                }
                catch (final AssertionError ex)
                {
                    throw new AssertionError(ex.getMessage() + ChildProcess.tails(40, sub, pub), ex);
                }
                final List<String> all = new ArrayList<>(pub.lines());
                all.addAll(sub.lines());
                assertThat(all).as("the survivors' output" + ChildProcess.tails(40, sub, pub))
                    .noneMatch(l -> l.contains("out of the domain's group") || l.contains("excluded"));
            }
        }
        finally
        {
            pongs.forEach(ChildProcess::close);
        }
    }

    /** One {@code kill -9} for all three, so that their deaths land in one view change. */
    private static void killAll(final List<ChildProcess> victims) throws Exception
    {
        final List<String> cmd = new ArrayList<>(List.of("kill", "-9"));
        victims.forEach(v -> cmd.add(String.valueOf(v.pid())));
        final Process kill = new ProcessBuilder(cmd).inheritIO().start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).as("kill -9 finished").isTrue();
        assertThat(kill.exitValue()).as("kill -9 of the pongs").isZero();
    }

    private static ChildProcess cli(final String command, final List<String> common, final String... more)
        throws Exception
    {
        final List<String> args = new ArrayList<>(List.of(command));
        args.addAll(common);
        args.addAll(List.of(more));
        return new ChildProcess(command, SiroccoCli.class, JVM, args.toArray(String[]::new));
    }
}
