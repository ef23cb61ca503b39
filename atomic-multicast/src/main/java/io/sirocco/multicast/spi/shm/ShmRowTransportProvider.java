package io.sirocco.multicast.spi.shm;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The {@code shm} transport: the members of a view on one host map one table file,
 * {@code /dev/shm/sirocco-<group>/v<viewId>.sst} (directory 0700, file 0600), and each writes its own row in place.
 * A local row <em>is</em> the shared row, so a push is the release store the protocol already did: zero copies.
 */
public final class ShmRowTransportProvider implements RowTransportProvider
{
    /** Root of the per-group directories; {@code /dev/shm} when it exists, else the temporary directory. */
    public static Path root()
    {
        final String override = System.getProperty("sirocco.shm.dir");
        if (override != null)
        {
            return Path.of(override);
        }
        final Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /**
     * The private directory of a group, created with mode 0700 if needed.
     *
     * @param groupName the group.
     * @return the directory.
     */
    public static Path groupDirectory(final String groupName)
    {
        final Path dir = root().resolve("sirocco-" + groupName);
        try
        {
            if (!Files.isDirectory(dir))
            {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
            }
            return dir;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create shm group directory " + dir + " for group " + groupName, ex);
        }
    }

    @Override
    public String name()
    {
        return "shm";
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        final Path file = groupDirectory(context.groupName()).resolve("v" + context.viewId() + ".sst");
        return new ShmRowTransport(file, context);
    }
}
