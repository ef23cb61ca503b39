package io.sirocco.log.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a store opens its log files: O_DIRECT ({@code com.sun.nio.file.ExtendedOpenOption.DIRECT}) when enabled and
 * the file system accepts it, otherwise buffered I/O. Decided once per store directory by a probe write, and
 * logged, never picked silently. Immutable after {@link #probe}; thread-safe.
 */
public final class DiskAccess
{
    private static final Logger LOG = LoggerFactory.getLogger(DiskAccess.class);

    private final boolean direct;
    private final int blockSize;

    private DiskAccess(final boolean direct, final int blockSize)
    {
        this.direct = direct;
        this.blockSize = blockSize;
    }

    /** Probes {@code directory} for O_DIRECT support if {@code wantDirect}. */
    public static DiskAccess probe(final Path directory, final boolean wantDirect) throws IOException
    {
        int blockSize = 4096;
        try
        {
            blockSize = (int)Math.max(512, Math.min(65536, Files.getFileStore(directory).getBlockSize()));
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            LOG.debug("durable-log: block size of {} unknown, using 4096", directory, ex);
        }
        if (!wantDirect)
        {
            LOG.info("durable-log: {} uses buffered I/O (directIo=false)", directory);
            return new DiskAccess(false, blockSize);
        }
        final Path probe = directory.resolve(".odirect-probe");
        try (FileChannel channel = FileChannel.open(probe, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.READ, com.sun.nio.file.ExtendedOpenOption.DIRECT)))
        {
            final ByteBuffer block = AlignedBuffers.allocate(blockSize, blockSize);
            channel.write(block, 0);
            LOG.info("durable-log: {} uses O_DIRECT with {}-byte blocks", directory, blockSize);
            return new DiskAccess(true, blockSize);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            LOG.info("durable-log: {} does not support O_DIRECT ({}); using buffered I/O", directory, ex.toString());
            return new DiskAccess(false, blockSize);
        }
        finally
        {
            Files.deleteIfExists(probe);
        }
    }

    public boolean direct()
    {
        return direct;
    }

    public int blockSize()
    {
        return blockSize;
    }

    /** Opens (creating if needed) a file for appending through {@link LogFile}. */
    public FileChannel openForAppend(final Path file) throws IOException
    {
        final OpenOption[] options = direct
            ? new OpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                com.sun.nio.file.ExtendedOpenOption.DIRECT}
            : new OpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE};
        return FileChannel.open(file, options);
    }
}
