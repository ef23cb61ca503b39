package io.sirocco.examples.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sirocco} command-line tool. Each job is a subcommand in this package; {@code ./sirocco} at the
 * repository root runs this class from the examples fat jar.
 *
 * <p>Exit codes: 0 success, 1 a failure of the job itself, 2 bad usage (picocli's default), and job-specific codes
 * documented on each subcommand (for example 3 for "no RDMA device").
 */
@Command(
    name = "sirocco",
    mixinStandardHelpOptions = true,
    versionProvider = SiroccoVersion.class,
    description = "Sirocco: a pure-Java DDS over atomic multicast.",
    subcommands = {
        CommandLine.HelpCommand.class,
        TransportBenchCommand.class,
        IdlCommand.class,
        McastBenchCommand.class,
        RdmaInfoCommand.class,
        LogBenchCommand.class,
        PingCommand.class,
        PongCommand.class,
        PubCommand.class,
        SubCommand.class,
    })
public final class SiroccoCli
{
    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, for tests that run subcommands in-process. */
    public static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new SiroccoCli());
        commandLine.setUsageHelpAutoWidth(true);
        return commandLine;
    }
}
