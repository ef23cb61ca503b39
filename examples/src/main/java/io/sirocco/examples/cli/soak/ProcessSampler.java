package io.sirocco.examples.cli.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Samples a process's resident memory, threads and open files from {@code /proc} (Linux), and judges whether they
 * stayed bounded. Used by the supervisor thread only.
 */
final class ProcessSampler
{
    /** One sample: RSS in KiB, threads, open file descriptors. */
    record Usage(long rssKb, long threads, long files)
    {
    }

    private final List<Usage> samples = new ArrayList<>();

    /** Adds one sample: the usage of these processes now, summed; false if one is gone or /proc is not there. */
    boolean sample(final List<Long> pids)
    {
        long rss = 0;
        long threads = 0;
        long files = 0;
        for (final long pid : pids)
        {
            final Usage u = usage(pid);
            if (u == null)
            {
                return false;
            }
            rss += u.rssKb();
            threads += u.threads();
            files += u.files();
        }
        samples.add(new Usage(rss, threads, files));
        return true;
    }

    private static Usage usage(final long pid)
    {
        final Path proc = Path.of("/proc", String.valueOf(pid));
        try
        {
            long rss = -1;
            for (final String line : Files.readAllLines(proc.resolve("status")))
            {
                if (line.startsWith("VmRSS:"))
                {
                    rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
            final long threads = ownThreads(proc);
            final long files;
            try (Stream<Path> fds = Files.list(proc.resolve("fd")))
            {
                files = fds.count();
            }
            return rss < 0 || threads < 0 ? null : new Usage(rss, threads, files);
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }

    /**
     * Threads of the process other than those the JVM starts and stops by itself: JIT compiler threads (their number
     * follows the compile queue, and grows under load: a 40 s soak at load 20 counted 6 more at its end than after
     * its warm-up, with no thread of ours added), the attach listener (started by a {@code jcmd}) and the process
     * reaper. A leak of ours (a thread per peer, per rejoin, per entity) still shows.
     */
    private static long ownThreads(final Path proc) throws IOException
    {
        long count = 0;
        try (Stream<Path> tasks = Files.list(proc.resolve("task")))
        {
            for (final Path task : (Iterable<Path>) tasks::iterator)
            {
                final String name;
                try
                {
                    name = Files.readString(task.resolve("comm")).strip();
                }
                catch (final IOException ex)
                {
                    continue; // The thread ended while listed.
                }
                if (!jvmTransient(name))
                {
                    count++;
                }
            }
        }
        return count;
    }

    /** @param comm a thread's name as /proc shows it (its first 15 characters). */
    static boolean jvmTransient(final String comm)
    {
        return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")
            || comm.startsWith("Attach Listener") || comm.startsWith("process reaper");
    }

    /** Adds a sample measured elsewhere. */
    void add(final Usage usage)
    {
        samples.add(usage);
    }

    List<Usage> samples()
    {
        return List.copyOf(samples);
    }

    /** The first sample after the warm-up (the first quarter of the samples). */
    Usage afterWarmUp()
    {
        return samples.isEmpty() ? new Usage(0, 0, 0) : samples.get(samples.size() / 4);
    }

    Usage last()
    {
        return samples.isEmpty() ? new Usage(0, 0, 0) : samples.get(samples.size() - 1);
    }

    Usage max()
    {
        long rss = 0;
        long threads = 0;
        long files = 0;
        for (final Usage u : samples)
        {
            rss = Math.max(rss, u.rssKb());
            threads = Math.max(threads, u.threads());
            files = Math.max(files, u.files());
        }
        return new Usage(rss, threads, files);
    }

    /**
     * Why the usage is not bounded ("" when it is). Bounded: after the warm-up (the first quarter of the samples),
     * the maximum of the last third of the samples is not above the maximum of the first third by more than
     * 25 % + 32 MiB of RSS, 4 threads, 16 files. A steady leak grows the last third past the first; noise of the
     * garbage collector and of thread pools does not. With fewer than 6 samples after the warm-up there is no trend
     * to judge.
     */
    String unboundedReason()
    {
        final List<Usage> settled = samples.subList(samples.size() / 4, samples.size());
        if (settled.size() < 6)
        {
            return "";
        }
        final int third = settled.size() / 3;
        final Usage early = maxOf(settled.subList(0, third));
        final Usage late = maxOf(settled.subList(settled.size() - third, settled.size()));
        if (late.rssKb() > early.rssKb() * 5 / 4 + 32 * 1024)
        {
            return "RSS grew from " + early.rssKb() / 1024 + " MB to " + late.rssKb() / 1024 + " MB";
        }
        if (late.threads() > early.threads() + 4)
        {
            return "threads grew from " + early.threads() + " to " + late.threads();
        }
        if (late.files() > early.files() + 16)
        {
            return "open files grew from " + early.files() + " to " + late.files();
        }
        return "";
    }

    private static Usage maxOf(final List<Usage> list)
    {
        final ProcessSampler s = new ProcessSampler();
        s.samples.addAll(list);
        return s.max();
    }
}
