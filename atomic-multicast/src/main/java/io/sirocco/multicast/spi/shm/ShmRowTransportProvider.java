package io.sirocco.multicast.spi.shm;

import io.sirocco.multicast.spi.GroupDirectory;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;

import java.nio.file.Path;

/**
 * The {@code shm} transport: the members of a view on one host map one table file,
 * {@code /dev/shm/sirocco-<group>/v<viewId>.sst} (directory 0700, file 0600), and each writes its own row in place.
 * A local row <em>is</em> the shared row, so a push is the release store the protocol already did: zero copies.
 */
public final class ShmRowTransportProvider implements RowTransportProvider
{
    /** Root of the per-group directories ({@link GroupDirectory#root()}). */
    public static Path root()
    {
        return GroupDirectory.root();
    }

    /**
     * The private directory of a group, created with mode 0700 if needed ({@link GroupDirectory#create(String)}).
     *
     * @param groupName the group.
     * @return the directory.
     */
    public static Path groupDirectory(final String groupName)
    {
        return GroupDirectory.create(groupName);
    }

    @Override
    public boolean doorbell()
    {
        return Futex.available();
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
