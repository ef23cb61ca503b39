package io.sirocco.idl;

import io.sirocco.dds.type.DataRepresentation;
import io.sirocco.dds.type.TypeCodec;
import io.sirocco.idl.gen.GeneratorOptions;
import io.sirocco.idl.model.IdlException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every corpus file compiles on its own; the whole corpus compiles with javac -Xlint:all -Werror; and random samples
 * of every generated type round-trip byte-exactly in XCDR1 and XCDR2, both byte orders.
 */
class CorpusRoundTripTest
{
    private static final DataRepresentation[] REPRESENTATIONS = {
        DataRepresentation.XCDR2_LE, DataRepresentation.XCDR2_BE, DataRepresentation.XCDR1_LE,
        DataRepresentation.XCDR1_BE};

    @Test
    void corpusHasAtLeast25FilesAndEachCompilesAlone() throws IdlException
    {
        final List<Path> files = Generated.corpusFiles();
        assertThat(files).hasSizeGreaterThanOrEqualTo(25);
        for (final Path file : files)
        {
            final Map<String, String> sources = new IdlCompiler(List.of(Generated.CORPUS),
                new GeneratorOptions("", "glob", false)).compile(List.of(file));
            assertThat(sources).as(file.toString()).isNotEmpty();
        }
    }

    @Test
    void generatedJavaCompilesWithoutWarnings() throws IdlException
    {
        final Generated g = Generated.corpus();
        assertThat(g.javacDiagnostics()).isEmpty();
        assertThat(g.codecs()).hasSizeGreaterThan(60);
    }

    @Property(tries = 60)
    void everyTypeRoundTripsByteExactly(@ForAll final long seed) throws IdlException
    {
        final Generated g = Generated.corpus();
        final SplittableRandom random = new SplittableRandom(seed);
        try (Arena arena = Arena.ofConfined())
        {
            for (final Map.Entry<String, TypeCodec<Object>> e : g.codecs().entrySet())
            {
                final TypeCodec<Object> codec = e.getValue();
                final Object sample = g.randomSample(e.getKey(), random);
                for (final DataRepresentation rep : REPRESENTATIONS)
                {
                    final String what = e.getKey() + " " + rep + " " + sample;
                    final long size = codec.serializedSize(sample, rep);
                    if (codec.maxSerializedSize() >= 0)
                    {
                        assertThat(size).as(what).isLessThanOrEqualTo(codec.maxSerializedSize());
                    }
                    final MemorySegment buffer = arena.allocate(size + 16);
                    final long written = codec.serialize(sample, buffer, 8, rep);
                    assertThat(written).as(what).isEqualTo(size);
                    final Object back = codec.deserialize(buffer, 8, written, null);
                    assertThat(back).as(what).isEqualTo(sample);
                    assertThat(back.hashCode()).as(what).isEqualTo(sample.hashCode());
                    final MemorySegment again = arena.allocate(size);
                    codec.serialize(back, again, 0, rep);
                    assertThat(again.toArray(ValueLayout.JAVA_BYTE)).as(what)
                        .isEqualTo(buffer.asSlice(8, written).toArray(ValueLayout.JAVA_BYTE));
                    final Object reused = codec.deserialize(buffer, 8, written, codec.newSample());
                    assertThat(reused).as(what).isEqualTo(sample);
                    assertThat(codec.copy(sample)).as(what).isEqualTo(sample);
                }
            }
        }
    }

    /** Corrupted or truncated bytes from the network are rejected with IllegalArgumentException, never anything else. */
    @Property(tries = 40)
    void corruptInputOnlyEverThrowsIllegalArgumentException(@ForAll final long seed) throws IdlException
    {
        final Generated g = Generated.corpus();
        final SplittableRandom random = new SplittableRandom(seed);
        for (final Map.Entry<String, TypeCodec<Object>> e : g.codecs().entrySet())
        {
            final TypeCodec<Object> codec = e.getValue();
            final Object sample = g.randomSample(e.getKey(), random);
            final DataRepresentation rep = REPRESENTATIONS[random.nextInt(REPRESENTATIONS.length)];
            final byte[] bytes = new byte[(int)codec.serializedSize(sample, rep)];
            codec.serialize(sample, MemorySegment.ofArray(bytes), 0, rep);
            final int flips = 1 + random.nextInt(4);
            for (int i = 0; i < flips && bytes.length > 4; i++)
            {
                bytes[4 + random.nextInt(bytes.length - 4)] = (byte)random.nextInt(256);
            }
            final int length = random.nextBoolean() ? bytes.length : random.nextInt(bytes.length + 1);
            try
            {
                codec.deserialize(MemorySegment.ofArray(bytes), 0, length, null);
            }
            catch (final IllegalArgumentException expected)
            {
                assertThat(expected.getMessage()).isNotBlank();
            }
        }
    }
}
