package io.sirocco.tests.log;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Starts child JVMs for the log tests and follows their stdout lines. */
final class Children implements AutoCloseable
{
    private final List<Process> processes = new ArrayList<>();

    static final class Child
    {
        final Process process;
        final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
        volatile boolean ended;

        Child(final Process process)
        {
            this.process = process;
            Thread.ofPlatform().daemon(true).name("child-out-" + process.pid()).start(() ->
            {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream())))
                {
                    String line;
                    while ((line = in.readLine()) != null)
                    {
                        lines.add(line);
                    }
                }
                catch (final IOException ignored)
                {
                    // the child died
                }
                ended = true;
            });
        }

        /** Waits for a line matching {@code test}; false if the child ended or the timeout passed first. */
        boolean await(final Predicate<List<String>> test, final long timeoutS) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
            while (System.nanoTime() < deadline)
            {
                if (test.test(List.copyOf(lines)))
                {
                    return true;
                }
                if (ended && !process.isAlive())
                {
                    return test.test(List.copyOf(lines));
                }
                Thread.sleep(5);
            }
            return false;
        }
    }

    Child start(final Class<?> main, final String... args) throws IOException
    {
        final String java = ProcessHandle.current().info().command().orElse("java");
        // C1 only: these children live seconds; C2's compiler threads would only slow their start on 2 cores.
        final List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp",
            System.getProperty("java.class.path"), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", main.getName()));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        processes.add(process);
        return new Child(process);
    }

    @Override
    public void close()
    {
        for (final Process process : processes)
        {
            process.destroyForcibly();
        }
    }
}
