package io.sirocco.idl.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

/**
 * Reference for {@link CodecBenchmark}: the same XCDR2 little-endian bytes for {@code sirocco::perf::Sample}
 * (key, seq, timestamp, 64-byte payload) written and read by hand-coded straight-line {@link MemorySegment}
 * accesses, with no codec, no writer object and no checks beyond the segment's own. The ratio codec / hand-written
 * is the cost of the generated, general code.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m"})
public class HandWrittenSampleBenchmark
{
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT_BE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private int keyval = 7;
    private long seq = 123456789L;
    private long timestampNs = 987654321L;
    private byte[] payload = new byte[64];
    private MemorySegment buffer;

    @Setup
    public void setup()
    {
        buffer = Arena.global().allocate(4096, 8);
        serialize();
    }

    @Benchmark
    public long serialize()
    {
        final MemorySegment b = buffer;
        b.set(SHORT_BE, 0, (short)0x0007);
        b.set(SHORT_BE, 2, (short)0);
        b.set(INT, 4, keyval);
        b.set(LONG, 8, seq);
        b.set(LONG, 16, timestampNs);
        b.set(INT, 24, payload.length);
        MemorySegment.copy(payload, 0, b, ValueLayout.JAVA_BYTE, 28, payload.length);
        return 28 + payload.length;
    }

    @Benchmark
    public byte[] deserializeReuse()
    {
        final MemorySegment b = buffer;
        if (b.get(SHORT_BE, 0) != 0x0007)
        {
            throw new IllegalStateException();
        }
        keyval = b.get(INT, 4);
        seq = b.get(LONG, 8);
        timestampNs = b.get(LONG, 16);
        final int n = b.get(INT, 24);
        if (payload.length != n)
        {
            payload = new byte[n];
        }
        MemorySegment.copy(b, ValueLayout.JAVA_BYTE, 28, payload, 0, n);
        return payload;
    }
}
