package io.sirocco.multicast.view;

import io.sirocco.multicast.model.Member;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What processes that no longer run left in a group's shared-memory directory (a SIGKILL, a power cut, a JVM halted
 * without its shutdown hooks): their announcements and out marks, the views and proposals of a group nobody runs any
 * more, its table files and half-written temporary files. Removed by the next member that founds the group, under
 * the directory's {@link ShmGroupLock}, with one INFO line saying what went. Files of members that may still run
 * (joiners waiting for a group, members looking for theirs) and a temporary file whose writer's process lives are
 * kept. Stateless; called with the lock held.
 */
final class ShmLeftovers
{
    private static final Logger LOG = LoggerFactory.getLogger(ShmLeftovers.class);

    private ShmLeftovers()
    {
    }

    /**
     * Removes the leftovers of a group that no longer runs before {@code selfId} founds it again.
     *
     * @return the number of files removed.
     */
    static int removeBeforeFounding(final Path dir, final String groupName, final long selfId,
        final Predicate<Member> mayRun)
    {
        final TreeSet<String> owners = new TreeSet<>();
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir))
        {
            for (final Path f : files)
            {
                if (!keep(f, selfId, mayRun, owners) && Files.deleteIfExists(f))
                {
                    removed++;
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot remove the leftovers of group '" + groupName + "' in " + dir, ex);
        }
        if (removed > 0)
        {
            LOG.info("group '{}': removed {} file(s) that processes no longer running left in {}{}", groupName,
                removed, dir, owners.isEmpty() ? "" : " (members " + String.join(", ", owners) + ")");
        }
        return removed;
    }

    /** Whether a file stays; records the owners of the member files that go. */
    private static boolean keep(final Path f, final long selfId, final Predicate<Member> mayRun,
        final TreeSet<String> owners)
    {
        final String name = f.getFileName().toString();
        if (name.equals(ShmGroupLock.FILE_NAME))
        {
            return true;
        }
        if (name.endsWith(".tmp"))
        {
            return writerRuns(name);
        }
        final boolean member = name.startsWith("member-");
        final boolean out = name.startsWith("out-");
        if (!member && !out)
        {
            // A view, a proposal or a table of the group that no longer runs.
            return false;
        }
        final Optional<String> text = read(f);
        if (text.isEmpty())
        {
            return false;
        }
        final String record = out ? text.get().substring(text.get().indexOf('\n') + 1) : text.get();
        final Member m;
        try
        {
            m = Member.decode(record);
        }
        catch (final RuntimeException ex)
        {
            // A corrupted record: nobody can read it, so nobody needs it.
            return false;
        }
        final boolean gone = out && text.get().startsWith("gone");
        if (m.memberId() != selfId && !gone && mayRun.test(m))
        {
            return true;
        }
        if (member)
        {
            owners.add(m.memberId() + " (pid " + m.pid() + ")");
        }
        return false;
    }

    /** A temporary file is named {@code <name>.<pid>.<thread>.tmp}: kept while that process runs. */
    private static boolean writerRuns(final String name)
    {
        final String[] parts = name.split("\\.");
        if (parts.length < 4)
        {
            return false;
        }
        try
        {
            return ProcessHandle.of(Long.parseLong(parts[parts.length - 3])).map(ProcessHandle::isAlive).orElse(false);
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    private static Optional<String> read(final Path f)
    {
        try
        {
            return Optional.of(Files.readString(f, StandardCharsets.UTF_8));
        }
        catch (final NoSuchFileException ex)
        {
            return Optional.empty();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read registry file " + f, ex);
        }
    }
}
