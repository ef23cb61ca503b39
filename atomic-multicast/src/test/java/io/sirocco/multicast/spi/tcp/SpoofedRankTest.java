package io.sirocco.multicast.spi.tcp;

import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.sst.SstTable;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A row is written only by its own member: a connected node that is not rank 0 sends a row frame naming rank 0 for
 * the live view (a guard value of 42). The receiving member refuses it (counted) and its copy of row 0 is untouched;
 * rank 0's own push of the same counter then arrives.
 */
class SpoofedRankTest
{
    private static final long ROW = 4096;
    private static final long GUARD = 128;
    private static final long VIEW = 1;

    private final List<TcpEndpoint> endpoints = new ArrayList<>();
    private final List<TcpRowTransport> transports = new ArrayList<>();
    private MessagingService spoofer;

    @AfterEach
    void close()
    {
        transports.forEach(TcpRowTransport::close);
        endpoints.forEach(e -> e.service.close());
        if (spoofer != null)
        {
            spoofer.close();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldRefuseARowFrameFromANodeThatIsNotTheRanks() throws Exception
    {
        final List<RowTransportContext.MemberAddress> members = new ArrayList<>();
        for (int r = 0; r < 2; r++)
        {
            members.add(new RowTransportContext.MemberAddress(901 + r, "host" + r, r + 1, "127.0.0.1:" + freePort()));
        }
        for (int r = 0; r < 2; r++)
        {
            final String ep = members.get(r).endpoint();
            final TcpEndpoint endpoint = new TcpEndpoint(TcpEndpoint.nodeId(members.get(r).memberId()), "127.0.0.1",
                Integer.parseInt(ep.substring(ep.lastIndexOf(':') + 1)));
            final RowTransportContext context = new RowTransportContext("spoof", VIEW, r, members, ROW, () -> { },
                () -> { });
            endpoint.addPeers(context);
            final TcpRowTransport transport = new TcpRowTransport(endpoint, context);
            endpoint.opened(VIEW, transport);
            endpoints.add(endpoint);
            transports.add(transport);
        }
        final TcpEndpoint receiver = endpoints.get(1);
        final int receiverNode = TcpEndpoint.nodeId(members.get(1).memberId());

        final TransportContext context = new TransportContext().ownNodeId(950).transport("nio");
        context.addressMap().put(950, "127.0.0.1", 0);
        context.addressMap().put(receiverNode, receiver.service.addressMap().address(receiverNode));
        spoofer = MessagingService.start(context);
        final MemorySegment frame = Arena.ofAuto().allocate(12 + 13 + 8, 8);
        frame.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, VIEW);
        frame.set(ValueLayout.JAVA_INT_UNALIGNED, 8, 0); // "from rank 0"
        frame.set(ValueLayout.JAVA_BYTE, 12, RowFrame.COUNTERS);
        frame.set(ValueLayout.JAVA_LONG_UNALIGNED, 13, GUARD);
        frame.set(ValueLayout.JAVA_INT_UNALIGNED, 21, 1);
        frame.set(ValueLayout.JAVA_LONG_UNALIGNED, 25, 42L);
        spoofer.send(new RowFrame().wrap(frame, 0, (int)frame.byteSize()), receiverNode);

        await(receiver::refusedFrames, 1);
        final MemorySegment table = transports.get(1).table();
        assertThat(SstTable.getAcquireAt(table, GUARD)).as("rank 0's guard at rank 1 after the spoof").isZero();

        final TcpRowTransport owner = transports.get(0);
        SstTable.setReleaseAt(owner.table(), GUARD, 7);
        owner.pushCounters(GUARD, 1);
        owner.flush();
        await(() ->
        {
            owner.flush();
            return SstTable.getAcquireAt(table, GUARD);
        }, 7);
        assertThat(receiver.refusedFrames()).isEqualTo(1);
    }

    private static void await(final LongSupplier value, final long atLeast) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (value.getAsLong() < atLeast && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(1); // polling for the event itself, bounded
        }
        assertThat(value.getAsLong()).isGreaterThanOrEqualTo(atLeast);
    }

    private static int freePort() throws java.io.IOException
    {
        try (ServerSocket s = new ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }
}
