package io.sirocco.examples.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.durable.DemoChild;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sirocco durability-demo}: failed-publisher recovery in one command. It starts backup processes, a publisher
 * process whose TRANSIENT (or PERSISTENT) writer has a configured identity and writes N samples until its backups hold
 * them (PERSISTENT: on their disks, each backup with a data directory of its own under a temporary directory), SIGKILLs
 * it, lets a late-joining subscriber process take the history a backup recovered and serves, then starts a
 * replacement publisher with the same identity, which resumes past the recovered high-water mark. Every process is
 * a child JVM over shared memory in a private shm directory (deleted at the end), each wait bounded.
 */
@Command(name = "durability-demo", mixinStandardHelpOptions = true,
    description = "Kill a durable publisher, recover its history from the backups, resume it (docs/durability.md).")
public final class DurabilityDemoCommand implements Callable<Integer>
{
    @Option(names = "--samples", defaultValue = "100000", description = "samples N the publisher writes "
        + "(default ${DEFAULT-VALUE})", converter = OptionValues.Positive.class)
    int samples;

    @Option(names = "--size", defaultValue = "64", description = "payload bytes (default ${DEFAULT-VALUE})",
        converter = OptionValues.PayloadBytes.class)
    int size;

    @Option(names = "--kind", defaultValue = "transient", description = "transient or persistent (default "
        + "${DEFAULT-VALUE})")
    String kind;

    @Option(names = "--backups", defaultValue = "3", description = "backup processes (default ${DEFAULT-VALUE})",
        converter = OptionValues.Positive.class)
    int backups;

