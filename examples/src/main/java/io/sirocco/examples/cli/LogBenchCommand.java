package io.sirocco.examples.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.sirocco.examples.cli.config.CliMain;
import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.log.BenchResult;
import io.sirocco.examples.cli.log.ForkedBackups;
import io.sirocco.examples.cli.log.FsyncProbe;
import io.sirocco.log.BackupStore;
import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.ZoneHandle;
import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;
import io.sirocco.transport.agent.Agents;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sirocco log-bench}: logs N entries of B bytes over Z zones into K backup stores (one appending thread per
 * backup, as each backup's replication handler would), either all in this process or, with {@code --fork}, each in
 * its own child JVM; then optionally recovers every zone of backup 0 from disk after a restart (cold start:
 * primary-log replay, then parallel zone recovery).
 *
 * <p>entries_per_s counts until the last entry is acknowledged under the sync policy (for none: accepted into
 * the write buffer); drain_entries_per_s counts until everything is written and fsync'ed. fsync_per_s is the raw
 * "write 4 KiB + fsync" rate of the same directory, measured first.
 */
@Command(name = "log-bench", mixinStandardHelpOptions = true,
    description = "Durable-log benchmark: logging rate per sync policy, and recovery time.")
public final class LogBenchCommand implements Callable<Integer>
{
    @Option(names = "--size", description = "Payload bytes per entry (default ${DEFAULT-VALUE}).",
        converter = OptionValues.PayloadBytes.class)
    int size = 64;

    @Option(names = "--entries", description = "Entries to log (default ${DEFAULT-VALUE}).",
        converter = OptionValues.PositiveLong.class)
    long entries = 1_000_000;

    @Option(names = "--zones", description = "Zones the entries are spread over (default ${DEFAULT-VALUE}).",
        converter = OptionValues.Positive.class)
    int zones = 1;

    @Option(names = "--sync", description = "none|group|each (default ${DEFAULT-VALUE}).")
    String sync = "none";

    @Option(names = "--backups", description = "Backup stores, one appending thread each "
        + "(default ${DEFAULT-VALUE}).")
    int backups = 1;

    @Option(names = "--fork", description = "Run each backup store in its own forked JVM (default: in-process).")
    boolean fork;

    @Option(names = "--backup-index", hidden = true, description = "Internal: run as forked backup N.")
    int backupIndex = -1;

    @Option(names = "--keys", description = "Distinct keys (0 = every entry a new key); fewer keys than entries "
        + "make an overwrite workload (default ${DEFAULT-VALUE}).")
    long keys;

    @Option(names = "--cleaner", description = "Run the background cleaner during the run (default: off).")
    boolean cleaner;

    @Option(names = "--log-segments", description = "Secondary-log segments per zone (default: room for every "
        + "entry, so nothing needs cleaning).")
    int logSegments;

    @Option(names = "--recover", description = "Restart backup 0 and recover all its zones; report the time.")
    boolean recover;

    @Option(names = "--dir", description = "Directory for the logs (default: a fresh directory under /var/tmp).")
    Path dir;

    @Option(names = "--keep", description = "Keep the log files afterwards.")
    boolean keep;

    @Option(names = "--buffered-io", description = "Use buffered I/O instead of O_DIRECT.")
    boolean bufferedIo;

    @Option(names = "--recovery-threads", description = "Segment-scanning threads per zone recovery "
        + "(default min(4, cores)).")
    int recoveryThreads = new LogConfig().recoveryThreads();

    @Option(names = "--json", description = "End the output with one JSON line.")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        final SyncPolicy policy = SyncPolicy.parse(sync);
        final Path root = dir != null ? Files.createDirectories(dir)
            : Files.createTempDirectory(Path.of("/var/tmp"), "sirocco-log-bench");
        try
        {
            return run(policy, root);
        }
        finally
        {
            if (!keep)
            {
                try (Stream<Path> walk = Files.walk(root))
                {
                    walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    private LogConfig config(final SyncPolicy policy)
    {
        final long perZone = (entries / zones + 1) * (size + 32L);
        final int segments = logSegments > 0 ? logSegments : (int)Math.max(64, 2 * perZone / (8 << 20) + 8);
        return new LogConfig().syncPolicy(policy).directIo(!bufferedIo).secondaryLogSegments(segments)
            .zoneSizeLimitBytes(Math.max(256L << 20, perZone)).cleanerEnabled(cleaner)
            .recoveryThreads(recoveryThreads);
    }

    private int run(final SyncPolicy policy, final Path root) throws Exception
    {
        if (backupIndex >= 0)
        {
            return runForkedChild(policy, root);
        }
        final double fsyncPerSecond = FsyncProbe.fsyncsPerSecond(root, 1000);
        final LogConfig config = config(policy);
        if (fork)
        {
            return runForked(policy, root, config, fsyncPerSecond);
        }
        final BackupStore[] stores = new BackupStore[backups];
        final ZoneHandle[][] handles = new ZoneHandle[backups][zones];
        for (int b = 0; b < backups; b++)
        {
            stores[b] = BackupStore.open(root.resolve("backup-" + b), config, null);
            for (int z = 0; z < zones; z++)
            {
                handles[b][z] = stores[b].createZone(new ZoneId(1, z));
            }
        }
        final long startCpuNs = processCpuNs();
        final long startNs = System.nanoTime();
        final long lastAckNs = appendInParallel(stores, handles);
        for (final BackupStore store : stores)
        {
            store.flush();
        }
        final long drainedNs = System.nanoTime();
        final long logCpuNs = processCpuNs() - startCpuNs;
        final boolean direct = stores[0].directIo();
        long segmentsCleaned = 0;
        long reclaimedBytes = 0;
        for (final BackupStore store : stores)
        {
            segmentsCleaned += store.cleaner().segmentsCleaned();
            reclaimedBytes += store.cleaner().reclaimedBytes();
            store.close();
        }
        if (lastAckNs < 0)
        {
            return 1;
        }
        final double ackSeconds = (lastAckNs - startNs) / 1e9;
        final double drainSeconds = (drainedNs - startNs) / 1e9;
        final BenchResult result = new BenchResult()
            .put("bench", "log-bench").put("size", size).put("entries", entries).put("zones", zones)
            .put("sync", policy.name().toLowerCase()).put("backups", backups).put("forked", false)
            .put("direct_io", direct)
            .put("entries_per_s", entries / ackSeconds)
            .put("mb_per_s", entries * (double)size / ackSeconds / 1e6)
            .put("drain_entries_per_s", entries / drainSeconds)
            .put("fsync_per_s", fsyncPerSecond)
            .put("log_cpu_ms", logCpuNs / 1e6)
            .put("keys", keys > 0 ? keys : entries).put("cleaner", cleaner)
            .put("segments_cleaned", segmentsCleaned).put("reclaimed_mb", reclaimedBytes / 1e6);
        return report(result, root, config);
    }

    /**
     * Appends every entry into every store, one thread per store, and waits until each store acknowledged its last
     * entry under the sync policy.
     *
     * @return when the last store acknowledged (System.nanoTime()), or -1 if a store failed.
     */
    private long appendInParallel(final BackupStore[] stores, final ZoneHandle[][] handles)
        throws InterruptedException
    {
        final AtomicLong failures = new AtomicLong();
        final List<Thread> threads = new ArrayList<>();
        final long[] ackedNs = new long[stores.length];
        final ThreadFactory factory = Agents.threadFactory("log-bench-append");
        for (int b = 0; b < stores.length; b++)
        {
            final int backup = b;
            final Thread thread = factory.newThread(() ->
            {
                try
                {
                    appendAll(stores[backup], handles[backup]);
                    for (final ZoneHandle handle : handles[backup])
                    {
                        stores[backup].awaitPersisted(handle, lastTicket(handle.id().zoneIndex()), Long.MAX_VALUE);
                    }
                    ackedNs[backup] = System.nanoTime();
                }
                catch (final RuntimeException ex)
                {
                    failures.incrementAndGet();
                    System.err.println("log-bench: backup " + backup + " failed: " + ex.getMessage());
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        long lastAckNs = 0;
        for (final long ns : ackedNs)
        {
            lastAckNs = Math.max(lastAckNs, ns);
        }
        return failures.get() > 0 ? -1 : lastAckNs;
    }

    /** Ends a run: with {@code --recover} recovers backup 0 into the result, then prints it (and its JSON line). */
    private int report(final BenchResult result, final Path root, final LogConfig config)
        throws InterruptedException
    {
        if (recover)
        {
            recoverAll(root.resolve("backup-0"), config, result);
        }
        System.out.print(result.toText());
        if (json)
        {
            System.out.println(result.toJson());
        }
        return 0;
    }

    /** {@code --fork}: every backup store in its own child JVM, all started at once. */
    private int runForked(final SyncPolicy policy, final Path root, final LogConfig config,
        final double fsyncPerSecond) throws Exception
    {
        final List<List<String>> childArguments = new ArrayList<>();
        for (int b = 0; b < backups; b++)
        {
            final List<String> arguments = new ArrayList<>(List.of("log-bench", "--backup-index",
                Integer.toString(b), "--dir", root.toString(), "--keep", "--size", Integer.toString(size),
                "--entries", Long.toString(entries), "--zones", Integer.toString(zones), "--sync", sync,
                "--recovery-threads", Integer.toString(recoveryThreads)));
            if (bufferedIo)
            {
                arguments.add("--buffered-io");
            }
            if (cleaner)
            {
                arguments.add("--cleaner");
            }
            arguments.addAll(List.of("--keys", Long.toString(keys), "--log-segments", Integer.toString(logSegments)));
            childArguments.add(arguments);
        }
        final List<ForkedBackups.ChildResult> results;
        try (ForkedBackups children = new ForkedBackups(CliMain.CLASS_NAME, childArguments))
        {
            results = children.runAll();
        }
        long ackNs = 0;
        long drainNs = 0;
        long cpuNs = 0;
        for (final ForkedBackups.ChildResult child : results)
        {
            ackNs = Math.max(ackNs, child.ackNs());
            drainNs = Math.max(drainNs, child.drainNs());
            cpuNs += child.cpuNs();
        }
        final BenchResult result = new BenchResult()
            .put("bench", "log-bench").put("size", size).put("entries", entries).put("zones", zones)
            .put("sync", policy.name().toLowerCase()).put("backups", backups).put("forked", true)
            .put("direct_io", results.get(0).directIo())
            .put("entries_per_s", entries / (ackNs / 1e9))
            .put("mb_per_s", entries * (double)size / (ackNs / 1e9) / 1e6)
            .put("drain_entries_per_s", entries / (drainNs / 1e9))
            .put("fsync_per_s", fsyncPerSecond)
            .put("log_cpu_ms", cpuNs / 1e6);
        return report(result, root, config);
    }

    /**
     * Child side of {@code --fork}: opens backup N's store, says READY, waits for GO on stdin, logs every entry,
     * and reports {@code RESULT ackNs drainNs cpuNs directIo} (times from GO) before closing its store.
     */
    private int runForkedChild(final SyncPolicy policy, final Path root) throws Exception
    {
        final LogConfig config = config(policy);
        final BufferedReader stdin = new BufferedReader(
            new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try (BackupStore store = BackupStore.open(root.resolve("backup-" + backupIndex), config, null))
        {
            final ZoneHandle[] zoneHandles = new ZoneHandle[zones];
            for (int z = 0; z < zones; z++)
            {
                zoneHandles[z] = store.createZone(new ZoneId(1, z));
            }
            System.out.println("READY");
            System.out.flush();
            if (!"GO".equals(stdin.readLine()))
            {
                return 1;
            }
            final long startCpuNs = processCpuNs();
            final long startNs = System.nanoTime();
            appendAll(store, zoneHandles);
            for (final ZoneHandle handle : zoneHandles)
            {
                store.awaitPersisted(handle, lastTicket(handle.id().zoneIndex()), Long.MAX_VALUE);
            }
            final long ackedNs = System.nanoTime();
            store.flush();
            final long drainedNs = System.nanoTime();
            System.out.println("RESULT " + (ackedNs - startNs) + " " + (drainedNs - startNs) + " "
                + (processCpuNs() - startCpuNs) + " " + store.directIo());
            System.out.flush();
        }
        return 0;
    }

    /** CPU time of the whole process: on a shared machine it shows the work done, where wall time shows the wait. */
    private static long processCpuNs()
    {
        final OperatingSystemMXBean os =
            ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    private long lastTicket(final int zone)
    {
        // Entry i goes to zone i % zones with ticket i / zones.
        final long count = entries / zones + (zone < entries % zones ? 1 : 0);
        return count - 1;
    }

    private void appendAll(final BackupStore store, final ZoneHandle[] zoneHandles)
    {
        final ByteBuffer payload = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < size; i++)
        {
            payload.put(i, (byte)(i * 31));
        }
        for (long i = 0; i < entries; i++)
        {
            if (size >= 8)
            {
                payload.putLong(0, i);
            }
            final int zone = (int)(i % zones);
            final long key = keys > 0 ? i % keys : i;
            store.append(zoneHandles[zone], i / zones, key * 0x9E37_79B9_7F4A_7C15L, key, payload, 0, size);
        }
    }

    private void recoverAll(final Path directory, final LogConfig config, final BenchResult result)
        throws InterruptedException
    {
        final long startCpuNs = processCpuNs();
        final long startNs = System.nanoTime();
        final AtomicLong recovered = new AtomicLong();
        final AtomicLong damages = new AtomicLong();
        final AtomicLong checksum = new AtomicLong();
        try (BackupStore store = BackupStore.open(directory, config, null))
        {
            final long openedNs = System.nanoTime();
            final List<Thread> threads = new ArrayList<>();
            for (final ZoneId zone : store.zones())
            {
                threads.add(Thread.ofPlatform().name("bench-recover-" + zone.zoneIndex()).start(() ->
                {
                    final RecoveryReport report = store.recover(zone, new RecoveryConsumer()
                    {
                        long sum;

                        @Override
                        public void onEntry(final ZoneId id, final long keyHash, final long sequence,
                            final int epoch, final int version, final ByteBuffer buffer, final int offset,
                            final int length)
                        {
                            sum += buffer.get(offset + length - 1);
                        }

                        @Override
                        public void onComplete(final RecoveryReport report)
                        {
                            checksum.addAndGet(sum);
                        }
                    });
                    recovered.addAndGet(report.recoveredEntries());
                    damages.addAndGet(report.damages().size());
                }));
            }
            for (final Thread thread : threads)
            {
                thread.join();
            }
            final long doneNs = System.nanoTime();
            result.put("recovered_entries", recovered.get())
                .put("recover_ms", (doneNs - startNs) / 1e6)
                .put("recover_open_ms", (openedNs - startNs) / 1e6)
                .put("recover_cpu_ms", (processCpuNs() - startCpuNs) / 1e6)
                .put("recover_damages", damages.get())
                .put("recovery_threads", config.recoveryThreads());
        }
    }
}
