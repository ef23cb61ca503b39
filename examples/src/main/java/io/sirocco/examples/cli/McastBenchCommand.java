package io.sirocco.examples.cli;

import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.mcast.McastProcessCluster;
import io.sirocco.examples.cli.mcast.McastMemberParams;
import io.sirocco.examples.cli.mcast.McastMemberResult;
import io.sirocco.examples.cli.mcast.McastTotals;
import io.sirocco.examples.cli.mcast.McastMemberRunner;
import io.sirocco.multicast.view.LocalRegistry;
import io.sirocco.multicast.view.ShmRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code sirocco mcast-bench}: atomic-multicast throughput with Spindle's switches, in the shape of the Spindle
 * paper's experiments. Spawns its own member processes (or threads for {@code --transport local}); every member sends
 * its share and delivers everything; the figures are medians over members.
 */
@Command(name = "mcast-bench", mixinStandardHelpOptions = true,
    description = "Atomic multicast benchmark: members, senders, Spindle batching/null-sends, subgroups, delays, kill.")
public final class McastBenchCommand implements Callable<Integer>
{
    @Option(names = "--members", defaultValue = "3", description = "Member processes (default ${DEFAULT-VALUE}).",
        converter = OptionValues.Positive.class)
    int members;

    @Option(names = "--senders", defaultValue = "all", description = "all|half|one (default ${DEFAULT-VALUE}).")
    String senders;

    @Option(names = "--size", defaultValue = "1024", description = "Message bytes, >= 16 (default ${DEFAULT-VALUE}).",
        converter = OptionValues.PayloadBytes.class)
    int size;

    @Option(names = "--window", defaultValue = "100", description = "Slots per sender (default ${DEFAULT-VALUE}).")
    int window;

    @Option(names = "--messages", defaultValue = "200000",
        description = "Messages per sender and active subgroup (default ${DEFAULT-VALUE}).",
        converter = OptionValues.PositiveLong.class)
    long messages;

    @Option(names = "--transport", defaultValue = "shm",
        description = "shm|tcp|local|mixed (mixed: two hosts stood for by halves of the members; default "
            + "${DEFAULT-VALUE}).",
        converter = OptionValues.McastTransport.class)
    String transport;

    @Option(names = "--batching", defaultValue = "on", description = "on|off (default ${DEFAULT-VALUE}).")
    String batching;

    @Option(names = "--nulls", defaultValue = "on", description = "on|off (default ${DEFAULT-VALUE}).")
    String nulls;

    @Option(names = "--subgroups", defaultValue = "1", description = "Subgroups (default ${DEFAULT-VALUE}).")
    int subgroups;

    @Option(names = "--active", defaultValue = "all", description = "one|all subgroups carry traffic.")
    String active;

    @Option(names = "--delay-us", defaultValue = "0", description = "Busy-wait after each send of delayed senders.")
    long delayUs;

    @Option(names = "--delayed", defaultValue = "one", description = "one|half of the senders are delayed.")
    String delayed;

    @Option(names = "--delay-mode", defaultValue = "spin",
        description = "spin: busy-wait keeping the core (the paper's); yield: busy-wait yielding the core between "
            + "clock reads (default ${DEFAULT-VALUE}).")
    String delayMode;

    @Option(names = "--kill-one-at", defaultValue = "0",
        description = "SIGKILL the last member this many ms after start (0: never).")
    long killAtMs;

    @Option(names = "--heartbeat-ms", defaultValue = "10", description = "Heartbeat period (default ${DEFAULT-VALUE}).")
    long heartbeatMs;

    @Option(names = "--suspicion-ms", defaultValue = "2000",
        description = "Suspicion timeout (default ${DEFAULT-VALUE}).")
    long suspicionMs;

    @Option(names = "--timeout-s", defaultValue = "300", description = "Give up after (default ${DEFAULT-VALUE}).")
    long timeoutS;

