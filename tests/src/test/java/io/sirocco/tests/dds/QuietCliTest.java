package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.sirocco.examples.cli.SiroccoCli;
import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The CLI prints its results and nothing else by default: {@code sirocco ping --with-pong} in a child JVM with the
 * CLI's own logging configuration (no level set on the command line) prints no TRACE, DEBUG or INFO line (a WARN
 * says something needs action, which a loaded test machine can cause: a late heartbeat), and with
 * {@code --verbose} it does print the libraries' INFO lines (so the first check is not passing because nothing
 * logs at all). Both processes' output is read: the forked pong writes to the same stderr.
 */
@Timeout(300)
class QuietCliTest
{
    private static final Pattern LOG_LINE = Pattern.compile("\\[[^]]+] (TRACE|DEBUG|INFO) ");
    private static final List<String> JVM = List.of("--enable-native-access=ALL-UNNAMED");

    @Test
    void pingWithPongPrintsOnlyItsResults() throws Exception
    {
        final List<String> lines = ping();
        assertThat(lines).as("the ping's output").anyMatch(l -> l.trim().startsWith("total"));
        assertThat(lines).as("INFO and finer lines in the ping's output").noneMatch(l -> LOG_LINE.matcher(l).find());
    }

    @Test
    void verbosePingPrintsTheLibrariesInfoLines() throws Exception
    {
        final List<String> lines = ping("--verbose");
        assertThat(lines).as("the ping's output").anyMatch(l -> l.trim().startsWith("total"));
        assertThat(lines).as("INFO lines with --verbose").anyMatch(l -> l.contains(" INFO "));
    }

    private static List<String> ping(final String... extra) throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        final List<String> args = new ArrayList<>(List.of("ping", "--with-pong", "--seconds", "1",
            "--warmup", "0", "--transport", "shm", "--domain", domain));
        args.addAll(List.of(extra));
        try (ChildProcess ping = new ChildProcess("ping", SiroccoCli.class, JVM, args.toArray(String[]::new)))
        {
            assertThat(ping.awaitExit(240)).as("ping exit code; output:%n%s", ping.lines()).isZero();
            ping.awaitOutputClosed(30);
            return ping.lines();
        }
    }
}
