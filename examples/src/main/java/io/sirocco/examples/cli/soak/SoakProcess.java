package io.sirocco.examples.cli.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.sirocco.examples.cli.config.LogLevels;
import io.sirocco.multicast.config.MulticastSettings;
import io.sirocco.transport.agent.Agents;

/**
 * The supervisor's handle on one soak node process ({@link SoakNodeMain}): starts it, reads its report lines on a
 * pump thread of its own, and kills, freezes or ends it. Concurrency: the pump thread is the only writer of the
 * reported fields (volatile, or a map replaced whole); the supervisor thread reads them.
 */
final class SoakProcess
{
    final String role;
    final long id;
    final boolean stable;
    private final Process process;
    private final Thread pump;
    private volatile boolean ready;
    private volatile boolean done;
    private volatile String failure = "";
    private volatile long sent;
    private volatile long writeTimeouts;
    private volatile long received;
    private volatile long gaps;
    private volatile long disorder;
    private volatile long badStarts;
    private volatile Map<Long, Long> stableCounts = Map.of();
    private volatile Map<Long, Long> stableLast = Map.of();
    private volatile boolean frozen;

    private SoakProcess(final String role, final long id, final Process process)
    {
        this.role = role;
        this.id = id;
        this.stable = id < SeqChecker.CHURN_ID_BASE;
        this.process = process;
        this.pump = Agents.threadFactory("soak-" + role + "-" + id).newThread(this::pumpLines);
        pump.setDaemon(true);
        pump.start();
    }

    /** Starts a node; its stderr goes to {@code logDir/<role>-<id>.log}. */
    static SoakProcess start(final SoakPlan plan, final String role, final long id, final Path shmDir,
        final Path logDir) throws IOException
    {
        final List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-Xms32m", "-Xmx192m", "-XX:+UseSerialGC",
            "-D" + MulticastSettings.SHM_DIR + "=" + shmDir, "-Dsirocco.dds.interface=lo"));
        cmd.addAll(LogLevels.childJvmOptions());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SoakNodeMain.class.getName(), role,
            String.valueOf(id), plan.transport(), String.valueOf(plan.domain()), String.valueOf(plan.rate()),
            String.valueOf(plan.size()), String.valueOf(plan.stableSubscribers())));
        final Process process = new ProcessBuilder(cmd)
            .redirectError(ProcessBuilder.Redirect.appendTo(logDir.resolve(role + "-" + id + ".log").toFile()))
            .start();
        return new SoakProcess(role, id, process);
    }

    private void pumpLines()
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                parse(line);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            failure = "output unreadable: " + ex;
        }
    }

    private void parse(final String line)
    {
        final String[] f = line.split(" ");
        switch (f[0])
        {
            case "READY" -> ready = true;
            case "SENT", "DONE" ->
            {
                if (f.length >= 3)
                {
                    sent = Long.parseLong(f[1]);
                    writeTimeouts = Long.parseLong(f[2]);
                }
                done |= "DONE".equals(f[0]);
            }
            case "STAT" -> parseStat(f);
            case "FAIL", "UNACKED" -> failure = line;
            default ->
            {
                // Anything else on stdout is not a report line.
            }
        }
    }

    private void parseStat(final String[] f)
    {
        received = Long.parseLong(f[1]);
        gaps = Long.parseLong(f[2]);
        disorder = Long.parseLong(f[3]);
        badStarts = Long.parseLong(f[4]);
        if (!"-".equals(f[5]))
        {
            final Map<Long, Long> counts = new HashMap<>();
            final Map<Long, Long> last = new HashMap<>();
            for (final String w : f[5].split(","))
            {
                final String[] parts = w.split(":");
                counts.put(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
                last.put(Long.parseLong(parts[0]), Long.parseLong(parts[2]));
            }
            stableCounts = Map.copyOf(counts);
            stableLast = Map.copyOf(last);
        }
    }

    long pid()
    {
        return process.pid();
    }

    boolean alive()
    {
        return process.isAlive();
    }

    boolean ready()
    {
        return ready;
    }

    boolean done()
    {
        return done;
    }

    String failure()
    {
        return failure;
    }

    long sent()
    {
        return sent;
    }

    long writeTimeouts()
    {
        return writeTimeouts;
    }

    long received()
    {
        return received;
    }

    long gaps()
    {
        return gaps;
    }

    long disorder()
    {
        return disorder;
    }

    long badStarts()
    {
        return badStarts;
    }

    /** Samples received from a long-lived writer, by its id. */
    long receivedFrom(final long writer)
    {
        return stableCounts.getOrDefault(writer, 0L);
    }

    /** The highest sequence number received from a long-lived writer, by its id. */
    long lastFrom(final long writer)
    {
        return stableLast.getOrDefault(writer, 0L);
    }

    boolean frozen()
    {
        return frozen;
    }

    int exitCode()
    {
        return process.exitValue();
    }

    /** SIGKILL, and waits (bounded) for the process and its last report lines. */
    void kill() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        pump.join(5_000);
    }

    /** SIGSTOP (true) or SIGCONT (false): the process falls silent as if cut off, then comes back. */
    void freeze(final boolean stop) throws IOException, InterruptedException
    {
        final Process signal = new ProcessBuilder("kill", stop ? "-STOP" : "-CONT", String.valueOf(process.pid()))
            .redirectErrorStream(true).start();
        signal.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        signal.waitFor(10, TimeUnit.SECONDS);
        frozen = stop;
    }

    /** Closes the node's standard input: it drains, reports and exits. Waits up to {@code seconds}. */
    boolean finish(final long seconds) throws InterruptedException
    {
        try
        {
            process.getOutputStream().close();
        }
        catch (final IOException ignored)
        {
            // Already gone: waitFor says so.
        }
        final boolean exited = process.waitFor(seconds, TimeUnit.SECONDS);
        pump.join(5_000);
        return exited;
    }
}
