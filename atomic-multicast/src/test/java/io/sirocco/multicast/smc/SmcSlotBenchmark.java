package io.sirocco.multicast.smc;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.sst.SstLayout;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The SMC hot path of one message, stepped on one thread (no predicate threads, no cross-core hand-off): the sender
 * claims a slot, writes the payload and commits; the reader's receive and delivery triggers take it and hand it to the
 * delivery handler; the sender's triggers then free the slot. Two members of an ORDERED subgroup on one shared shm
 * table, rank 0 the only sender, the Spindle options all on. {@code single} runs the triggers after every message;
 * {@code batch} commits {@link #BATCH} messages and then runs each trigger once, the opportunistic batching a busy
 * sender gets. What it measures is the protocol's own cost per message; the thread hand-offs and the cache traffic
 * between cores come on top in the end-to-end benches (docs/benchmarks.md).
 *
 * <pre>
 * ./mvnw -B -q -o -pl atomic-multicast -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=/tmp/mcastcp.txt -Dmdep.includeScope=test
 * java -cp atomic-multicast/target/test-classes:atomic-multicast/target/classes:$(cat /tmp/mcastcp.txt) \
 *     org.openjdk.jmh.Main SmcSlotBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class SmcSlotBenchmark
{
    /** Messages committed before the triggers run, in {@link #batch}: half the window. */
    static final int BATCH = 32;
    private static final int WINDOW = 64;

    @Param({"64", "1024"})
    int size;

    private ShmTestTable table;
    private SubgroupEngine sender;
    private SubgroupEngine reader;
    private final SlotClaim claim = new SlotClaim();
    private final CountingHandler delivered = new CountingHandler();
    private long next;

    @Setup(Level.Trial)
    public void open()
    {
        table = new ShmTestTable("smcbench", 2);
        sender = engine(0, new CountingHandler());
        reader = engine(1, delivered);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException
    {
        if (delivered.count != next)
        {
            throw new IllegalStateException("delivered " + delivered.count + " of " + next + " messages");
        }
        table.close();
    }

    @Benchmark
    public long single()
    {
        commit();
        steps();
        return delivered.last;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long batch()
    {
        for (int i = 0; i < BATCH; i++)
        {
            commit();
        }
        steps();
        return delivered.last;
    }

    private void commit()
    {
        if (sender.tryClaim(size, claim) != ClaimResult.OK)
        {
            throw new IllegalStateException("no free slot after " + next + " messages");
        }
        claim.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, ++next);
        claim.commit();
    }

    /** The reader takes and delivers; the sender sees it received and frees the slots. */
    private void steps()
    {
        reader.receiveTrigger();
        reader.deliveryTrigger();
        sender.sendTrigger();
        sender.receiveTrigger();
        sender.deliveryTrigger();
        reader.receiveTrigger();
    }

    private SubgroupEngine engine(final int rank, final DeliveryHandler handler)
    {
        final SstLayout layout = new SstLayout(new int[] {1}, new int[] {WINDOW}, new int[] {size},
            new int[] {size});
        return new SubgroupEngine("bench", DeliveryMode.ORDERED, WINDOW, size, size, 0, layout, new int[] {0},
            new long[] {100}, new int[] {0, 1}, rank, table.open(rank, layout), SpindleOptions.ALL_ON, handler,
            () -> { });
    }

    /** Counts deliveries and keeps the last payload's first word (so the read is not optimized away). */
    private static final class CountingHandler implements DeliveryHandler
    {
        long count;
        long last;

        @Override
        public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
            final MemorySegment payload, final int length)
        {
            count++;
            last = payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        }
    }
}
