package io.sirocco.examples.cli.mcast;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.sirocco.examples.cli.config.CliSettings;
import io.sirocco.multicast.config.MulticastSettings;
import io.sirocco.transport.agent.Agents;

/** Member processes for {@code mcast-bench} and the multi-process tests. Stderr of member i goes to a temp log. */
public final class McastProcessCluster
{
    private McastProcessCluster()
    {
    }

    /**
     * Spawns {@code base.members()} member processes ({@link McastMemberMain}) from this JVM class path, optionally
     * SIGKILLs the last one {@code killAtMs} after all are in the first view, and collects the survivors' results.
     *
     * @return wall-clock ms of the kill, or 0.
     */
    public static long run(final McastMemberParams base, final long killAtMs, final long timeoutS,
        final List<McastMemberResult> results) throws Exception
    {
        final boolean mixed = "mixed".equals(base.transport());
        final List<String> endpoints = new ArrayList<>();
        final List<Integer> ports = "tcp".equals(base.transport()) || mixed ? freePorts(base.members()) : List.of();
        final List<List<String>> prefixes = new ArrayList<>();
        final List<String> hosts = new ArrayList<>();
        for (int i = 0; i < base.members(); i++)
        {
            endpoints.add(ports.isEmpty() ? "" : "127.0.0.1:" + ports.get(i));
            prefixes.add(List.of());
            // mixed: the first half of the members stand for one host, the rest for another.
            hosts.add(mixed ? base.group() + (i < (base.members() + 1) / 2 ? "-hostA" : "-hostB") : "");
        }
        return runWith(base, endpoints, prefixes, hosts, killAtMs,
            procs -> procs.get(procs.size() - 1).destroyForcibly(), timeoutS, results);
    }

    /**
     * Like {@link #run} with explicit endpoints, a command prefix per member (for example
     * {@code ip netns exec ns1}), and a fault action applied {@code actionAtMs} after all members are in the first
     * view; the last member is the victim and its result is not awaited.
     *
     * @return wall-clock ms of the action, or 0.
     */
    public static long runWith(final McastMemberParams base, final List<String> endpoints,
        final List<List<String>> prefixes, final long actionAtMs,
        final Consumer<List<Process>> action, final long timeoutS,
        final List<McastMemberResult> results) throws Exception
    {
        final List<String> hosts = new ArrayList<>();
        for (int i = 0; i < base.members(); i++)
        {
            // A prefixed member (a network namespace) stands for another host.
            hosts.add(prefixes.get(i).isEmpty() ? "" : base.group() + "-h" + i);
        }
        return runWith(base, endpoints, prefixes, hosts, actionAtMs, action, timeoutS, results);
    }

