package io.sirocco.multicast.spi.tcp;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.sst.SstTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tcp row push that cannot go to one peer now must not hold up the pushes to the others. Three members in this JVM;
 * rank 2's receiving thread is paused (its {@code received} hook blocks on a latch, so its selector reads nothing and
 * grants rank 0 no flow-control credits). Rank 0 pushes far more than a flow-control window of frames, each a data
 * block then a guard counter covering it: rank 1 must receive every frame while rank 2 is paused (before the fix the
 * pushing thread waited for rank 2's credits and rank 1 heard nothing more: the heartbeat stall of the netns rejoin
 * test). Once rank 2 resumes it receives everything, in order: after every applied frame, at every receiver, the guard
 * never runs ahead of the data it covers.
 */
class LaggingPeerTest
{
    private static final long ROW = 64 * 1024;
    private static final long GUARD = 64;
    private static final long DATA = 1024;
    /** A counter pushed once before the test, so the connections are open (not the case under test). */
    private static final long WARM = 128;
    /** Frames the sender may be ahead of rank 1 (256 KiB: far below the 4 MiB flow-control window). */
    private static final int AHEAD = 16;
    /** Bytes per frame: with the 4 MB flow-control window, the window of a paused peer shuts after ~256 frames. */
    private static final int BLOCK = 16 * 1024;

    private final List<RowTransport> transports = new ArrayList<>();
    private final List<RowTransportContext.MemberAddress> members = new ArrayList<>();
    private String group;
    /** Resumes rank 2's receiving thread; counted down at the latest before the transports close. */
    private final CountDownLatch resume = new CountDownLatch(1);

