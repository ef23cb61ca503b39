package io.sirocco.examples.cli.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Measures the raw rate of "write 4 KiB, fsync" on a directory: the ceiling for per-entry durable acks. */
public final class FsyncProbe
{
    private FsyncProbe()
    {
    }

    /** Returns fsyncs per second over about {@code durationMs}. */
    public static double fsyncsPerSecond(final Path directory, final long durationMs) throws IOException
    {
        final Path file = directory.resolve("fsync-probe.dat");
        final ByteBuffer block = ByteBuffer.allocateDirect(4096);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE))
        {
            final long start = System.nanoTime();
            final long end = start + durationMs * 1_000_000L;
            long count = 0;
            long position = 0;
            while (System.nanoTime() < end || count < 10)
            {
                block.clear();
                channel.write(block, position);
                position = (position + 4096) % (1 << 20);
                channel.force(false);
                count++;
            }
            return count * 1e9 / (System.nanoTime() - start);
        }
        finally
        {
            Files.deleteIfExists(file);
        }
    }
}
