package io.sirocco.examples.cli;

import java.util.Locale;

import io.sirocco.examples.cli.config.LogLevels;
import io.sirocco.examples.cli.config.UsageErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code sirocco} command-line tool. Each job is a subcommand in this package; {@code ./sirocco} at the
 * repository root runs this class from the examples fat jar.
 *
 * <p>Exit codes ({@code ExitCodes}, one meaning each across the commands): 0 success, 1 a failure of the job
 * itself, 2 bad usage (one line saying what is wrong, printed before anything starts: option values are checked as
 * they are parsed, {@code OptionValues}), 3 something needed is not there (no RDMA device), 4 no partner matched
 * within 60 s, 5 samples were lost (a RELIABLE {@code sub}), 6 this process was excluded from the domain's group during
 * the run.
 *
 * <p>Output: results only. Library logs below WARN are off unless {@code --verbose} or {@code --log-level} asks
 * for them ({@link LogLevels}).
 */
@Command(
    name = "sirocco",
    mixinStandardHelpOptions = true,
    versionProvider = SiroccoVersion.class,
    description = "Sirocco: a pure-Java DDS over atomic multicast.",
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
        "0:success",
        "1:the job failed",
        "2:bad usage",
        "3:something needed is not there (rdma-info: no RDMA device)",
        "4:no partner matched within 60 s (ping, pub)",
        "5:samples were lost (a RELIABLE sub, pub --with-sub)",
        "6:this process was excluded from the domain's group during the run (sub, pong, ping, pub)"},
    subcommands = {
        CommandLine.HelpCommand.class,
        TransportBenchCommand.class,
        IdlCommand.class,
        McastBenchCommand.class,
        RdmaInfoCommand.class,
        LogBenchCommand.class,
        DurabilityServiceCommand.class,
        DurabilityDemoCommand.class,
        PingCommand.class,
        PongCommand.class,
        PubCommand.class,
        SubCommand.class,
        ExampleCommand.class,
        LsCommand.class,
        SpyCommand.class,
        SoakCommand.class,
    })
public final class SiroccoCli
{
    @Option(names = "--verbose", scope = ScopeType.INHERIT,
        description = "also print the libraries' INFO lines (same as --log-level info)")
    boolean verbose;

    @Option(names = "--log-level", scope = ScopeType.INHERIT, paramLabel = "LEVEL",
        description = "log level of the libraries: trace, debug, info, warn (default), error, off")
    void logLevel(final String level)
    {
        if (!LogLevels.LEVELS.contains(level.toLowerCase(Locale.ROOT)))
        {
            throw new CommandLine.ParameterException(new CommandLine(this),
                "--log-level: '" + level + "' is not one of trace, debug, info, warn, error, off");
        }
    }

    public static void main(final String[] args)
    {
        LogLevels.applyFrom(args);
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, for tests that run subcommands in-process. */
    public static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new SiroccoCli());
        commandLine.setUsageHelpAutoWidth(true);
        commandLine.setParameterExceptionHandler(new UsageErrors());
        return commandLine;
    }
}