    @AfterEach
    void close()
    {
        resume.countDown();
        for (final RowTransport t : transports)
        {
            t.close();
        }
        for (final RowTransportContext.MemberAddress m : members)
        {
            TcpRowTransportProvider.shutdown(group, m.memberId());
        }
        System.clearProperty(TcpRowTransport.BACKLOG_PROP);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldKeepPushingToOthersWhileOnePeerGrantsNoCredits() throws Exception
    {
        final CountDownLatch paused = new CountDownLatch(1);
        final AtomicReference<String> violation = new AtomicReference<>();
        open(paused, violation);
        final RowTransport sender = transports.get(0);
        // Well past the paused peer's flow-control window, well within the per-peer backlog bound.
        final int frames = 600;
        final Thread pusher = Thread.ofPlatform().name("lagging-peer-pusher").start(() -> push(sender, 1, frames));
        assertThat(paused.await(30, TimeUnit.SECONDS)).as("rank 2's receiving thread took the first frame").isTrue();

        // Rank 1 hears every frame while rank 2 takes none.
        awaitGuard(transports.get(1).table(), GUARD, frames, "rank 1 (while rank 2 is paused)", () -> { });
        pusher.join(30_000);
        assertThat(pusher.isAlive()).as("the pushing thread waited for the paused peer").isFalse();
        assertThat(SstTable.getAcquireAt(transports.get(2).table(), GUARD)).isLessThan(frames);

        // Rank 2 resumes and catches up, in order; later pushes queue behind its backlog, not before it.
        resume.countDown();
        push(sender, frames + 1, frames + 10);
        // The sender's passes (here: flushes with nothing new) send the backlog as rank 2 takes it.
        awaitGuard(transports.get(2).table(), GUARD, frames + 10, "rank 2 (after it resumed)", sender::flush);
        awaitGuard(transports.get(1).table(), GUARD, frames + 10, "rank 1", sender::flush);
        assertThat(violation.get()).isNull();
        assertThat(sender.pushCount(2)).isPositive();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldFreezeAPeerWhoseBacklogPassesTheBound() throws Exception
    {
        System.setProperty(TcpRowTransport.BACKLOG_PROP, Integer.toString(1 << 20));
        final CountDownLatch paused = new CountDownLatch(1);
        final AtomicReference<String> violation = new AtomicReference<>();
        open(paused, violation);
        try
        {
            final RowTransport sender = transports.get(0);
            // 4 MB window + 1 MB backlog at 16 KB a frame: the bound is passed after ~320 frames.
            final int frames = 600;
            final Thread pusher = Thread.ofPlatform().name("lagging-peer-pusher").start(() -> push(sender, 1, frames));
            awaitGuard(transports.get(1).table(), GUARD, frames, "rank 1 (while rank 2 is paused)", () -> { });
            pusher.join(30_000);
            assertThat(pusher.isAlive()).isFalse();
            final long toPaused = sender.pushCount(2);
            assertThat(toPaused).as("frames sent to rank 2 before it was frozen").isLessThan(frames);
            push(sender, frames + 1, frames + 5);
            assertThat(sender.pushCount(2)).as("nothing more to a frozen peer").isEqualTo(toPaused);
        }
        finally
        {
            resume.countDown();
        }
        // What rank 2 did get arrived in order (a prefix: the guard never ahead of its data).
        assertThat(violation.get()).isNull();
    }

    /**
     * Pushes frames {@code from..to}: a data block filled with the frame number's low byte, then the guard. Paced by
     * rank 1 (at most {@link #AHEAD} frames it has not applied yet, as an SMC window paces a sender by its acks), so
     * only the paused peer falls behind, however slowly a loaded machine runs rank 1's receiving thread.
     */
    private void push(final RowTransport sender, final int from, final int to)
    {
        final MemorySegment t = sender.table();
        final MemorySegment pace = transports.get(1).table();
        for (int i = from; i <= to; i++)
        {
            final long deadline = System.nanoTime() + 40_000_000_000L;
            while (SstTable.getAcquireAt(pace, GUARD) < i - AHEAD && System.nanoTime() < deadline)
            {
                // The sender's pass: drains what a peer could not take.
                sender.flush();
                Thread.onSpinWait();
            }
            t.asSlice(DATA, BLOCK).fill((byte)i);
            SstTable.setReleaseAt(t, GUARD, i);
            sender.pushBytes(DATA, BLOCK);
            sender.pushGuard(GUARD, i);
            sender.flush();
        }
    }

    /**
     * Opens ranks 0..2; rank 2's received hook pauses its receiving thread on the first frame until {@code resume}.
     * Every receiver's hook checks that the data block of row 0 matches the guard it just applied.
     */
    private void open(final CountDownLatch paused, final AtomicReference<String> violation) throws Exception
    {
        group = "lag" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        for (int r = 0; r < 3; r++)
        {
            members.add(new RowTransportContext.MemberAddress(701 + r, "host" + r, r + 1, "127.0.0.1:" + freePort()));
        }
        final TcpRowTransportProvider provider = new TcpRowTransportProvider();
        for (int r = 0; r < 3; r++)
        {
            provider.prepare(group, members.get(r));
        }
        final MemorySegment[] tables = new MemorySegment[3];
        for (int r = 0; r < 3; r++)
        {
            final int rank = r;
            final Runnable received = () ->
            {
                final MemorySegment table = tables[rank];
                if (table == null)
                {
                    return;
                }
                final long guard = SstTable.getAcquireAt(table, GUARD);
                if (guard > 0 && table.get(ValueLayout.JAVA_BYTE, DATA + BLOCK - 1) != (byte)guard)
                {
                    violation.compareAndSet(null, "rank " + rank + " saw guard " + guard + " before its data");
                }
                if (rank == 2 && guard > 0 && paused.getCount() > 0)
                {
                    paused.countDown();
                    try
                    {
                        resume.await();
                    }
                    catch (final InterruptedException e)
                    {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            final RowTransport t = provider.open(new RowTransportContext(group, 1, r, members, ROW, () -> { },
                received));
            tables[r] = t.table();
            transports.add(t);
        }
        // Connections made before the test: a first push to every peer, which every peer receives.
        final RowTransport first = transports.get(0);
        SstTable.setReleaseAt(first.table(), WARM, 1);
        first.pushCounters(WARM, 1);
        first.flush();
        awaitGuard(transports.get(1).table(), WARM, 1, "rank 1 (warm-up)", first::flush);
        awaitGuard(transports.get(2).table(), WARM, 1, "rank 2 (warm-up)", first::flush);
    }

    /** Waits (bounded) until {@code table}'s counter at {@code offset} reaches {@code value}, running {@code pass}. */
    private static void awaitGuard(final MemorySegment table, final long offset, final long value, final String who,
        final Runnable pass) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 40_000_000_000L;
        while (SstTable.getAcquireAt(table, offset) < value && System.nanoTime() < deadline)
        {
            pass.run();
            Thread.sleep(1);
        }
        assertThat(SstTable.getAcquireAt(table, offset)).as(who).isEqualTo(value);
    }

    private static int freePort() throws java.io.IOException
    {
        try (ServerSocket s = new ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }
}
