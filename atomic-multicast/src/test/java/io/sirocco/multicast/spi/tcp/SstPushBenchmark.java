package io.sirocco.multicast.spi.tcp;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.sst.SstTable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * An SST counter push over the tcp row transport on loopback, as a round trip: rank 0 stores a counter in its row with
 * release semantics and pushes it; rank 1's receiving thread applies it to its copy of the table; the benchmark
 * thread sees it there (acquire) and pushes it back from rank 1's row; it ends when rank 0's table shows the answer.
 * One operation is two pushes, two receptions and two applications: the SST's part of every predicate round over tcp.
 * Over shm the rows are shared memory and a push is the release store alone.
 *
 * <pre>
 * java -cp atomic-multicast/target/test-classes:atomic-multicast/target/classes:$(cat /tmp/mcastcp.txt) \
 *     org.openjdk.jmh.Main SstPushBenchmark
 * </pre>
 * (the class path as for {@code SmcSlotBenchmark}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class SstPushBenchmark
{
    private static final long ROW = 4096;
    /** Rank 0's counter, in row 0. */
    private static final long PING = 64;
    /** Rank 1's counter, in row 1 (its own row: a member pushes only its own row). */
    private static final long PONG = 64;
    private static final long GIVE_UP_NS = TimeUnit.SECONDS.toNanos(10);

    private final List<RowTransport> transports = new ArrayList<>();
    private final List<RowTransportContext.MemberAddress> members = new ArrayList<>();
    private String group;
    private RowTransport rank0;
    private RowTransport rank1;
    private SstTable table0;
    private SstTable table1;
    private long counter;

    @Setup(Level.Trial)
    public void open() throws IOException
    {
        group = "sstbench" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        for (int r = 0; r < 2; r++)
        {
            members.add(new RowTransportContext.MemberAddress(801 + r, "host" + r, r + 1, "127.0.0.1:" + freePort()));
        }
        final TcpRowTransportProvider provider = new TcpRowTransportProvider();
        members.forEach(m -> provider.prepare(group, m));
        for (int r = 0; r < 2; r++)
        {
            transports.add(provider.open(new RowTransportContext(group, 1, r, members, ROW, () -> { }, () -> { })));
        }
        rank0 = transports.get(0);
        rank1 = transports.get(1);
        table0 = new SstTable(rank0.table(), ROW);
        table1 = new SstTable(rank1.table(), ROW);
    }

    @TearDown(Level.Trial)
    public void close()
    {
        transports.forEach(RowTransport::close);
        members.forEach(m -> TcpRowTransportProvider.shutdown(group, m.memberId()));
    }

    @Benchmark
    public long roundTrip()
    {
        final long value = ++counter;
        table0.setRelease(0, PING, value);
        rank0.pushCounters(PING, 1);
        rank0.flush();
        awaitValue(table1, 0, PING, value, rank0);
        table1.setRelease(1, PONG, value);
        rank1.pushCounters(PONG, 1);
        rank1.flush();
        awaitValue(table0, 1, PONG, value, rank1);
        return value;
    }

    /** Spins until {@code table} shows {@code value} in {@code row}; the pusher's flush drains a held-back frame. */
    private static void awaitValue(final SstTable table, final int row, final long offset, final long value,
        final RowTransport pusher)
    {
        final long deadline = System.nanoTime() + GIVE_UP_NS;
        while (table.getAcquire(row, offset) < value)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("push of " + value + " did not arrive in 10 s");
            }
            pusher.flush();
            Thread.onSpinWait();
        }
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket s = new ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }
}
