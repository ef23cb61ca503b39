package io.sirocco.multicast.spi.tcp;

import io.sirocco.multicast.spi.GroupDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A tcp member's private copy of a view's table, zero-filled without touching its pages: a file in the shm root
 * ({@code sirocco.multicast.shm.dir}, default {@code /dev/shm}) is created, sized, mapped and deleted at once, so only the pages
 * a push or the protocol writes ever take memory. A row reserves {@code window x maxMessage} bytes per sender for
 * bulk messages (16 GiB for a DDS topic), which {@code Arena.allocate} would zero page by page: that was why a
 * second member joining a running tcp group never installed its view. The mapping belongs to an automatic arena and
 * is unmapped by the GC once no frame handler or engine references the table any more.
 */
final class SparseTable
{
    private SparseTable()
    {
    }

    static MemorySegment allocate(final String groupName, final long viewId, final long sizeBytes)
    {
        Path file = null;
        try
        {
            file = Files.createTempFile(GroupDirectory.root(), "sirocco-tcp-" + groupName + "-v" + viewId
                + "-", ".sst", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (FileChannel channel = FileChannel.open(file, Set.of(StandardOpenOption.READ,
                StandardOpenOption.WRITE)))
            {
                return channel.map(FileChannel.MapMode.READ_WRITE, 0, sizeBytes, Arena.ofAuto());
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("tcp transport: cannot map the table of group " + groupName + " view "
                + viewId + " (" + sizeBytes + " bytes) under " + GroupDirectory.root(), ex);
        }
        finally
        {
            if (file != null)
            {
                try
                {
                    Files.deleteIfExists(file);
                }
                catch (final IOException ignored)
                {
                    // The mapping stays valid; a leftover empty-named temp file is harmless.
                }
            }
        }
    }
}
