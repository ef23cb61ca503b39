package io.sirocco.multicast.smc;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.shm.ShmRowTransportProvider;
import io.sirocco.multicast.sst.SstLayout;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test fixture for engines stepped by hand: one view's shared shm table, its members (ids 100, 101, ... by rank) all
 * in this process, each rank's transport opened on demand. {@link #close()} closes them and deletes the group's
 * directory. One test thread uses it.
 */
final class ShmTestTable implements AutoCloseable
{
    private final String group;
    private final List<RowTransportContext.MemberAddress> members;
    private final List<RowTransport> transports = new ArrayList<>();

    ShmTestTable(final String prefix, final int memberCount)
    {
        group = prefix + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final long pid = ProcessHandle.current().pid();
        members = IntStream.range(0, memberCount)
            .mapToObj(r -> new RowTransportContext.MemberAddress(100 + r, "h", pid, "")).toList();
    }

    /** Opens rank's transport on the table of view 1, laid out by layout. */
    RowTransport open(final int rank, final SstLayout layout)
    {
        final RowTransport transport = new ShmRowTransportProvider().open(new RowTransportContext(group, 1, rank,
            members, layout.rowLengthBytes(), () -> { }));
        transports.add(transport);
        return transport;
    }

    /** Claims an 8-byte slot of sender (which must succeed), writes value in it and commits. */
    static void sendWord(final SubgroupEngine sender, final long value)
    {
        final SlotClaim claim = new SlotClaim();
        assertThat(sender.tryClaim(8, claim)).isEqualTo(ClaimResult.OK);
        claim.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, value);
        claim.commit();
    }

    @Override
    public void close() throws IOException
    {
        transports.forEach(RowTransport::close);
        transports.clear();
        Files.deleteIfExists(ShmRowTransportProvider.groupDirectory(group));
    }
}
