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
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Java 21 form ({@code release} 21): the whole corpus compiles with {@code javac --release 21 -Xlint:all
 * -Werror} (the full form does not: it names {@code java.lang.foreign}, a preview API in 21), and every type's codec
 * writes the very bytes of the full form's codec and reads them back.
 */
class Release21Test
{
    private static final DataRepresentation[] REPRESENTATIONS = {
        DataRepresentation.XCDR2_LE, DataRepresentation.XCDR2_BE, DataRepresentation.XCDR1_LE,
        DataRepresentation.XCDR1_BE};

    @Test
    void corpusCompilesWithRelease21AndNamesNoForeignType() throws IdlException
    {
        final Generated g = Generated.corpusForRelease21();
        assertThat(g.javacDiagnostics()).isEmpty();
        assertThat(g.sources()).allSatisfy((path, text) -> assertThat(text).as(path).doesNotContain("java.lang.foreign"));
        assertThat(g.sources().keySet()).as("no flat views").noneMatch(p -> p.endsWith("Flat.java"));
        assertThat(g.codecs()).hasSameSizeAs(Generated.corpus().codecs());
        assertThat(g.codecs().values()).as("no codec claims a flat view").noneMatch(TypeCodec::isFixedSize);
    }

    @Test
    void theFullFormIsRejectedByRelease21() throws IdlException
    {
        final Map<String, String> full = new IdlCompiler(List.of(Generated.CORPUS), GeneratorOptions.defaults())
            .compile(List.of(Generated.CORPUS.resolve("hello.idl")));
        assertThatThrownBy(() -> Generated.javac(full, List.of("--release", "21")))
            .hasMessageContaining("MemorySegment is a preview API");
    }

    @Test
    void releasesBelow21AreRefused()
    {
        assertThatThrownBy(() -> new GeneratorOptions("", "", false, 17))
            .hasMessageContaining("Java 21 or later");
    }

    @Property(tries = 20)
    void everyTypeWritesTheFullFormsBytes(@ForAll final long seed) throws IdlException
    {
        final Generated full = Generated.corpus();
        final Generated release21 = Generated.corpusForRelease21();
        try (Arena arena = Arena.ofConfined())
        {
            for (final Map.Entry<String, TypeCodec<Object>> e : release21.codecs().entrySet())
            {
                // the same seed gives the same values: both forms generate randomSample from the same model
                final Object sample = release21.randomSample(e.getKey(), new SplittableRandom(seed));
                final Object fullSample = full.randomSample(e.getKey(), new SplittableRandom(seed));
                final TypeCodec<Object> codec = e.getValue();
                final TypeCodec<Object> fullCodec = full.codec(e.getKey());
                for (final DataRepresentation rep : REPRESENTATIONS)
                {
                    final String what = e.getKey() + " " + rep + " " + sample;
                    final long size = codec.serializedSize(sample, rep);
                    assertThat(size).as(what).isEqualTo(fullCodec.serializedSize(fullSample, rep));
                    final MemorySegment bytes = arena.allocate(size + 8);
                    assertThat(codec.serialize(sample, bytes, 8, rep)).as(what).isEqualTo(size);
                    final MemorySegment fullBytes = arena.allocate(size);
                    fullCodec.serialize(fullSample, fullBytes, 0, rep);
                    assertThat(bytes.asSlice(8, size).toArray(ValueLayout.JAVA_BYTE)).as(what)
                        .isEqualTo(fullBytes.toArray(ValueLayout.JAVA_BYTE));
                    assertThat(codec.deserialize(bytes, 8, size, null)).as(what).isEqualTo(sample);
                }
            }
        }
    }
}
