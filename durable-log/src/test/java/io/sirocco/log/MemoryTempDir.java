package io.sirocco.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Temporary directories in memory ({@code /dev/shm}) where the machine has it, else in the default temporary
 * directory. For tests whose subject is not the disk (replication, failover): with their stores on a shared disk,
 * a zone's group commit waits on fsyncs and O_DIRECT writes queued behind every other process's I/O, which under
 * a loaded CI machine took from 3 s to over 60 s per zone, so those tests measured the neighbours' disk traffic.
 * The disk itself is tested by the store's own tests (BackupStoreTest, FlushAndIoTest), which stay on disk. JUnit
 * deletes the directory after the test as usual.
 */
public final class MemoryTempDir implements TempDirFactory
{
    private static final Path SHM = Path.of("/dev/shm");

    @Override
    public Path createTempDirectory(final AnnotatedElementContext element, final ExtensionContext context)
        throws IOException
    {
        if (Files.isDirectory(SHM) && Files.isWritable(SHM))
        {
            return Files.createTempDirectory(SHM, "sirocco-durable-log-");
        }
        return Files.createTempDirectory("sirocco-durable-log-");
    }
}
