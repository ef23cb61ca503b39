package io.sirocco.multicast.spi.tcp;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.sst.SstTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23 item 6: a peer whose process dies ends its row connection (the kernel sends a FIN or a reset), and the
 * survivors must suspect it through that path at once, not after the 2 s heartbeat timeout. Three tcp row transports
 * in this JVM, no failure detector at all (so a suspicion can only come from the transport): rank 1's endpoint goes
 * away as with a crash (its sockets close without a leave), and both survivors' listeners get rank 1, with the
 * reset path's reason, and nothing about each other.
 */
class ResetSuspicionTest
{
    private static final long ROW = 4096;
    private static final long WARM = 128;

    private final List<RowTransport> transports = new ArrayList<>();
    private final List<RowTransportContext.MemberAddress> members = new ArrayList<>();
    private final Map<Integer, Map<Integer, String>> reports = new ConcurrentHashMap<>();
    private String group;

    @AfterEach
    void close()
    {
        for (final RowTransport t : transports)
        {
            t.close();
        }
        for (final RowTransportContext.MemberAddress m : members)
        {
            TcpRowTransportProvider.shutdown(group, m.memberId());
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldSuspectAPeerAtOnceWhenItsRowConnectionEnds() throws Exception
    {
        open();
        TcpRowTransportProvider.shutdown(group, members.get(1).memberId()); // rank 1's sockets close: a crash

        awaitReport(0, 1);
        awaitReport(2, 1);
        assertThat(reports.get(0).get(1)).startsWith(PeerLossReporter.REASON).contains("node");
        assertThat(reports.get(2).get(1)).startsWith(PeerLossReporter.REASON);
        assertThat(reports.get(0)).containsOnlyKeys(1);
        assertThat(reports.get(2)).containsOnlyKeys(1);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldNotSuspectPeersWhenTheLocalEndpointCloses() throws Exception
    {
        open();
        // rank 0's endpoint shuts down (its view's transport still registered): a local close, not a peer's end
        TcpRowTransportProvider.shutdown(group, members.get(0).memberId());
        awaitReport(1, 0); // the others see rank 0's end: the reset path
        awaitReport(2, 0);
        assertThat(reports.get(0)).as("rank 0 closed its own endpoint: no report of its peers").isEmpty();
    }

    private void awaitReport(final int reporter, final int rank) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!reports.get(reporter).containsKey(rank) && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(1); // polling for the event itself, bounded
        }
        assertThat(reports.get(reporter)).as("suspicions reported by rank %d", reporter).containsKey(rank);
    }

    /** Opens ranks 0..2, each with a suspicion listener, and pushes once from every rank to every other one. */
    private void open() throws Exception
    {
        group = "reset" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        for (int r = 0; r < 3; r++)
        {
            members.add(new RowTransportContext.MemberAddress(801 + r, "host" + r, r + 1, "127.0.0.1:" + freePort()));
        }
        final TcpRowTransportProvider provider = new TcpRowTransportProvider();
        for (int r = 0; r < 3; r++)
        {
            provider.prepare(group, members.get(r));
        }
        for (int r = 0; r < 3; r++)
        {
            final RowTransport t = provider.open(new RowTransportContext(group, 1, r, members, ROW, () -> { },
                () -> { }));
            final Map<Integer, String> mine = new ConcurrentHashMap<>();
            reports.put(r, mine);
            t.suspicionListener((rank, reason) -> mine.putIfAbsent(rank, reason));
            transports.add(t);
        }
        for (int r = 0; r < 3; r++)
        {
            final RowTransport t = transports.get(r);
            SstTable.setReleaseAt(t.table(), r * ROW + WARM + 8L * r, 1); // in its own row
            t.pushCounters(WARM + 8L * r, 1);
            t.flush();
        }
        for (int r = 0; r < 3; r++)
        {
            for (int from = 0; from < 3; from++)
            {
                awaitCounter(transports.get(r).table(), from * ROW + WARM + 8L * from, transports.get(from));
            }
        }
    }

    private static void awaitCounter(final MemorySegment table, final long offset, final RowTransport pusher)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (SstTable.getAcquireAt(table, offset) < 1 && System.nanoTime() - deadline < 0)
        {
            pusher.flush();
            Thread.sleep(1);
        }
        assertThat(SstTable.getAcquireAt(table, offset)).as("warm-up counter at %d", offset).isEqualTo(1);
    }

    private static int freePort() throws java.io.IOException
    {
        try (ServerSocket s = new ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }
}
