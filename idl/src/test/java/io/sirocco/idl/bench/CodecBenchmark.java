package io.sirocco.idl.bench;

import io.sirocco.dds.type.DataRepresentation;
import io.sirocco.dds.type.TypeCodec;
import io.sirocco.idl.Generated;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Serialize and deserialize (into a reused sample) through {@link TypeCodec}, as the DDS layer calls it, for the
 * ping/pong sample, a fixed-size avionics type and the string-keyed ShapeType. Run with {@code -prof gc} to see
 * bytes allocated per operation. Not a unit test: run by hand (docs/benchmarks.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m"})
public class CodecBenchmark
{
    @Param({"sirocco.perf.Sample", "avionics.AirData", "glob.ShapeType"})
    public String type;

    private TypeCodec<Object> codec;
    private Object sample;
    private Object reuse;
    private MemorySegment buffer;
    private long length;

    @Setup
    public void setup() throws Exception
    {
        final Generated g = Generated.corpus();
        codec = g.codec(type);
        sample = g.randomSample(type, new SplittableRandom(42));
        if (type.equals("sirocco.perf.Sample"))
        {
            Generated.set(sample, "payload", new byte[64]);
        }
        buffer = Arena.global().allocate(4096, 8);
        length = codec.serialize(sample, buffer, 0, DataRepresentation.XCDR2_LE);
        reuse = codec.deserialize(buffer, 0, length, null);
    }

    @Benchmark
    public long serialize()
    {
        return codec.serialize(sample, buffer, 0, DataRepresentation.XCDR2_LE);
    }

    @Benchmark
    public Object deserializeReuse()
    {
        return codec.deserialize(buffer, 0, length, reuse);
    }

    @Benchmark
    public long serializedSize()
    {
        return codec.serializedSize(sample, DataRepresentation.XCDR2_LE);
    }
}