    @Option(names = "--json", description = "End the output with one JSON line.")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        if (size < 16 || members < 2 || members > 64 || window < 1 || subgroups < 1)
        {
            System.err.println("mcast-bench: need --size >= 16, 2 <= --members <= 64, --window >= 1, --subgroups >= 1");
            return 2;
        }
        if (!List.of("spin", "yield").contains(delayMode))
        {
            System.err.println("mcast-bench: --delay-mode must be spin or yield");
            return 2;
        }
        if (!List.of("shm", "tcp", "local", "mixed").contains(transport))
        {
            System.err.println("mcast-bench: --transport must be shm, tcp, local or mixed");
            return 2;
        }
        final String group = "bench" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final McastMemberParams base = new McastMemberParams(group, 0, members, transport, senders, size, window,
            messages, "on".equals(batching), "on".equals(nulls), subgroups, active, delayUs, delayed, heartbeatMs,
            suspicionMs, "", delayMode);
        final List<McastMemberResult> results = new ArrayList<>();
        long killEpochMs = 0;
        try
        {
            if ("local".equals(transport))
            {
                runInProcess(base, results);
            }
            else
            {
                killEpochMs = McastProcessCluster.run(base, killAtMs, timeoutS, results);
            }
        }
        finally
        {
            ShmRegistry.destroy(group);
            LocalRegistry.forget(group);
        }
        return report(results, killEpochMs);
    }

    private void runInProcess(final McastMemberParams base, final List<McastMemberResult> results) throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(members);
        try
        {
            runInProcess(base, results, pool);
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private void runInProcess(final McastMemberParams base, final List<McastMemberResult> results,
        final ExecutorService pool) throws Exception
    {
        final List<CompletableFuture<McastMemberRunner>> joins = new ArrayList<>();
        for (int i = 0; i < members; i++)
        {
            final McastMemberParams p = base.withIndex(i, "");
            joins.add(CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    return new McastMemberRunner(p, Duration.ofSeconds(60));
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
            }, pool));
        }
        final List<McastMemberRunner> runners = new ArrayList<>();
        for (final var f : joins)
        {
            runners.add(f.get(90, TimeUnit.SECONDS));
        }
        final List<CompletableFuture<McastMemberResult>> runs = new ArrayList<>();
        for (final McastMemberRunner r : runners)
        {
            runs.add(CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    return r.run(Duration.ofSeconds(timeoutS));
                }
                catch (final InterruptedException ex)
                {
                    throw new IllegalStateException(ex);
                }
            }, pool));
        }
        for (final var f : runs)
        {
            results.add(f.get(timeoutS + 30, TimeUnit.SECONDS));
        }
        for (final McastMemberRunner r : runners)
        {
            r.close();
        }
    }

    private int report(final List<McastMemberResult> results, final long killEpochMs)
    {
        final McastTotals t = McastTotals.of(results, killEpochMs);
        final double mb = t.msgsPerS() * size / 1e6;
        System.out.printf(Locale.ROOT, "mcast-bench: %d members, senders=%s, %d B, window %d, %d msgs/sender, "
                + "transport=%s, batching=%s, nulls=%s, subgroups=%d active=%s, delay=%d us (%s)%n",
            members, senders, size, window, messages, transport, batching, nulls, subgroups, active, delayUs,
            delayed);
        System.out.printf(Locale.ROOT, "  delivered/member: %d, throughput %.0f msgs/s, %.1f MB/s (median of %d)%n",
            t.delivered(), t.msgsPerS(), mb, results.size());
        System.out.printf(Locale.ROOT, "  rate of the senders --delayed does not designate: %.0f msgs/s%n",
            t.othersPerS());
        System.out.printf(Locale.ROOT, "  mean batch sizes: send %.2f, receive %.2f, deliver %.2f; nulls sent %d;"
            + " pushes %d%n", t.sendBatch(), t.recvBatch(), t.deliverBatch(), t.nullsSent(), t.pushes());
        System.out.printf(Locale.ROOT, "  digests match: %s%s%n", t.digestsMatch(),
            t.viewChangeMs() >= 0 ? ", view change " + t.viewChangeMs() + " ms after the kill" : "");
        if (json)
        {
            System.out.printf(Locale.ROOT, "{\"members\":%d,\"senders\":\"%s\",\"size\":%d,\"window\":%d,"
                    + "\"messages\":%d,\"transport\":\"%s\",\"batching\":\"%s\",\"nulls\":\"%s\",\"subgroups\":%d,"
                    + "\"active\":\"%s\",\"delay_us\":%d,\"delayed\":\"%s\",\"delay_mode\":\"%s\",\"delivered\":%d,"
                    + "\"msgs_per_s\":%.1f,"
                    + "\"mb_per_s\":%.2f,\"others_msgs_per_s\":%.1f,\"send_batch\":%.3f,\"recv_batch\":%.3f,"
                    + "\"deliver_batch\":%.3f,\"nulls_sent\":%d,\"pushes\":%d,\"digests_match\":%s%s}%n",
                members, senders, size, window, messages, transport, batching, nulls, subgroups, active, delayUs,
                delayed, delayMode, t.delivered(), t.msgsPerS(), mb, t.othersPerS(), t.sendBatch(), t.recvBatch(),
                t.deliverBatch(), t.nullsSent(), t.pushes(), t.digestsMatch(),
                t.viewChangeMs() >= 0 ? ",\"view_change_ms\":" + t.viewChangeMs() : "");
        }
        return t.digestsMatch() ? 0 : 1;
    }
}