    @Option(names = "--json", description = "end with one JSON line")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        if (!kind.equals("transient") && !kind.equals("persistent"))
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--kind: '" + kind + "' is not transient "
                + "or persistent");
        }
        final Path shm = Files.createTempDirectory(Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
            : Path.of(System.getProperty("java.io.tmpdir")), "sirocco-demo-");
        // The backups' stores (and PERSISTENT data directories) on disk, in one directory removed at the end.
        final Path stores = Files.createTempDirectory("sirocco-demo-data-");
        try
        {
            // A 15 s heartbeat timeout: on a loaded host a live child can go unscheduled for seconds, and a false
            // exclusion would fail over its zones in the middle of the demo. The publisher's SIGKILL is seen at
            // once all the same: a process exit on the same host does not wait for the timeout.
            return run(List.of("-Dsirocco.multicast.shm.dir=" + shm, "-Dsirocco.dds.transport=shm",
                "-Dsirocco.dds.interface=lo", "-Dsirocco.dds.suspicion.ms=15000",
                "-Dsirocco.dds.durability.replicas=" + backups), stores);
        }
        finally
        {
            deleteTree(shm);
            deleteTree(stores);
        }
    }

    /**
     * A backup's JVM options: its own store directory and, PERSISTENT, its own data directory, under
     * {@code stores}, so that nothing is left behind even though the demo SIGKILLs its children.
     */
    private List<String> backupJvm(final List<String> jvm, final Path stores, final int index)
    {
        final List<String> backupJvm = new ArrayList<>(jvm);
        backupJvm.add("-Dsirocco.dds.durability.backup=true");
        backupJvm.add("-Dsirocco.dds.durability.dir=" + stores.resolve("backup" + index + "-store"));
        if (kind.equals("persistent"))
        {
            backupJvm.add("-Dsirocco.durable.data.dir=" + stores.resolve("backup" + index + "-data"));
        }
        return backupJvm;
    }

    private int run(final List<String> jvm, final Path stores) throws Exception
    {
        final String domain = "7";
        // The first publisher is known to start fresh (no wait); the replacement waits for the served history.
        final List<String> writerJvm = new ArrayList<>(jvm);
        writerJvm.add("-Dsirocco.dds.durability.identity=durability-demo");
        final List<String> firstJvm = new ArrayList<>(writerJvm);
        firstJvm.add("-Dsirocco.dds.durability.takeover.ms=0");
        writerJvm.add("-Dsirocco.dds.durability.takeover.ms=60000");
        final List<DemoChild> children = new ArrayList<>();
        try
        {
            for (int i = 1; i <= backups; i++)
            {
                children.add(started(new DemoChild("backup" + i, backupJvm(jvm, stores, i), "backup", domain,
                    kind)));
            }
            final DemoChild subscriber = started(new DemoChild("subscriber", jvm, "subscriber", domain, kind,
                String.valueOf(samples)));
            children.add(subscriber);
            System.out.println("durability-demo: " + backups + " backups; the publisher writes " + samples + " " +
                size + "-byte " + kind.toUpperCase(java.util.Locale.ROOT) + " samples");
            final DemoChild publisher = new DemoChild("publisher", firstJvm, "publisher", domain, kind, "1",
                String.valueOf(samples), String.valueOf(size));
            children.add(publisher);
            final long waitS = 120 + samples / 5_000;
            final String writtenDigest = publisher.await(l -> l.startsWith("ACKED "), this::progress, waitS)
                .split(" ")[2];
            System.out.println("durability-demo: the backups hold all " + samples + " samples; SIGKILL the publisher");
            publisher.kill();
            final long killedMs = System.currentTimeMillis();
            subscriber.tell("GO");
            final String[] held = subscriber.await(l -> l.startsWith("HOLDS "), this::progress, waitS).split(" ");
            final long recoverMs = Long.parseLong(held[3]) - killedMs;
            final boolean digestMatch = held[2].equals(writtenDigest);
            System.out.println("durability-demo: a late joiner holds " + samples + " recovered samples " +
                (digestMatch ? "(same digest)" : "(DIGEST DIFFERS)") + ", " + recoverMs + " ms after the kill");
            final long resumedAt = replace(writerJvm, domain, children, subscriber, waitS);
            if (json)
            {
                System.out.println("{\"kind\":\"" + kind + "\",\"written_acked\":" + samples + ",\"recovered\":" +
                    samples + ",\"digest_match\":" + digestMatch + ",\"recover_ms\":" + recoverMs +
                    ",\"replacement_resumed_at\":" + resumedAt + "}");
            }
            return digestMatch && resumedAt == samples + 1L ? 0 : 1;
        }
        catch (final IllegalStateException ex)
        {
            System.err.println("durability-demo: " + ex.getMessage());
            return 1;
        }
        finally
        {
            for (final DemoChild child : children)
            {
                child.close();
            }
        }
    }

    /** Starts the replacement publisher; its first sequence number once the late joiner took its first sample. */
    private long replace(final List<String> writerJvm, final String domain, final List<DemoChild> children,
        final DemoChild subscriber, final long waitS) throws Exception
    {
        final int more = Math.min(samples, 1000);
        final DemoChild replacement = new DemoChild("replacement", writerJvm, "publisher", domain, kind,
            String.valueOf(samples + 1L), String.valueOf((long)samples + more), String.valueOf(size));
        children.add(replacement);
        final long resumedAt = Long.parseLong(replacement.await(l -> l.startsWith("RESUMED "), l -> { }, waitS)
            .split(" ")[1]);
        subscriber.await(l -> l.startsWith("NEXT "), this::progress, 120);
        replacement.await(l -> l.startsWith("ACKED "), l -> { }, 120);
        System.out.println("durability-demo: the replacement resumed at sequence number " + resumedAt +
            "; the late joiner took sample " + (samples + 1L) + " next");
        return resumedAt;
    }

    private static DemoChild started(final DemoChild child) throws InterruptedException
    {
        child.await(l -> l.equals("JOINED"), l -> { }, 120);
        return child;
    }

    /** A child's progress line, as the demo's progress line. */
    private void progress(final String line)
    {
        if (line.startsWith("WRITTEN "))
        {
            System.out.println("  publisher: " + line.substring(8) + "/" + samples + " written");
        }
        else if (line.startsWith("HELD "))
        {
            System.out.println("  late joiner: " + line.substring(5) + "/" + samples + " held");
        }
    }

    private static void deleteTree(final Path root) throws IOException
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(path);
            }
        }
    }
}
