package io.sirocco.idl;

import io.sirocco.dds.type.DataRepresentation;
import io.sirocco.dds.type.TypeCodec;
import io.sirocco.idl.model.IdlException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated {@code <Type>Flat} views lay a fixed-size struct out exactly as its XCDR2 little-endian
 * serialization: building a sample in place gives the bytes the codec writes, and the codec reads them back.
 */
class FlatViewTest
{
    private static List<String> flatTypes(final Generated g)
    {
        return g.sources().keySet().stream().filter(p -> p.endsWith("Flat.java"))
            .map(p -> p.substring(0, p.length() - "Flat.java".length()).replace('/', '.')).toList();
    }

    @Test
    void fixedSizeTypesHaveFlatViewsAndOthersDoNot() throws IdlException
    {
        final Generated g = Generated.corpus();
        final List<String> flats = flatTypes(g);
        assertThat(flats).contains("avionics.AirData", "avionics.NavigationState", "avionics.EngineStatus",
            "app.Fixed", "prims.AllPrimitives", "arrs.Cell");
        assertThat(flats).doesNotContain("glob.ShapeType", "sirocco.perf.Sample", "mut.Mutable", "opt.Optionals");
        for (final Map.Entry<String, TypeCodec<Object>> e : g.codecs().entrySet())
        {
            assertThat(e.getValue().isFixedSize()).as(e.getKey()).isEqualTo(flats.contains(e.getKey()));
        }
    }

    @Property(tries = 30)
    void flatBytesEqualTheSerializedSample(@ForAll final long seed) throws Exception
    {
        final Generated g = Generated.corpus();
        final SplittableRandom random = new SplittableRandom(seed);
        try (Arena arena = Arena.ofConfined())
        {
            for (final String type : flatTypes(g))
            {
                final TypeCodec<Object> codec = g.codec(type);
                final Class<?> flatClass = g.type(type + "Flat");
                final int size = flatClass.getField("SIZE").getInt(null);
                final Object sample = g.randomSample(type, random);
                final MemorySegment slot = arena.allocate(size + 8);
                final Object flat = flatClass.getConstructor().newInstance();
                flatClass.getMethod("wrap", MemorySegment.class, long.class).invoke(flat, slot, 8L);
                flatClass.getMethod("copyFrom", g.type(type)).invoke(flat, sample);

                final MemorySegment expected = arena.allocate(codec.serializedSize(sample, DataRepresentation.XCDR2_LE));
                codec.serialize(sample, expected, 0, DataRepresentation.XCDR2_LE);
                assertThat(size).as(type).isEqualTo(expected.byteSize());
                assertThat(slot.asSlice(8, size).toArray(ValueLayout.JAVA_BYTE)).as(type)
                    .isEqualTo(expected.toArray(ValueLayout.JAVA_BYTE));
                assertThat(codec.deserialize(slot, 8, size, null)).as(type).isEqualTo(sample);
                final Method copyTo = flatClass.getMethod("copyTo", g.type(type));
                assertThat(copyTo.invoke(flat, codec.newSample())).as(type).isEqualTo(sample);
            }
        }
    }

    @Test
    void accessorsReadAndWriteInPlace() throws Exception
    {
        final Generated g = Generated.corpus();
        final Class<?> flatClass = g.type("avionics.NavigationStateFlat");
        final Object flat = flatClass.getConstructor().newInstance();
        final MemorySegment slot = MemorySegment.ofArray(new byte[flatClass.getField("SIZE").getInt(null)]);
        flatClass.getMethod("wrap", MemorySegment.class, long.class).invoke(flat, slot, 0L);
        flatClass.getMethod("writeHeader").invoke(flat);
        flatClass.getMethod("aircraftId", short.class).invoke(flat, (short)42);
        flatClass.getMethod("velocityNed", int.class, double.class).invoke(flat, 2, -3.5);
        flatClass.getMethod("timestampNs", long.class).invoke(flat, 123456789L);
        assertThat(flatClass.getMethod("aircraftId").invoke(flat)).isEqualTo((short)42);
        assertThat(flatClass.getMethod("velocityNed", int.class).invoke(flat, 2)).isEqualTo(-3.5);
        final Object sample = g.codec("avionics.NavigationState").deserialize(slot, 0, slot.byteSize(), null);
        assertThat(Generated.get(sample, "aircraftId")).isEqualTo((short)42);
        assertThat(((double[])Generated.get(sample, "velocityNed"))[2]).isEqualTo(-3.5);
        assertThat(Generated.get(sample, "timestampNs")).isEqualTo(123456789L);
    }
}
