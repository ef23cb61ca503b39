package io.sirocco.multicast.spi.mixed;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.tcp.TcpRowTransportProvider;
import io.sirocco.multicast.sst.SstTable;
import io.sirocco.multicast.view.ShmRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code mixed} transport's routing at the SPI level, three members in this JVM on two "hosts" (A: ranks 0 and 1,
 * B: rank 2): a push reaches the same-host member by shared memory at once (before any flush), the other host by a
 * tcp frame after the flush, and in both places the guard covers the bytes pushed before it.
 */
class MixedRowTransportTest
{
    private static final long ROW = 4096;
    private static final long DATA = 512;
    private static final long GUARD = 64;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCopyToSameHostAtOnceAndFrameToOtherHost() throws Exception
    {
        final String group = "mix" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final List<RowTransportContext.MemberAddress> members = List.of(
            new RowTransportContext.MemberAddress(501, "hostA", 1, "127.0.0.1:" + freePort()),
            new RowTransportContext.MemberAddress(502, "hostA", 2, "127.0.0.1:" + freePort()),
            new RowTransportContext.MemberAddress(503, "hostB", 3, "127.0.0.1:" + freePort()));
        final AtomicInteger[] bells = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
        final List<RowTransport> ts = new ArrayList<>();
        final MixedRowTransportProvider provider = new MixedRowTransportProvider();
        try
        {
            for (int r = 0; r < 3; r++)
            {
                provider.prepare(group, members.get(r));
            }
            for (int r = 0; r < 3; r++)
            {
                final AtomicInteger bell = bells[r];
                ts.add(provider.open(new RowTransportContext(group, 1, r, members, ROW, bell::incrementAndGet)));
            }
            assertThat(ts.get(0).sharesRows()).isFalse();

            // Rank 0 (host A) writes bytes then its guard, and pushes them.
            final MemorySegment t0 = ts.get(0).table();
            for (int i = 0; i < 64; i++)
            {
                t0.set(ValueLayout.JAVA_BYTE, DATA + i, (byte)(i + 1));
            }
            SstTable.setReleaseAt(t0, GUARD, 7);
            ts.get(0).pushBytes(DATA, 64);
            ts.get(0).pushGuard(GUARD, 7);
            // Same host: already in rank 1's copy of row 0, before any flush.
            assertThat(SstTable.getAcquireAt(ts.get(1).table(), GUARD)).isEqualTo(7);
            assertThat(ts.get(1).table().get(ValueLayout.JAVA_BYTE, DATA + 63)).isEqualTo((byte)64);
            // Other host: nothing before the flush (one frame per flush), everything after it.
            assertThat(SstTable.getAcquireAt(ts.get(2).table(), GUARD)).isZero();
            ts.get(0).flush();
            assertThat(bells[1].get()).as("same-host doorbell rung by the flush").isPositive();
            awaitGuard(ts.get(2).table(), GUARD, 7, ts.get(0));
            assertThat(ts.get(2).table().get(ValueLayout.JAVA_BYTE, DATA + 63)).isEqualTo((byte)64);
            // Pushes counted per target: bytes and guard to rank 1 (shared memory), one frame to rank 2 only.
            assertThat(ts.get(0).pushCount()).isEqualTo(3);
            // ... and per target, which is what the route report at close shows: rank 1 got two pushes by shared
            // memory, rank 2 one frame by tcp.
            assertThat(ts.get(0).pushCount(1)).isEqualTo(2);
            assertThat(ts.get(0).pushCount(2)).isEqualTo(1);
            assertThat(ts.get(0).pushCount(0)).isZero();

            // Rank 2 (host B) pushes a guard: both host-A members receive it by tcp.
            final long row2 = 2 * ROW;
            SstTable.setReleaseAt(ts.get(2).table(), row2 + GUARD, 11);
            ts.get(2).pushCounters(GUARD, 1);
            ts.get(2).flush();
            awaitGuard(ts.get(0).table(), row2 + GUARD, 11, ts.get(2));
            awaitGuard(ts.get(1).table(), row2 + GUARD, 11, ts.get(2));

            // A frozen same-host member receives nothing more.
            ts.get(0).freeze(1);
            SstTable.setReleaseAt(t0, GUARD, 8);
            ts.get(0).pushGuard(GUARD, 8);
            ts.get(0).flush();
            awaitGuard(ts.get(2).table(), GUARD, 8, ts.get(0));
            assertThat(SstTable.getAcquireAt(ts.get(1).table(), GUARD)).isEqualTo(7);
        }
        finally
        {
            for (final RowTransport t : ts)
            {
                t.close();
            }
            for (final RowTransportContext.MemberAddress m : members)
            {
                TcpRowTransportProvider.shutdown(group, m.memberId());
            }
            ShmRegistry.destroy(group);
        }
    }

    /**
     * Waits (bounded) for the counter, running the sender's passes meanwhile (as the predicate thread does): a tcp
     * peer whose connection is still being made gets its frames from the pass after it opened.
     */
    private static void awaitGuard(final MemorySegment table, final long offset, final long value,
        final RowTransport sender) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (SstTable.getAcquireAt(table, offset) != value && System.nanoTime() < deadline)
        {
            sender.flush();
            Thread.sleep(1);
        }
        assertThat(SstTable.getAcquireAt(table, offset)).isEqualTo(value);
    }

    private static int freePort() throws java.io.IOException
    {
        try (ServerSocket s = new ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }
}