    /**
     * Like {@link #runWith(McastMemberParams, List, List, long, java.util.function.Consumer, long, List)} with the
     * host name each member announces ({@code sirocco.multicast.host}; empty: the real host name).
     *
     * @return wall-clock ms of the action, or 0.
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public static long runWith(final McastMemberParams base, final List<String> endpoints,
        final List<List<String>> prefixes, final List<String> hosts, final long actionAtMs,
        final Consumer<List<Process>> action, final long timeoutS,
        final List<McastMemberResult> results) throws Exception
    {
        return runWith(base, endpoints, prefixes, hosts, actionAtMs, action, base.members() - 1, timeoutS, results);
    }

    /**
     * SIGKILLs member {@code victim} {@code killAtMs} after all are in the first view (member 0 is the contact, rank 0
     * of the first view: the view-change leader), and collects the others' results in index order.
     *
     * @return wall-clock ms of the kill.
     */
    public static long runKilling(final McastMemberParams base, final int victim, final long killAtMs,
        final long timeoutS, final List<McastMemberResult> results) throws Exception
    {
        final List<String> endpoints = new ArrayList<>();
        final List<Integer> ports = "tcp".equals(base.transport()) ? freePorts(base.members()) : List.of();
        final List<List<String>> prefixes = new ArrayList<>();
        final List<String> hosts = new ArrayList<>();
        for (int i = 0; i < base.members(); i++)
        {
            endpoints.add(ports.isEmpty() ? "" : "127.0.0.1:" + ports.get(i));
            prefixes.add(List.of());
            hosts.add("");
        }
        return runWith(base, endpoints, prefixes, hosts, killAtMs, procs -> procs.get(victim).destroyForcibly(),
            victim, timeoutS, results);
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    private static long runWith(final McastMemberParams base, final List<String> endpoints,
        final List<List<String>> prefixes, final List<String> hosts, final long actionAtMs,
        final Consumer<List<Process>> action, final int victim, final long timeoutS,
        final List<McastMemberResult> results) throws Exception
    {
        final long killAtMs = actionAtMs;
        final List<Process> procs = new ArrayList<>();
        final List<CompletableFuture<Long>> ready = new ArrayList<>();
        final List<CompletableFuture<McastMemberResult>> done = new ArrayList<>();
        long killEpochMs = 0;
        try
        {
            for (int i = 0; i < base.members(); i++)
            {
                final List<String> cmd = memberCommand(base.withIndex(i, endpoints.get(i)), prefixes.get(i),
                    hosts.get(i), timeoutS);
                final File log = new File(System.getProperty("java.io.tmpdir"),
                    "sirocco-" + base.group() + "-m" + i + ".log");
                final Process proc = new ProcessBuilder(cmd).redirectError(log).start();
                procs.add(proc);
                final CompletableFuture<Long> r = new CompletableFuture<>();
                final CompletableFuture<McastMemberResult> d = new CompletableFuture<>();
                ready.add(r);
                done.add(d);
                Agents.threadFactory("mcast-bench-child-" + i).newThread(() -> readChild(proc, r, d)).start();
            }
            for (final var r : ready)
            {
                r.get(90, TimeUnit.SECONDS);
            }
            if (killAtMs > 0)
            {
                Thread.sleep(killAtMs);
                killEpochMs = System.currentTimeMillis();
                action.accept(procs);
            }
            for (int i = 0; i < base.members(); i++)
            {
                if (killAtMs > 0 && i == victim)
                {
                    continue;
                }
                results.add(done.get(i).get(timeoutS + 30, TimeUnit.SECONDS));
            }
        }
        finally
        {
            stopAll(procs);
        }
        return killEpochMs;
    }

    /** The command line of one member process (its host prefix, its stand-in host identity, its parameters). */
    private static List<String> memberCommand(final McastMemberParams params, final List<String> prefix,
        final String host, final long timeoutS)
    {
        final List<String> cmd = new ArrayList<>(prefix);
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        if (!host.isEmpty())
        {
            cmd.add("-Dsirocco.multicast.host=" + host);
        }
        // The members share this process's shm root (a test's private one, or one the user configured): the group
        // directory the caller cleans up is the one the members used.
        cmd.add("-D" + MulticastSettings.SHM_DIR + "=" + MulticastSettings.shmDirectory());
        cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED",
            "-Xms128m", "-Xmx512m", "-XX:+UseSerialGC", "-D" + CliSettings.BENCH_MEMBER_TIMEOUT_S + "=" + timeoutS,
            "-cp", System.getProperty("java.class.path"), McastMemberMain.class.getName()));
        cmd.addAll(params.toArgs());
        return cmd;
    }

    /** Closes every member's standard input (members leave when it closes), then kills those still running 10 s on. */
    private static void stopAll(final List<Process> procs) throws InterruptedException
    {
        for (final Process proc : procs)
        {
            try
            {
                proc.getOutputStream().close();
            }
            catch (final IOException ignored)
            {
                // Child already gone.
            }
        }
        for (final Process proc : procs)
        {
            if (!proc.waitFor(10, TimeUnit.SECONDS))
            {
                proc.destroyForcibly();
            }
        }
    }

    static void readChild(final Process proc, final CompletableFuture<Long> ready,
        final CompletableFuture<McastMemberResult> done)
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(proc.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                if (line.startsWith("READY "))
                {
                    ready.complete(Long.parseLong(line.substring(6).strip()));
                }
                else if (line.startsWith("RESULT "))
                {
                    done.complete(McastMemberResult.fromJson(line.substring(7)));
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            done.completeExceptionally(ex);
        }
        String exit = "unknown";
        try
        {
            exit = proc.waitFor(5, TimeUnit.SECONDS) ? String.valueOf(proc.exitValue()) : "still running";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        ready.completeExceptionally(new IllegalStateException("member exited before READY (exit " + exit + ")"));
        done.completeExceptionally(new IllegalStateException("member exited without a RESULT"));
    }

    public static List<Integer> freePorts(final int n) throws IOException
    {
        final List<ServerSocket> sockets = new ArrayList<>();
        final List<Integer> ports = new ArrayList<>();
        try
        {
            for (int i = 0; i < n; i++)
            {
                final ServerSocket s = new ServerSocket(0);
                sockets.add(s);
                ports.add(s.getLocalPort());
            }
        }
        finally
        {
            for (final ServerSocket s : sockets)
            {
                s.close();
            }
        }
        return ports;
    }

}
