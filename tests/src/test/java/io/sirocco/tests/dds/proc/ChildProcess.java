package io.sirocco.tests.dds.proc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/** A child JVM started by a test, its stdout lines collected; killed (SIGKILL) or destroyed by the test. */
public final class ChildProcess implements AutoCloseable
{
    private final String name;
    private final Process process;
    private final CopyOnWriteArrayList<String> lines = new CopyOnWriteArrayList<>();
    private final Thread pump;

    public ChildProcess(final String name, final Class<?> main, final List<String> jvmProperties,
        final String... args) throws IOException
    {
        this(name, List.of(), main, jvmProperties, args);
    }

    /**
     * A child started through a command prefix, for example {@code ip netns exec <ns>} to run it on an emulated
     * host (the prefix must exec the JVM, so that killing the child kills the JVM).
     */
    public ChildProcess(final String name, final List<String> prefix, final Class<?> main,
        final List<String> jvmProperties, final String... args) throws IOException
    {
        this.name = name;
        final List<String> command = new ArrayList<>(prefix);
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Xmx256m");
        // This test JVM's private shm root first, so that a test's own per-host sirocco.multicast.shm.dir (later) wins.
        command.add(io.sirocco.tests.RunShmRoot.jvmProperty());
        command.addAll(jvmProperties);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // Grandchildren (sirocco pub --with-sub forks its subscriber) get no -D of ours, but they inherit this.
        final String inherited = builder.environment().get("JAVA_TOOL_OPTIONS");
        builder.environment().put("JAVA_TOOL_OPTIONS", (inherited == null || inherited.isBlank() ? ""
            : inherited + " ") + io.sirocco.tests.RunShmRoot.jvmProperty());
        process = builder.start();
        pump = Thread.ofPlatform().daemon().name("child-" + name).start(() ->
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = in.readLine()) != null)
                {
                    lines.add(line);
                }
            }
            catch (final IOException ex)
            {
                lines.add("EOF " + ex);
            }
        });
    }

    /** Waits for a line matching the predicate (bounded); returns the first such line since the start. */
    public String await(final Predicate<String> match, final long timeoutSeconds)
    {
        return awaitFrom(0, match, timeoutSeconds);
    }

    /** The number of lines read so far: a mark for {@link #awaitFrom}. */
    public int lineCount()
    {
        return lines.size();
    }

    /**
     * Waits (bounded) for a line matching the predicate among the lines from index {@code from} on (lines printed
     * after a {@link #lineCount()} mark); returns the first such line.
     */
    public String awaitFrom(final int from, final Predicate<String> match, final long timeoutSeconds)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline)
        {
            final String found = firstFrom(from, match);
            if (found != null)
            {
                return found;
            }
            if (!process.isAlive() && firstFrom(from, match) == null)
            {
                throw new AssertionError(name + " exited (" + process.exitValue() + ") before the expected line; " +
                    "output:\n" + String.join("\n", lines));
            }
            LockSupport.parkNanos(5_000_000L);
        }
        throw new AssertionError(name + ": expected line not seen within " + timeoutSeconds + " s; output:\n" +
            String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
    }

    private String firstFrom(final int from, final Predicate<String> match)
    {
        final List<String> snapshot = List.copyOf(lines);
        for (int i = from; i < snapshot.size(); i++)
        {
            if (match.test(snapshot.get(i)))
            {
                return snapshot.get(i);
            }
        }
        return null;
    }

    /**
     * For a failure message: each process's state and its last {@code count} lines, so that one failure in CI says
     * which process stopped where (no rerun needed to triage it).
     */
    public static String tails(final int count, final ChildProcess... children)
    {
        final StringBuilder out = new StringBuilder();
        for (final ChildProcess child : children)
        {
            final List<String> all = child.lines();
            out.append("\n--- ").append(child.name).append(" (")
                .append(child.process.isAlive() ? "alive" : "exited " + child.process.exitValue()).append(", ")
                .append(all.size()).append(" lines), last ").append(Math.min(count, all.size())).append(":\n");
            for (final String line : all.subList(Math.max(0, all.size() - count), all.size()))
            {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }

    @Override
    public String toString()
    {
        return name;
    }

    public List<String> lines()
    {
        return List.copyOf(lines);
    }

    /** Waits (bounded) for the process to end on its own; returns its exit code. */
    public int awaitExit(final long timeoutSeconds) throws InterruptedException
    {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            throw new AssertionError(name + " did not exit within " + timeoutSeconds + " s; output:\n" +
                String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
        }
        return process.exitValue();
    }

    /** Waits (bounded) until every line the process printed has been read (its output pipe closed). */
    public void awaitOutputClosed(final long timeoutSeconds) throws InterruptedException
    {
        if (!pump.join(Duration.ofSeconds(timeoutSeconds)))
        {
            throw new AssertionError(name + ": output still open " + timeoutSeconds + " s after the process ended");
        }
    }

    /** The JVM's process id (for signals such as SIGSTOP). */
    public long pid()
    {
        return process.pid();
    }

    /** SIGKILL: a crash, no clean-up. */
    public void kill() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close()
    {
        if (process.isAlive())
        {
            process.destroyForcibly();
            try
            {
                process.waitFor(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        keepLog();
    }

    /**
     * With {@value #LOG_DIR_PROP} set (a loop that reproduces a rare failure), the child's whole output goes to
     * {@code <dir>/<name>-<pid>.log}: a failure message shows only one process's lines, a split needs all three.
     */
    private void keepLog()
    {
        final String dir = System.getProperty(LOG_DIR_PROP);
        if (dir == null || dir.isBlank())
        {
            return;
        }
        try
        {
            final java.nio.file.Path path = java.nio.file.Path.of(dir);
            java.nio.file.Files.createDirectories(path);
            java.nio.file.Files.write(path.resolve(name + "-" + process.pid() + ".log"), lines());
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException("keeping the log of " + name + " in " + dir, ex);
        }
    }

    /** System property: a directory where every child's whole output is kept when it is closed. */
    public static final String LOG_DIR_PROP = "tests.childLogDir";
}
