package io.sirocco.multicast.spi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import io.sirocco.multicast.config.MulticastSettings;

/**
 * The private shared-memory directory of a group, {@code <root>/sirocco-<group>} (mode 0700): the {@code shm} and
 * {@code mixed} row transports map their tables there and the same-host registry keeps its files there, so both
 * sides name it through this one class and neither imports the other. The root is
 * {@link MulticastSettings#shmDirectory()}. Stateless and thread-safe (creating an existing directory is a no-op).
 */
public final class GroupDirectory
{
    private GroupDirectory()
    {
    }

    /** @return the root of the group directories ({@link MulticastSettings#SHM_DIR}). */
    public static Path root()
    {
        return MulticastSettings.shmDirectory();
    }

    /**
     * The directory of a group, not created.
     *
     * @param groupName the group.
     * @return {@code <root>/sirocco-<group>}.
     */
    public static Path path(final String groupName)
    {
        return root().resolve("sirocco-" + groupName);
    }

    /**
     * The directory of a group, created with mode 0700 if needed.
     *
     * @param groupName the group.
     * @return the directory.
     */
    public static Path create(final String groupName)
    {
        final Path dir = path(groupName);
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
}
