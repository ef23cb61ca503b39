package io.sirocco.idl;

import io.sirocco.dds.type.DataRepresentation;
import io.sirocco.dds.type.TypeCodec;
import io.sirocco.idl.model.IdlException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Known-answer tests: exact byte vectors, worked out by hand from the OMG DDS-XTypes 1.3 rules cited on each test,
 * for the code the compiler generates. Vectors are hex, encapsulation header first.
 */
class KnownAnswerTest
{
    private static final String IDL = """
        module kat
        {
            struct Prims { octet a; double b; char c; long long d; short e; };
            struct Str { string s; };
            struct WStr { wstring w; };
            struct ShortSeq { sequence<short> v; };
            struct StringSeq { sequence<string> v; };
            struct Grid { long g[2][2]; };
            struct StringArray { string s[2]; };
            struct Inner { short a; };
            struct Outer { octet x; Inner inner; long y; };
            struct Opt { @optional long a; @optional long b; };
            @appendable struct App { long x; octet y; };
            @mutable struct Mut { @id(1) long x; @id(2) string s; @key @id(3) octet k; };
            union U switch (long) { case 1: long a; case 2: string b; default: octet c; };
            struct WithUnion { U u; };
            @appendable union AU switch (octet) { case 1: short s; };
            struct WithAU { AU u; };
            enum E { EA, EB, @value(7) EC };
            @bit_bound(8) enum E8 { SA, SB };
            struct WithEnums { E e; E8 small; };
            struct Bounded { string<4> name; sequence<long, 2> values; };
            struct Key4 { @key long id; string s; };
            struct KeyString { @key string<64> name; };
            struct Id { long hi; long lo; };
            struct Unkeyed { short a; octet b; };
            struct Keyed { @key long k; double notKey; };
            struct StructKey { @key Id id; @key Unkeyed u; @key Keyed k; long data; };
            struct Exact16 { @key long long a; @key long long b; };
            struct Over16 { @key long long a; @key long long b; @key octet c; };
            @mutable struct IdOrder { @id(9) long data; @key @id(3) long second; @key @id(1) long first; };
            @appendable struct AppV1 { long x; };
            @mutable struct MutV1 { @id(1) long x; };
            @mutable struct MutV2 { @id(1) long x; @id(2) string s; };
        };
        """;

    private static Generated g;

    @BeforeAll
    static void compile() throws IdlException
    {
        g = Generated.fromText(IDL);
    }

    private static String hex(final TypeCodec<Object> codec, final Object sample, final DataRepresentation rep)
    {
        final MemorySegment buffer = MemorySegment.ofArray(new byte[(int)codec.serializedSize(sample, rep)]);
        final long n = codec.serialize(sample, buffer, 0, rep);
        assertThat(n).isEqualTo(buffer.byteSize());
        final Object back = codec.deserialize(buffer, 0, n, null);
        assertThat(back).isEqualTo(sample);
        return HexFormat.of().formatHex(buffer.toArray(ValueLayout.JAVA_BYTE));
    }

    private static String hex(final String type, final DataRepresentation rep, final Object... fields)
    {
        return hex(g.codec(type), g.sample(type, fields), rep);
    }

    private static String clean(final String spaced)
    {
        return spaced.replace(" ", "");
    }

    @Test
    void primitivesAlignTo8InXcdr1And4InXcdr2()
    {
        // XTypes 1.3 §7.4.1 (PLAIN_CDR: each primitive aligned to its size) and §7.4.2 (PLAIN_CDR2: INT64 and
        // FLOAT64 aligned to 4); origin right after the encapsulation header (§7.6.3.1.2).
        final Object[] f = {"a", (byte)0x11, "b", 1.0, "c", 'Z', "d", 0x0102030405060708L, "e", (short)0x0a0b};
        assertThat(hex("kat.Prims", DataRepresentation.XCDR2_LE, f)).isEqualTo(clean(
            "00070000 11 000000 000000000000f03f 5a 000000 0807060504030201 0b0a"));
        assertThat(hex("kat.Prims", DataRepresentation.XCDR2_BE, f)).isEqualTo(clean(
            "00060000 11 000000 3ff0000000000000 5a 000000 0102030405060708 0a0b"));
        assertThat(hex("kat.Prims", DataRepresentation.XCDR1_LE, f)).isEqualTo(clean(
            "00010000 11 00000000000000 000000000000f03f 5a 00000000000000 0807060504030201 0b0a"));
        assertThat(hex("kat.Prims", DataRepresentation.XCDR1_BE, f)).isEqualTo(clean(
            "00000000 11 00000000000000 3ff0000000000000 5a 00000000000000 0102030405060708 0a0b"));
    }

