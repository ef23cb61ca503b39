package io.sirocco.examples.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

import io.sirocco.ib.RdmaAvailability;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code sirocco rdma-info} in-process: without a device (CI) it says so and exits 3; with one it lists it and
 * exits 0. Either way the {@code --json} line closes the output.
 */
final class RdmaInfoCommandTest
{
    @Test
    void reportsDevicesOrTheirAbsence()
    {
        final StringWriter out = new StringWriter();
        final CommandLine cli = SiroccoCli.commandLine();
        cli.setOut(new PrintWriter(out));

        final int exit = cli.execute("rdma-info", "--json");

        final String[] lines = out.toString().strip().split("\n");
        final String last = lines[lines.length - 1];
        assertThat(last).startsWith("{\"devices\":[").endsWith("}");
        final RdmaAvailability probe = RdmaAvailability.probe();
        if (probe.available())
        {
            assertThat(exit).isZero();
            assertThat(out.toString()).contains("device " + probe.devices().get(0).name());
        }
        else
        {
            assertThat(exit).isEqualTo(RdmaInfoCommand.EXIT_NO_RDMA);
            assertThat(lines[0]).startsWith("no RDMA device: missing ").contains(probe.missing());
            assertThat(last).contains("\"devices\":[]");
        }
    }

    @Test
    void selfTestWithoutDeviceExitsThreeAndNeverTouchesVerbs()
    {
        if (RdmaAvailability.probe().available())
        {
            return; // on hardware the self-test really runs; that is the manual verification step in docs/rdma.md
        }
        final StringWriter out = new StringWriter();
        final CommandLine cli = SiroccoCli.commandLine();
        cli.setOut(new PrintWriter(out));

        assertThat(cli.execute("rdma-info", "--self-test")).isEqualTo(RdmaInfoCommand.EXIT_NO_RDMA);
        assertThat(out.toString()).startsWith("no RDMA device");
    }
}
