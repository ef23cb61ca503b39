package io.sirocco.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;

import io.sirocco.examples.cli.config.ExitCodes;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The exit codes are distinct, {@code sirocco --help} lists each, and a run's code says exclusion before loss before
 * success. (A real exclusion: tests' {@code ExcludedSubExitCodeTest}.)
 */
class ExitCodesTest
{
    private static final int[] ALL = {ExitCodes.OK, ExitCodes.FAILURE, ExitCodes.USAGE, ExitCodes.UNAVAILABLE,
        ExitCodes.NO_PARTNER, ExitCodes.SAMPLES_LOST, ExitCodes.EXCLUDED};

    @Test
    void codesAreDistinctAndListedInTheHelp()
    {
        assertThat(Set.of(0, 1, 2, 3, 4, 5, 6)).containsExactlyInAnyOrder(java.util.Arrays.stream(ALL).boxed()
            .toArray(Integer[]::new));
        final StringWriter out = new StringWriter();
        final CommandLine cli = SiroccoCli.commandLine();
        cli.setOut(new PrintWriter(out));
        assertThat(cli.execute("--help")).isZero();
        final String help = out.toString();
        assertThat(help).contains("Exit codes:");
        for (final int code : ALL)
        {
            assertThat(help).as("--help lists exit code %d", code).containsPattern("(?m)^\\s+" + code + "\\s+\\S");
        }
        assertThat(help).contains("excluded from the domain's group", "samples were lost");
    }

    @Test
    void aRunSaysExclusionBeforeLossBeforeSuccess()
    {
        assertThat(ExitCodes.ofRun(0, 0)).isEqualTo(ExitCodes.OK);
        assertThat(ExitCodes.ofRun(0, 3)).isEqualTo(ExitCodes.SAMPLES_LOST);
        assertThat(ExitCodes.ofRun(1, 0)).isEqualTo(ExitCodes.EXCLUDED);
        assertThat(ExitCodes.ofRun(2, 40)).isEqualTo(ExitCodes.EXCLUDED);
    }

    @Test
    void rdmaInfoKeepsItsDocumentedCode()
    {
        assertThat(RdmaInfoCommand.EXIT_NO_RDMA).isEqualTo(3).isEqualTo(ExitCodes.UNAVAILABLE);
    }
}