    @Test
    void stringsCarryLengthWithNulAndWstringsByteLengthWithoutNul()
    {
        // XTypes 1.3 §7.4.3.5.1 (String8: uint32 length including the NUL, then the bytes and NUL) and String16
        // in XCDR2 (uint32 byte length, UTF-16 code units, no terminator).
        assertThat(hex("kat.Str", DataRepresentation.XCDR2_LE, "s", "Hi")).isEqualTo("00070000" + "03000000486900");
        assertThat(hex("kat.Str", DataRepresentation.XCDR2_BE, "s", "")).isEqualTo("00060000" + "0000000100");
        assertThat(hex("kat.WStr", DataRepresentation.XCDR2_LE, "w", "Hi")).isEqualTo("00070000" + "0400000048006900");
        assertThat(hex("kat.Str", DataRepresentation.XCDR2_LE, "s", "\u00e9")).isEqualTo("00070000" + "03000000c3a900");
    }

    @Test
    void sequencesOfPrimitivesHaveNoDheaderOthersDoInXcdr2()
    {
        // XTypes 1.3 §7.4.3.5.3: a sequence is a uint32 length then the elements; in XCDR2 a sequence whose elements
        // are not primitive is preceded by a DHEADER (§7.4.2).
        assertThat(hex("kat.ShortSeq", DataRepresentation.XCDR2_LE, "v", new short[] {1, 2, 3}))
            .isEqualTo(clean("00070000 03000000 0100 0200 0300"));
        final Object names = new java.util.ArrayList<>(List.of("a", "bc"));
        assertThat(hex("kat.StringSeq", DataRepresentation.XCDR2_LE, "v", names))
            .isEqualTo(clean("00070000 13000000 02000000 02000000 6100 0000 03000000 626300"));
        assertThat(hex("kat.StringSeq", DataRepresentation.XCDR1_LE, "v", names))
            .isEqualTo(clean("00010000 02000000 02000000 6100 0000 03000000 626300"));
    }

    @Test
    void arraysHaveNoLengthAndNonPrimitiveArraysADheader()
    {
        // XTypes 1.3 §7.4.3.5.3: arrays serialize their elements only, multi-dimensional arrays in row-major order;
        // XCDR2 adds a DHEADER for non-primitive elements (§7.4.2).
        assertThat(hex("kat.Grid", DataRepresentation.XCDR2_LE, "g", new int[][] {{1, 2}, {3, 4}}))
            .isEqualTo(clean("00070000 01000000 02000000 03000000 04000000"));
        assertThat(hex("kat.StringArray", DataRepresentation.XCDR2_LE, "s", new String[] {"x", "y"}))
            .isEqualTo(clean("00070000 0e000000 02000000 7800 0000 02000000 7900"));
    }

    @Test
    void nestedFinalStructsAreInlined()
    {
        // XTypes 1.3 §7.4.2 (PLAIN_CDR2 for FINAL): a nested final struct is its members in place, aligned from the
        // common origin.
        final Object inner = g.sample("kat.Inner", "a", (short)2);
        assertThat(hex("kat.Outer", DataRepresentation.XCDR2_LE, "x", (byte)1, "inner", inner, "y", 3))
            .isEqualTo(clean("00070000 01 00 0200 03000000"));
    }

