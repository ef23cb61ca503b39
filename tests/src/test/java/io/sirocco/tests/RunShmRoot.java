package io.sirocco.tests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * One private shm root per test JVM ({@code sirocco.multicast.shm.dir}): a fresh directory on tmpfs that this JVM and every
 * child it starts use for group registries, view tables and per-"host" directories. Test runs of other worktrees,
 * another surefire JVM, or leftovers of a killed run never share a registry file or a table with this one, even when
 * they pick the same domain numbers. Registered as a JUnit launcher session listener, so the property is set before
 * any test class runs (the host identity hashes the shm root, so the parent and its children must agree from the
 * start); the directory is deleted when the session closes, and roots of dead JVMs are swept at the next start.
 */
public final class RunShmRoot implements LauncherSessionListener
{
    private static final String PREFIX = "sirocco-test-run-";
    private static volatile Path path;

    /** The root; created on first use if the launcher listener did not run (a test started some other way). */
    public static synchronized Path path()
    {
        if (path == null)
        {
            path = create();
        }
        return path;
    }

    /** The JVM option that gives a child process this run's root (put it before any per-host override). */
    public static String jvmProperty()
    {
        return "-Dsirocco.multicast.shm.dir=" + path();
    }

    @Override
    public void launcherSessionOpened(final LauncherSession session)
    {
        path();
    }

    @Override
    public void launcherSessionClosed(final LauncherSession session)
    {
        final Path root = path;
        if (root != null)
        {
            deleteTree(root);
        }
    }

    private static Path create()
    {
        final Path tmpfs = Path.of("/dev/shm");
        final Path parent = Files.isDirectory(tmpfs) && Files.isWritable(tmpfs) ? tmpfs
            : Path.of(System.getProperty("java.io.tmpdir"));
        sweepDeadRuns(parent);
        try
        {
            final Path root = Files.createTempDirectory(parent, PREFIX + ProcessHandle.current().pid() + "-");
            System.setProperty("sirocco.multicast.shm.dir", root.toString());
            return root;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the test run's shm root under " + parent, ex);
        }
    }

    /** Deletes the roots of test JVMs that are gone (killed by the fork timeout, or the machine was stopped). */
    private static void sweepDeadRuns(final Path parent)
    {
        try (Stream<Path> entries = Files.list(parent))
        {
            for (final Path dir : entries.toList())
            {
                final String name = dir.getFileName().toString();
                if (!name.startsWith(PREFIX))
                {
                    continue;
                }
                final String rest = name.substring(PREFIX.length());
                final int dash = rest.indexOf('-');
                try
                {
                    final long pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
                    if (ProcessHandle.of(pid).isEmpty())
                    {
                        deleteTree(dir);
                    }
                }
                catch (final NumberFormatException ex)
                {
                    // Not one of ours.
                }
            }
        }
        catch (final IOException ex)
        {
            // Sweeping is a courtesy; the run's own root is fresh either way.
        }
    }

    /** Deletes a directory tree, best effort (a file still held by a child is left for the next run's sweep). */
    public static void deleteTree(final Path root)
    {
        try (Stream<Path> walk = Files.walk(root))
        {
            final List<Path> all = walk.sorted(Comparator.reverseOrder()).toList();
            for (final Path p : all)
            {
                Files.deleteIfExists(p);
            }
        }
        catch (final IOException | UncheckedIOException ex)
        {
            // A child still holding a file, or a race with a sweeping run: the next run's sweep gets it.
        }
    }
}
