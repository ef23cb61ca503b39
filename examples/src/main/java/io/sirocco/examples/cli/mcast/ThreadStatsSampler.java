package io.sirocco.examples.cli.mcast;

import io.sirocco.examples.cli.config.CliSettings;
import io.sirocco.multicast.Group;
import io.sirocco.multicast.predicate.PredicateEngine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Diagnostics of a member process during an {@code mcast-bench} run (enabled by the environment variable
 * {@code SIROCCO_CLI_BENCH_THREAD_STATS=true}, which the spawned members inherit): every 100 ms it records, for every native
 * thread of the process, the time it ran, the time it waited runnable on a run queue and its number of time slices
 * ({@code /proc/self/task/<tid>/schedstat}), plus the predicate thread's passes and idle parks and the sender's
 * blocked claims. Samples are kept in memory and written to standard error (the member's log) at the end, so the
 * run itself does no I/O but the reads. Stamps are {@code System.nanoTime()} (CLOCK_MONOTONIC, the same clock in
 * every process of the host), so the samples of the members can be lined up with their delivery windows.
 *
 * <p>Lines: {@code TS <ns> <passes> <idleParks> <blockedClaims> <blockedNs> <deliveredOthers>} then one
 * {@code TH <ns> <tid> <runNs> <waitNs> <slices> <name>} per thread.
 */
final class ThreadStatsSampler
{
    private static final long PERIOD_MS = 100;

    private final Group group;
    private final LongSupplier blockedClaims;
    private final LongSupplier blockedNs;
    private final LongSupplier deliveredOthers;
    private final List<String> lines = new ArrayList<>();
    private volatile boolean running = true;
    private Thread thread;

    ThreadStatsSampler(final Group group, final LongSupplier blockedClaims, final LongSupplier blockedNs,
        final LongSupplier deliveredOthers)
    {
        this.group = group;
        this.blockedClaims = blockedClaims;
        this.blockedNs = blockedNs;
        this.deliveredOthers = deliveredOthers;
    }

    /** @return a started sampler when the environment asks for one, else null. */
    static ThreadStatsSampler startIfEnabled(final Group group, final LongSupplier blockedClaims,
        final LongSupplier blockedNs, final LongSupplier deliveredOthers)
    {
        if (!CliSettings.benchThreadStats())
        {
            return null;
        }
        final ThreadStatsSampler s = new ThreadStatsSampler(group, blockedClaims, blockedNs, deliveredOthers);
        s.thread = Thread.ofPlatform().name("bench-stats").daemon(true).start(s::loop);
        return s;
    }

    private void loop()
    {
        while (running)
        {
            sample();
            try
            {
                Thread.sleep(PERIOD_MS);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
    }

    private void sample()
    {
        final long now = System.nanoTime();
        final PredicateEngine e = group.predicateEngine();
        lines.add("TS " + now + " " + e.passes() + " " + e.idleParks() + " " + blockedClaims.getAsLong() + " "
            + blockedNs.getAsLong() + " " + deliveredOthers.getAsLong());
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task")))
        {
            for (final Path t : tasks)
            {
                try
                {
                    final String sched = Files.readString(t.resolve("schedstat")).strip();
                    final String comm = Files.readString(t.resolve("comm")).strip().replace(' ', '_');
                    lines.add("TH " + now + " " + t.getFileName() + " " + sched + " " + comm);
                }
                catch (final IOException ex)
                {
                    // The thread ended between the listing and the read.
                }
            }
        }
        catch (final IOException ex)
        {
            lines.add("ERR " + ex);
        }
    }

    /** Takes a last sample, stops, and writes every sample to {@code out}. */
    void stopAndDump(final PrintStream out)
    {
        running = false;
        try
        {
            thread.join(1_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        sample();
        for (final String l : lines)
        {
            out.println(l);
        }
        out.flush();
    }
}
