package io.sirocco.examples.cli.durable;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.sirocco.examples.cli.config.LogLevels;

/**
 * One child JVM of the durability demo ({@link DemoRole}), its stdout lines queued by a pump thread. {@link #kill}
 * is a SIGKILL ({@link Process#destroyForcibly()} on Unix).
 *
 * <p>Threads: the pump thread fills the queue; the demo's thread alone awaits lines, writes stdin and kills.
 */
public final class DemoChild implements AutoCloseable
{
    private final String name;
    private final Process process;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();

    /**
     * @param jvm  system properties and JVM options for the child.
     * @param args {@link DemoRole}'s arguments.
     */
    public DemoChild(final String name, final List<String> jvm, final String... args) throws IOException
    {
        this.name = name;
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        final List<String> level = LogLevels.childJvmOptions();
        // The demo prints results; the children's WARNs (a failed participant: the demo's own kill) only when asked.
        command.addAll(level.isEmpty() ? List.of("-D" + LogLevels.PROPERTY + "=error") : level);
        command.addAll(jvm);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(DemoRole.class.getName());
        command.addAll(List.of(args));
        process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Thread.ofPlatform().daemon().name("sirocco-demo-" + name).start(this::pump);
    }

    private void pump()
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
            lines.add("EXITED " + ex.getMessage());
            return;
        }
        lines.add("EXITED");
    }

    /**
     * The next line that {@code match}es, within {@code timeoutSeconds}; every line before it goes to {@code others}.
     *
     * @throws IllegalStateException on timeout, or when the child exited or printed {@code BROKEN}.
     */
    public String await(final Predicate<String> match, final Consumer<String> others, final long timeoutSeconds)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true)
        {
            final String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null)
            {
                throw new IllegalStateException(name + ": no expected line within " + timeoutSeconds + " s");
            }
            if (match.test(line))
            {
                return line;
            }
            if (line.startsWith("EXITED") || line.startsWith("BROKEN"))
            {
                throw new IllegalStateException(name + ": " + line);
            }
            others.accept(line);
        }
    }

    /** Writes one line to the child's stdin. */
    public void tell(final String line) throws IOException
    {
        final OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** SIGKILL. */
    public void kill() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException
    {
        kill();
    }
}
