package io.sirocco.examples.cli.config;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/**
 * Bad usage gets one line on stderr, {@code sirocco <command>: <what is wrong> (see sirocco <command> --help)}, and
 * exit code 2, instead of picocli's default of the message followed by the whole usage text.
 */
public final class UsageErrors implements IParameterExceptionHandler
{
    @Override
    public int handleParseException(final ParameterException ex, final String[] args)
    {
        final CommandLine cmd = ex.getCommandLine();
        final String name = cmd.getCommandSpec().qualifiedName();
        final PrintWriter err = cmd.getErr();
        err.println(name + ": " + ex.getMessage() + " (see " + name + " --help)");
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }
}
