package io.sirocco.tests;

import io.sirocco.examples.cli.SiroccoCli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One {@code sirocco} command run in this JVM with {@link System#out} captured (the benchmark commands print their
 * report and JSON line there), restored afterwards whatever happened. Tests that run commands are not run in
 * parallel with each other in one JVM (System.out is global).
 *
 * @param exit the command's exit code.
 * @param text everything it printed to System.out.
 */
public record CliRun(int exit, String text)
{
    public static CliRun execute(final String... args)
    {
        final PrintStream original = System.out;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int exit;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try
        {
            exit = SiroccoCli.commandLine().execute(args);
        }
        finally
        {
            System.setOut(original);
        }
        return new CliRun(exit, out.toString(StandardCharsets.UTF_8));
    }

    /** @return the last line printed (the JSON line of a {@code --json} run). */
    public String lastLine()
    {
        final String[] lines = text.strip().split("\n");
        return lines[lines.length - 1];
    }
}
