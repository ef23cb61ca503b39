package io.sirocco.multicast.view;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.spi.GroupDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registry in the group's private directory ({@code /dev/shm/sirocco-<group>}, mode 0700): {@code member-<id>} files
 * announce members, {@code view-<key>} files hold published views, {@code out-<id>} files mark members out of every
 * view ({@link #markOut}; the file's modification time is the mark's time). Every file is written to a temporary name
 * and atomically renamed (or, for {@link #publishFirst}, hard-linked, which fails if the name exists), so a reader
 * never sees half a record.
 *
 * <p>Founding, announcing and leaving run under the directory's host-wide {@link ShmGroupLock}: processes started at
 * the same instant found one group ({@link #announceFounding}), the founder removes what dead processes left
 * ({@link ShmLeftovers}), and the last member that leaves removes the directory ({@link #leave}) while no other
 * process can be creating its announcement in it.
 */
public final class ShmRegistry implements MembershipRegistry
{
    private static final Logger LOG = LoggerFactory.getLogger(ShmRegistry.class);
    private static final String LOOKING = "looking";
    private static final String GONE = "gone";
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY = PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rw-------"));

    private final String groupName;
    private final Path dir;

    public ShmRegistry(final String groupName)
    {
        this.groupName = groupName;
        this.dir = GroupDirectory.create(groupName);
    }

    public Path directory()
    {
        return dir;
    }

    /** Deletes a group's directory and everything in it (tests, benchmarks), under its lock. */
    public static void destroy(final String groupName)
    {
        final Path d = GroupDirectory.path(groupName);
        if (Files.isDirectory(d))
        {
            ShmGroupLock.acquire(d).retire();
        }
    }

    /** Under the lock, so that the directory is never removed between its creation and the announcement. */
    @Override
    public void announce(final Member member)
    {
        try (ShmGroupLock lock = ShmGroupLock.acquire(dir))
        {
            write("member-" + member.memberId(), member.encode());
        }
    }

    @Override
    public boolean announceFounding(final Member self, final View first, final Predicate<Member> mayRun)
    {
        try (ShmGroupLock lock = ShmGroupLock.acquire(dir))
        {
            final boolean runs = MembershipRegistry.groupRuns(this, self.memberId(), mayRun);
            if (!runs)
            {
                ShmLeftovers.removeBeforeFounding(dir, groupName, self.memberId(), mayRun);
            }
            write("member-" + self.memberId(), self.encode());
            if (!runs && first != null)
            {
                write("view-v1", first.encode());
            }
            return !runs;
        }
    }

    @Override
    public void leave(final long memberId, final Predicate<Member> mayRun)
    {
        try (ShmGroupLock lock = ShmGroupLock.acquire(dir))
        {
            withdraw(memberId);
            if (!othersMayRun(memberId, mayRun))
            {
                final int removed = lock.retire();
                LOG.debug("group '{}': member {} was the last; removed {} ({} files)", groupName, memberId, dir,
                    removed);
            }
        }
    }

    /** Whether a member other than {@code memberId} is announced or looking for the group and may run. */
    private boolean othersMayRun(final long memberId, final Predicate<Member> mayRun)
    {
        for (final Member m : announced())
        {
            if (m.memberId() != memberId && mayRun.test(m))
            {
                return true;
            }
        }
        for (final OutMark mark : outMarks())
        {
            if (mark.looking() && mark.member().memberId() != memberId && mayRun.test(mark.member()))
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public void withdraw(final long memberId)
    {
        try
        {
            Files.deleteIfExists(dir.resolve("member-" + memberId));
            Files.deleteIfExists(dir.resolve("out-" + memberId));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot withdraw member " + memberId + " from " + dir, ex);
        }
    }

    @Override
    public void markOut(final Member member, final boolean looking)
    {
        write("out-" + member.memberId(), (looking ? LOOKING : GONE) + "\n" + member.encode());
    }

    @Override
    public void clearOut(final long memberId)
    {
        try
        {
            Files.deleteIfExists(dir.resolve("out-" + memberId));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot clear the out mark of member " + memberId + " in " + dir, ex);
        }
    }

    @Override
    public List<OutMark> outMarks()
    {
        final List<OutMark> out = new ArrayList<>();
        for (final Path f : list("out-"))
        {
            final long at = modified(f).toMillis();
            readText(f).ifPresent(t ->
            {
                final int nl = t.indexOf('\n');
                if (nl > 0)
                {
                    out.add(new OutMark(Member.decode(t.substring(nl + 1)), LOOKING.equals(t.substring(0, nl)), at));
                }
            });
        }
        return out;
    }

    @Override
    public Optional<View> latestInstalled()
    {
        long best = -1;
        for (final Path f : list("view-v"))
        {
            try
            {
                best = Math.max(best, Long.parseLong(f.getFileName().toString().substring("view-v".length())));
            }
            catch (final NumberFormatException ex)
            {
                // Not an installed view's file.
            }
        }
        return best < 0 ? Optional.empty() : read("v" + best);
    }

    @Override
    public boolean publishFirst(final String key, final View view)
    {
        final Path tmp = tempFor("view-" + key);
        try
        {
            writeOwnerOnly(tmp, view.encode());
            try
            {
                // link(2) fails when the name exists: of two members publishing under one key, one wins.
                Files.createLink(dir.resolve("view-" + key), tmp);
                return true;
            }
            catch (final FileAlreadyExistsException ex)
            {
                return false;
            }
            finally
            {
                Files.deleteIfExists(tmp);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot publish view-" + key + " in " + dir, ex);
        }
    }

    @Override
    public List<Member> announced()
    {
        final List<Path> files = list("member-");
        files.sort(Comparator.comparing(ShmRegistry::modified).thenComparing(Path::toString));
        final List<Member> out = new ArrayList<>();
        for (final Path f : files)
        {
            readText(f).ifPresent(t -> out.add(Member.decode(t)));
        }
        return out;
    }

    @Override
    public void publish(final String key, final View view)
    {
        write("view-" + key, view.encode());
    }

    @Override
    public Optional<View> read(final String key)
    {
        return readText(dir.resolve("view-" + key)).map(View::decode);
    }

    @Override
    public Optional<View> latestContaining(final long memberId)
    {
        View best = null;
        for (final Path f : list("view-v"))
        {
            final Optional<View> v = readText(f).map(View::decode);
            if (v.isPresent() && v.get().rankOf(memberId) >= 0 && (best == null || v.get().viewId() > best.viewId()))
            {
                best = v.get();
            }
        }
        return Optional.ofNullable(best);
    }

    private List<Path> list(final String prefix)
    {
        final List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + "*"))
        {
            for (final Path f : files)
            {
                if (!f.getFileName().toString().endsWith(".tmp"))
                {
                    out.add(f);
                }
            }
        }
        catch (final NoSuchFileException ex)
        {
            // No directory: the group's last member left (or it was never created); nothing is registered.
            return out;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list registry " + dir, ex);
        }
        return out;
    }

    private static FileTime modified(final Path p)
    {
        try
        {
            return Files.getLastModifiedTime(p);
        }
        catch (final IOException ex)
        {
            return FileTime.fromMillis(Long.MAX_VALUE);
        }
    }

    private static Optional<String> readText(final Path f)
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

    private Path tempFor(final String name)
    {
        return dir.resolve(name + "." + ProcessHandle.current().pid() + "." + Thread.currentThread().threadId() + ".tmp");
    }

    /** Writes a new file readable and writable by its owner only (0600, as the directory is 0700). */
    private static void writeOwnerOnly(final Path file, final String text) throws IOException
    {
        Files.deleteIfExists(file);
        Files.createFile(file, OWNER_ONLY);
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
    }

    private void write(final String name, final String text)
    {
        final Path tmp = tempFor(name);
        final Path target = dir.resolve(name);
        try
        {
            try
            {
                writeOwnerOnly(tmp, text);
            }
            catch (final NoSuchFileException ex)
            {
                // The last member of a group left and removed the directory while this one (a member looking for the
                // group, not announced then) ran on: the group goes on here.
                GroupDirectory.create(groupName);
                writeOwnerOnly(tmp, text);
            }
            try
            {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            catch (final AtomicMoveNotSupportedException ex)
            {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write registry file " + target, ex);
        }
    }
}
