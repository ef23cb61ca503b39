package io.sirocco.multicast.view;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The host-wide lock of a group's shared-memory directory: the decisions that must not interleave between the
 * processes of one host are taken under it (who founds the group, what a dead process left and may be removed,
 * whether the last member leaving removes the directory). Without it two processes started at the same instant both
 * found no running group and both formed view 1, and one removed the directory while the other was creating it.
 *
 * <p>Concurrency: one holder per host at a time. In one JVM a {@link ReentrantLock} per directory comes first (a
 * process holds a file lock once: a second lock of the same file from another thread of the JVM throws
 * {@code OverlappingFileLockException}); across processes an exclusive {@code fcntl} lock on {@code <dir>/lock}
 * (file 0600, directory 0700). A holder that removes the directory ({@link #retire()}) first writes a mark into the
 * lock file, then unlinks it: a process that was blocked on the old file gets the lock of an unlinked file, reads the
 * mark, and starts over with a fresh directory and lock file. A process that dies holding the lock releases it (the
 * kernel drops its locks with its descriptors).
 */
final class ShmGroupLock implements AutoCloseable
{
    /** The lock file's name in the group directory (no registry or table file has it). */
    static final String FILE_NAME = "lock";
    private static final byte[] RETIRED = "retired\n".getBytes(StandardCharsets.US_ASCII);
    /** A lock found retired this many times in a row means something else keeps removing the directory. */
    private static final int MAX_ATTEMPTS = 1000;
    private static final ConcurrentHashMap<Path, ReentrantLock> IN_JVM = new ConcurrentHashMap<>();

    private final Path dir;
    private final ReentrantLock jvmLock;
    private final FileChannel channel;
    /** Holder's thread only: {@link #retire()} released the lock before the try-with-resources close. */
    private boolean released;

    private ShmGroupLock(final Path dir, final ReentrantLock jvmLock, final FileChannel channel)
    {
        this.dir = dir;
        this.jvmLock = jvmLock;
        this.channel = channel;
    }

    /**
     * Takes the lock, creating the directory (0700) and the lock file (0600) if needed; blocks while another thread
     * or process holds it (holders keep it for a few file operations).
     *
     * @param dir the group's directory.
     * @return the held lock; close it to release.
     */
    static ShmGroupLock acquire(final Path dir)
    {
        final ReentrantLock jvmLock = IN_JVM.computeIfAbsent(dir, d -> new ReentrantLock());
        jvmLock.lock();
        try
        {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
            {
                final FileChannel channel = openLockFile(dir);
                if (channel == null)
                {
                    continue;
                }
                channel.lock();
                if (channel.size() == 0)
                {
                    return new ShmGroupLock(dir, jvmLock, channel);
                }
                // A retired directory's lock file: whoever held it removed the directory; take the new one's.
                channel.close();
            }
            throw new IllegalStateException("cannot lock shm group directory " + dir + ": it was removed "
                + MAX_ATTEMPTS + " times in a row while this process waited for its lock");
        }
        catch (final IOException | RuntimeException ex)
        {
            jvmLock.unlock();
            if (ex instanceof IOException io)
            {
                throw new UncheckedIOException("cannot lock shm group directory " + dir + " (is " + dir.getParent()
                    + " writable by this user?)", io);
            }
            throw (RuntimeException) ex;
        }
    }

    /** @return the lock file's channel, or null when the directory vanished between its creation and the open. */
    private static FileChannel openLockFile(final Path dir) throws IOException
    {
        if (!Files.isDirectory(dir))
        {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        }
        try
        {
            return FileChannel.open(dir.resolve(FILE_NAME), Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
    }

    /**
     * Removes the directory and everything in it, then releases the lock: the last member of the group left. A file
     * some other process creates meanwhile (a member of another JVM that is not announced yet) keeps the directory;
     * it is removed by the group's next last member.
     *
     * @return the number of files removed, the lock file and the directory included.
     */
    int retire()
    {
        int removed = 0;
        try
        {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir))
            {
                for (final Path f : files)
                {
                    if (!f.getFileName().toString().equals(FILE_NAME) && Files.deleteIfExists(f))
                    {
                        removed++;
                    }
                }
            }
            // The mark before the unlink: a process blocked on this file reads it once it gets the lock.
            channel.write(ByteBuffer.wrap(RETIRED));
            Files.deleteIfExists(dir.resolve(FILE_NAME));
            removed++;
            Files.deleteIfExists(dir);
            removed++;
        }
        catch (final IOException ex)
        {
            // A file created meanwhile (DirectoryNotEmptyException) or a vanished one: the directory stays; nothing
            // in it is inconsistent, since the lock mark only says the old lock file is gone.
        }
        close();
        return removed;
    }

    @Override
    public void close()
    {
        if (released)
        {
            return;
        }
        released = true;
        try
        {
            // Closing the channel releases the fcntl lock.
            channel.close();
        }
        catch (final IOException ex)
        {
            // The descriptor is gone either way.
        }
        finally
        {
            jvmLock.unlock();
        }
    }
}