    @Test
    void optionalMembersUseAFlagInXcdr2AndAParameterHeaderInXcdr1()
    {
        // XTypes 1.3 §7.4.3.5.4 (XCDR2 optional: boolean presence flag, then the value when present) and §7.4.1.1
        // (XCDR1 optional: parameter header with member id and length, length 0 when absent).
        assertThat(hex("kat.Opt", DataRepresentation.XCDR2_LE, "a", 5, "b", null))
            .isEqualTo(clean("00070000 01 000000 05000000 00"));
        assertThat(hex("kat.Opt", DataRepresentation.XCDR1_LE, "a", 5, "b", null))
            .isEqualTo(clean("00010000 0000 0400 05000000 0100 0000"));
    }

    @Test
    void appendableStructsStartWithADheaderInXcdr2Only()
    {
        // XTypes 1.3 §7.4.2 (DELIMITED_CDR: uint32 DHEADER with the byte size of what follows) and §7.4.1 (XCDR1
        // writes APPENDABLE as PLAIN_CDR); encapsulation D_CDR2_LE = 0x0009 (§7.6.3.1.2).
        assertThat(hex("kat.App", DataRepresentation.XCDR2_LE, "x", 1, "y", (byte)2))
            .isEqualTo(clean("00090000 05000000 01000000 02"));
        assertThat(hex("kat.App", DataRepresentation.XCDR1_LE, "x", 1, "y", (byte)2))
            .isEqualTo(clean("00010000 01000000 02"));
    }

    @Test
    void mutableStructsUseEmheadersInXcdr2AndParameterListsInXcdr1()
    {
        // XTypes 1.3 §7.4.2 (PL_CDR2: DHEADER, then per member an EMHEADER1) and §7.4.3.4.2 (EMHEADER1: M flag in
        // bit 31, length code in bits 28-30, member id in bits 0-27; LC 2 = 4 bytes, LC 0 = 1 byte, LC 4 = size in
        // NEXTINT). XCDR1: §7.4.1.2 PL_CDR, 16-bit PID (0x4000 must-understand) and length, PID_LIST_END 0x3f02.
        final Object[] f = {"x", 7, "s", "ab", "k", (byte)9};
        assertThat(hex("kat.Mut", DataRepresentation.XCDR2_LE, f)).isEqualTo(clean(
            "000b0000 1d000000 01000020 07000000 02000040 07000000 03000000 616200 00 03000080 09"));
        assertThat(hex("kat.Mut", DataRepresentation.XCDR1_LE, f)).isEqualTo(clean(
            "00030000 0100 0400 07000000 0200 0700 03000000 616200 00 0340 0100 09 000000 023f 0000"));
        assertThat(hex("kat.Mut", DataRepresentation.XCDR2_BE, f)).isEqualTo(clean(
            "000a0000 0000001d 20000001 00000007 40000002 00000007 00000003 616200 00 80000003 09"));
    }

    @Test
    void unionsWriteDiscriminatorThenSelectedBranch()
    {
        // XTypes 1.3 §7.4.3.5.6: discriminator, then the member its value selects (the default branch for values no
        // label names); an APPENDABLE union gets a DHEADER in XCDR2 (§7.4.2).
        final Object u = g.sample("kat.U");
        invoke(u, "b", "z");
        assertThat(hex("kat.WithUnion", DataRepresentation.XCDR2_LE, "u", u))
            .isEqualTo(clean("00070000 02000000 02000000 7a00"));
        final Object d = g.sample("kat.U");
        invoke(d, "c", (byte)0x44);
        assertThat(hex("kat.WithUnion", DataRepresentation.XCDR2_LE, "u", d))
            .isEqualTo(clean("00070000 00000000 44"));
        final Object au = g.sample("kat.AU");
        invoke(au, "s", (short)0x0102);
        assertThat(hex("kat.WithAU", DataRepresentation.XCDR2_LE, "u", au))
            .isEqualTo(clean("00070000 04000000 01 00 0201"));
    }

