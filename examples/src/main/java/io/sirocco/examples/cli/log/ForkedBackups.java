package io.sirocco.examples.cli.log;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The parent side of {@code log-bench --fork}: starts one child JVM per backup (the same command line with
 * {@code --backup-index i}), waits until every child has opened its store and says {@code READY}, starts them all
 * at once with a {@code GO} line on their stdin, and collects one {@code RESULT} line from each.
 *
 * <p>Child protocol (stdout lines): {@code READY}, then {@code RESULT <ackNs> <drainNs> <cpuNs> <directIo>}, with
 * times measured by the child from the moment it read {@code GO}. Used from one thread.
 */
public final class ForkedBackups implements AutoCloseable
{
    /** One child's figures. */
    public record ChildResult(long ackNs, long drainNs, long cpuNs, boolean directIo)
    {
    }

    private final List<Process> processes = new ArrayList<>();
    private final List<BufferedReader> outputs = new ArrayList<>();

    /**
     * Starts the children and waits for each to be READY.
     *
     * @param childArguments the log-bench arguments of child {@code i}, after the main class.
     */
    public ForkedBackups(final String mainClass, final List<List<String>> childArguments) throws IOException
    {
        final String java = ProcessHandle.current().info().command().orElse("java");
        for (final List<String> arguments : childArguments)
        {
            final List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
            for (final String key : System.getProperties().stringPropertyNames())
            {
                if (key.startsWith("sirocco.") || key.startsWith("org.slf4j."))
                {
                    command.add("-D" + key + "=" + System.getProperty(key)); // children run with the same settings
                }
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
            command.addAll(arguments);
            final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            processes.add(process);
            outputs.add(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)));
        }
        for (int i = 0; i < processes.size(); i++)
        {
            final String line = outputs.get(i).readLine();
            if (!"READY".equals(line))
            {
                throw new IOException("log-bench: forked backup " + i + " did not start (said " + line + ")");
            }
        }
    }

    /** Starts every child's run and returns their results, in child order. */
    public List<ChildResult> runAll() throws IOException
    {
        for (final Process process : processes)
        {
            final OutputStream in = process.getOutputStream();
            in.write("GO\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
        }
        final List<ChildResult> results = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++)
        {
            final String line = outputs.get(i).readLine();
            if (line == null || !line.startsWith("RESULT "))
            {
                throw new IOException("log-bench: forked backup " + i + " failed (said " + line + ")");
            }
            final String[] fields = line.split(" ");
            results.add(new ChildResult(Long.parseLong(fields[1]), Long.parseLong(fields[2]),
                Long.parseLong(fields[3]), Boolean.parseBoolean(fields[4])));
        }
        return results;
    }

    /** Waits for the children to exit (they close their stores after the result), killing stragglers. */
    @Override
    public void close() throws InterruptedException
    {
        for (final Process process : processes)
        {
            if (!process.waitFor(60, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
        }
    }
}
