package io.sirocco.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Bad option values are usage errors found while parsing, before a command starts anything: exit 2 and one line on
 * stderr naming the option and what it accepts, never a stack trace (issue 23, item 9). The commands are not run: a
 * run would start a participant, a log or a transport and print more than one line.
 */
class OptionValidationTest
{
    static List<List<String>> badCommandLines()
    {
        return List.of(
            List.of("pub", "--transport", "carrier-pigeon"),
            List.of("sub", "--domain", "-1"),
            List.of("ping", "--domain", "233"),
            List.of("pub", "--size", "-5"),
            List.of("pub", "--size", "2000000000"),
            List.of("ping", "--size", "lots"),
            List.of("pub", "--seconds", "-1"),
            List.of("pong", "--seconds", "0"),
            List.of("pub", "--rate", "-5"),
            List.of("ping", "--warmup", "-1"),
            List.of("log-bench", "--entries", "-5"),
            List.of("log-bench", "--zones", "0"),
            List.of("transport-bench", "--transport", "carrier-pigeon"),
            List.of("mcast-bench", "--members", "0"),
            List.of("mcast-bench", "--transport", "udp"));
    }

    @ParameterizedTest
    @MethodSource("badCommandLines")
    void badValueIsOneLineAndExitTwo(final List<String> args)
    {
        final StringWriter err = new StringWriter();
        final StringWriter out = new StringWriter();
        final CommandLine cli = SiroccoCli.commandLine();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(out, true));
        final int exit = cli.execute(args.toArray(String[]::new));
        final String option = args.get(1);
        assertThat(exit).as("exit code of %s", args).isEqualTo(2);
        assertThat(err.toString().strip().lines()).as("stderr of %s", args).singleElement().asString()
            .startsWith("sirocco " + args.get(0) + ": ")
            .contains(option)
            .contains(args.get(2))
            .doesNotContain("Exception");
        assertThat(out.toString()).as("stdout of %s", args).isEmpty();
    }
}