    @Test
    void enumsUseTheirBitBound()
    {
        // XTypes 1.3 §7.4.3.5.1 / §7.3.1.2.1.12: an enum is serialized as a signed integer of the size its
        // @bit_bound implies (32 bits by default, 8 bits for @bit_bound(8)).
        final Class<?> e = g.type("kat.E");
        final Class<?> e8 = g.type("kat.E8");
        assertThat(hex("kat.WithEnums", DataRepresentation.XCDR2_LE, "e", e.getEnumConstants()[2], "small",
            e8.getEnumConstants()[1])).isEqualTo(clean("00070000 07000000 01"));
    }

    @Test
    void boundsAreCheckedOnSerializeNamingTheMember()
    {
        final TypeCodec<Object> codec = g.codec("kat.Bounded");
        final MemorySegment buffer = MemorySegment.ofArray(new byte[64]);
        final Object longName = g.sample("kat.Bounded", "name", "abcde");
        assertThatThrownBy(() -> codec.serialize(longName, buffer, 0, DataRepresentation.XCDR2_LE))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Bounded.name")
            .hasMessageContaining("bound 4");
        final Object longSeq = g.sample("kat.Bounded", "values", new int[] {1, 2, 3});
        assertThatThrownBy(() -> codec.serialize(longSeq, buffer, 0, DataRepresentation.XCDR2_LE))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Bounded.values")
            .hasMessageContaining("bound 2");
    }

    private static byte[] keyHash(final String type, final Object... fields)
    {
        final byte[] out = new byte[16];
        g.codec(type).keyHash(g.sample(type, fields), out);
        return out;
    }

    private static byte[] md5(final String hex) throws Exception
    {
        return MessageDigest.getInstance("MD5").digest(HexFormat.of().parseHex(clean(hex)));
    }

    @Test
    void keyHashIsThePaddedBigEndianKeyWhenItFitsIn16Bytes()
    {
        // XTypes 1.3 §7.6.8: key members serialized PLAIN_CDR2 big-endian; zero-padded to 16 bytes when the key
        // holder's maximum size is at most 16.
        assertThat(HexFormat.of().formatHex(keyHash("kat.Key4", "id", 0x01020304, "s", "ignored")))
            .isEqualTo("01020304000000000000000000000000");
        assertThat(HexFormat.of().formatHex(keyHash("kat.Exact16", "a", 1L, "b", 2L)))
            .isEqualTo("00000000000000010000000000000002");
        // Nested key members: an unkeyed struct contributes all members, a keyed one only its keys (§7.6.8).
        final Object id = g.sample("kat.Id", "hi", 0x11111111, "lo", 0x22222222);
        final Object u = g.sample("kat.Unkeyed", "a", (short)0x3333, "b", (byte)0x44);
        final Object k = g.sample("kat.Keyed", "k", 0x55555555, "notKey", 9.5);
        assertThat(HexFormat.of().formatHex(keyHash("kat.StructKey", "id", id, "u", u, "k", k, "data", 1)))
            .isEqualTo("11111111222222223333440055555555");
        // Members in member-id order, not declaration order.
        assertThat(HexFormat.of().formatHex(keyHash("kat.IdOrder", "data", 9, "second", 2, "first", 1)))
            .isEqualTo("00000001000000020000000000000000");
    }

    @Test
    void keyHashIsTheMd5WhenTheKeyCanExceed16Bytes() throws Exception
    {
        // XTypes 1.3 §7.6.8: MD5 of the big-endian key holder when its maximum size exceeds 16 bytes, even when
        // this sample's key is short.
        assertThat(keyHash("kat.KeyString", "name", "ab")).isEqualTo(md5("00000003 616200"));
        assertThat(keyHash("kat.Over16", "a", 1L, "b", 2L, "c", (byte)3))
            .isEqualTo(md5("0000000000000001 0000000000000002 03"));
        assertThat(keyHash("kat.Key4", "id", 7, "s", "a")).isEqualTo(keyHash("kat.Key4", "id", 7, "s", "b"));
    }

