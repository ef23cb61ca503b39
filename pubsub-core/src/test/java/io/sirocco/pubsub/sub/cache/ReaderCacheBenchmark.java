package io.sirocco.pubsub.sub.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.sub.cache.PointSamples.Point;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The reader cache's part of every sample: a deserialized sample is inserted ({@link ReaderHistoryCache#accept}, the
 * instance found by its key hash, the ownership/order/lifespan filters applied, an entry from the pool), then taken
 * by a loaning take ({@link ReaderHistoryCache#collect}) and the loan returned, so entries and sample objects go back
 * to their pools. Keyed, {@link #instances} instances written round-robin, KEEP_ALL; {@code insertThenTake} takes
 * after every sample, {@code batch} inserts {@link #BATCH} and takes them in one call, as a reader that falls behind
 * does. The reader's lock and the deserialization are not in it (see CodecBenchmark for the codec).
 *
 * <pre>
 * ./mvnw -B -q -o -pl pubsub-core -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=/tmp/corecp.txt -Dmdep.includeScope=test
 * java -cp pubsub-core/target/test-classes:pubsub-core/target/classes:$(cat /tmp/corecp.txt) \
 *     org.openjdk.jmh.Main ReaderCacheBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class ReaderCacheBenchmark
{
    static final int BATCH = 64;
    private static final long WRITER = 0x0102_0304_0506_0708L;

    @Param({"1", "64"})
    int instances;

    private ReaderHistoryCache<Point> cache;
    private final List<SampleImpl<Point>> out = new ArrayList<>(BATCH);
    private final TakeAll spec = new TakeAll();
    private long seq;
    private long taken;

    @Setup(Level.Trial)
    public void open()
    {
        cache = PointSamples.newCache();
    }

    @Benchmark
    public long insertThenTake()
    {
        insert();
        return take();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long batch()
    {
        for (int i = 0; i < BATCH; i++)
        {
            insert();
        }
        return take();
    }

    private void insert()
    {
        Point data = cache.pollFreeData();
        if (data == null)
        {
            data = new Point();
        }
        final long s = ++seq;
        data.key = s % instances;
        data.x = s;
        cache.accept(BusMessage.KIND_DATA, WRITER, 0, s, LifespanFilter.NEVER, 0, data.key, data);
    }

    private long take()
    {
        cache.collect(spec, true, out, true);
        long last = 0;
        for (int i = 0; i < out.size(); i++)
        {
            last = out.get(i).getData().x;
        }
        taken += out.size();
        cache.returnLoaned(out);
        out.clear();
        if (taken != seq)
        {
            throw new IllegalStateException("took " + taken + " of " + seq + " samples");
        }
        return last;
    }

    /** Every sample of every instance, any state. */
    private static final class TakeAll implements ReadSpec
    {
        @Override
        public int sampleMask()
        {
            return DataStateBits.SAMPLE_READ | DataStateBits.SAMPLE_NOT_READ;
        }

        @Override
        public int viewMask()
        {
            return DataStateBits.VIEW_NEW | DataStateBits.VIEW_NOT_NEW;
        }

        @Override
        public int instanceMask()
        {
            return DataStateBits.INSTANCE_ALIVE | DataStateBits.INSTANCE_DISPOSED | DataStateBits.INSTANCE_NO_WRITERS;
        }

        @Override
        public int sampleLimit()
        {
            return Integer.MAX_VALUE;
        }

        @Override
        public long instanceValue()
        {
            return 0;
        }

        @Override
        public boolean nextInstanceFlag()
        {
            return false;
        }
    }
}