    @Test
    void typeSupportReportsKeysSizesAndRepresentation()
    {
        assertThat(g.codec("kat.Key4").isKeyed()).isTrue();
        assertThat(g.codec("kat.Str").isKeyed()).isFalse();
        assertThat(g.codec("kat.Prims").isFixedSize()).isTrue();
        assertThat(g.codec("kat.Str").maxSerializedSize()).isEqualTo(-1);
        assertThat(g.codec("kat.Prims").maxSerializedSize()).isEqualTo(4 + 34);
        assertThat(g.codec("kat.App").defaultRepresentation()).isEqualTo(DataRepresentation.D_XCDR2_LE);
        assertThat(g.codec("kat.Mut").defaultRepresentation()).isEqualTo(DataRepresentation.PL_XCDR2_LE);
        assertThat(g.codec("kat.Mut").typeName()).isEqualTo("kat::Mut");
        final Object sample = g.sample("kat.Key4", "id", 3, "s", "x");
        final Object holder = g.codec("kat.Key4").newSample();
        g.codec("kat.Key4").copyKey(sample, holder);
        assertThat(Generated.get(holder, "id")).isEqualTo(3);
        assertThat(Generated.get(holder, "s")).isEqualTo("");
    }

    private static void invoke(final Object target, final String method, final Object arg)
    {
        try
        {
            for (final var m : target.getClass().getMethods())
            {
                if (m.getName().equals(method) && m.getParameterCount() == 1)
                {
                    m.invoke(target, arg);
                    return;
                }
            }
            throw new AssertionError("no method " + method);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static Object reinterpret(final String fromType, final Object sample, final String toType,
        final DataRepresentation rep)
    {
        final TypeCodec<Object> from = g.codec(fromType);
        final MemorySegment buffer = MemorySegment.ofArray(new byte[(int)from.serializedSize(sample, rep)]);
        final long n = from.serialize(sample, buffer, 0, rep);
        return g.codec(toType).deserialize(buffer, 0, n, null);
    }

    @Test
    void appendableAndMutableTypesEvolve()
    {
        // XTypes 1.3 §7.4.2 / §7.6.2 (assignability): an appendable reader defaults members a shorter writer lacks
        // and skips trailing ones it does not know (the DHEADER gives the end); a mutable reader skips unknown
        // members but rejects an unknown must-understand (key) member.
        final Object v1 = g.sample("kat.AppV1", "x", 5);
        final Object asV2 = reinterpret("kat.AppV1", v1, "kat.App", DataRepresentation.XCDR2_LE);
        assertThat(Generated.get(asV2, "x")).isEqualTo(5);
        assertThat(Generated.get(asV2, "y")).isEqualTo((byte)0);
        final Object v2 = g.sample("kat.App", "x", 6, "y", (byte)7);
        assertThat(Generated.get(reinterpret("kat.App", v2, "kat.AppV1", DataRepresentation.XCDR2_BE), "x"))
            .isEqualTo(6);

        final Object m2 = g.sample("kat.MutV2", "x", 8, "s", "skipped");
        for (final DataRepresentation rep : List.of(DataRepresentation.XCDR2_LE, DataRepresentation.XCDR1_BE))
        {
            assertThat(Generated.get(reinterpret("kat.MutV2", m2, "kat.MutV1", rep), "x")).isEqualTo(8);
            final Object m1 = reinterpret("kat.MutV1", g.sample("kat.MutV1", "x", 9), "kat.MutV2", rep);
            assertThat(Generated.get(m1, "x")).isEqualTo(9);
            assertThat(Generated.get(m1, "s")).isEqualTo("");
        }
        final Object withKey = g.sample("kat.Mut", "x", 1, "s", "a", "k", (byte)2);
        assertThatThrownBy(() -> reinterpret("kat.Mut", withKey, "kat.MutV1", DataRepresentation.XCDR2_LE))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must-understand member id 3");
    }
}
