package io.sirocco.dds.type.cdr;

import io.sirocco.dds.type.DataRepresentation;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.security.MessageDigest;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The CDR writer and reader on their own: alignment, strings, headers and the errors bad input raises. */
class CdrRuntimeTest
{
    private static String hex(final MemorySegment s, final long from, final long to)
    {
        return HexFormat.of().formatHex(s.asSlice(from, to - from).toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void alignmentIsRelativeToTheOriginAndCappedByVersion()
    {
        // XTypes 1.3 §7.4.1 (XCDR1: align to size up to 8) and §7.4.2 (XCDR2: up to 4); the origin is the first
        // body byte, not the start of the buffer.
        final MemorySegment s = MemorySegment.ofArray(new byte[32]);
        final CdrWriter w = new CdrWriter().reset(s, 3, false, 1);
        w.writeInt8((byte)1);
        w.writeInt64(2);
        assertThat(w.length()).isEqualTo(16);
        assertThat(hex(s, 3, 19)).isEqualTo("01000000000000000200000000000000");
        final CdrWriter w2 = new CdrWriter().reset(s, 3, true, 2);
        w2.writeInt8((byte)1);
        w2.writeInt64(2);
        assertThat(w2.length()).isEqualTo(12);
        assertThat(hex(s, 3, 15)).isEqualTo("010000000000000000000002");
    }

    @Test
    void measuringGivesTheSameLengthAsWriting()
    {
        final CdrWriter m = new CdrWriter().resetMeasure(2);
        m.writeInt8((byte)1);
        m.writeString("h\u00e9llo \ud83d\ude00", 0, "t.s");
        final long dh = m.beginDHeader();
        m.writeFloat64(1.5);
        m.endDHeader(dh);
        final MemorySegment s = MemorySegment.ofArray(new byte[64]);
        final CdrWriter w = new CdrWriter().reset(s, 0, false, 2);
        w.writeInt8((byte)1);
        w.writeString("h\u00e9llo \ud83d\ude00", 0, "t.s");
        final long dh2 = w.beginDHeader();
        w.writeFloat64(1.5);
        w.endDHeader(dh2);
        assertThat(m.length()).isEqualTo(w.length());
        final CdrReader r = new CdrReader().reset(s, 0, w.position(), false, 2);
        assertThat(r.readInt8()).isEqualTo((byte)1);
        assertThat(r.readString(0)).isEqualTo("h\u00e9llo \ud83d\ude00");
        final long end = r.readDHeader();
        assertThat(end - r.position()).isEqualTo(8);
        assertThat(r.readFloat64()).isEqualTo(1.5);
    }

    @Property(tries = 100)
    void stringsRoundTripAsUtf8(@ForAll @net.jqwik.api.constraints.StringLength(max = 40) final String text)
    {
        final MemorySegment s = MemorySegment.ofArray(new byte[4 + text.length() * 4 + 1]);
        final CdrWriter w = new CdrWriter().reset(s, 0, true, 2);
        w.writeString(text, 0, "p.s");
        assertThat(w.length()).isEqualTo(4 + CdrWriter.utf8Length(text) + 1);
        final String back = new CdrReader().reset(s, 0, w.position(), true, 2).readString(0);
        final boolean wellFormed = text.codePoints().noneMatch(cp -> cp >= 0xd800 && cp <= 0xdfff);
        if (wellFormed)
        {
            assertThat(back).isEqualTo(text);
        }
    }

    @Test
    void readerRejectsImpossibleLengthsWithTheOffset()
    {
        final MemorySegment s = MemorySegment.ofArray(HexFormat.of().parseHex("ffffff7f0000"));
        assertThatThrownBy(() -> new CdrReader().reset(s, 0, 6, false, 2).readSequenceLength(0, 1))
            .isInstanceOf(CdrFormatException.class).hasMessageContaining("body offset 0")
            .hasMessageContaining("cannot fit");
        assertThatThrownBy(() -> new CdrReader().reset(s, 0, 6, false, 2).readString(0))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CdrReader().reset(s, 0, 6, false, 2).readDHeader())
            .isInstanceOf(CdrFormatException.class).hasMessageContaining("DHEADER");
        final MemorySegment notNul = MemorySegment.ofArray(HexFormat.of().parseHex("020000006162"));
        assertThatThrownBy(() -> new CdrReader().reset(notNul, 0, 6, false, 2).readString(0))
            .hasMessageContaining("not NUL-terminated");
        final MemorySegment bool = MemorySegment.ofArray(new byte[] {2});
        assertThatThrownBy(() -> new CdrReader().reset(bool, 0, 1, false, 2).readBoolean())
            .hasMessageContaining("boolean byte 2");
        assertThatThrownBy(() -> new CdrReader().reset(bool, 0, 1, false, 2).readInt32())
            .hasMessageContaining("needs 4 bytes, 1 left");
        assertThatThrownBy(() -> Encapsulation.read(MemorySegment.ofArray(new byte[] {0x12, 0x34, 0, 0}), 0, 4))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0x1234");
    }

    @Test
    void emheaderLengthCodesFiveToSevenReuseTheMembersOwnLength()
    {
        // XTypes 1.3 §7.4.3.4.2: LC 5/6/7 take the member size from the member's own leading uint32
        // (4 + n, 4 + 4n, 4 + 8n bytes) without a separate NEXTINT.
        final MemorySegment s = MemorySegment.ofArray(HexFormat.of().parseHex(
            "01000050" + "03000000616200" + "00" + "02000060" + "02000000" + "0100000002000000" + "03000070"
                + "01000000" + "0100000000000000"));
        final CdrReader r = new CdrReader().reset(s, 0, s.byteSize(), false, 2);
        assertThat(r.readEmHeader() & Xcdr.EMHEADER_ID_MASK).isEqualTo(1);
        assertThat(r.memberSize()).isEqualTo(7);
        assertThat(r.readString(0)).isEqualTo("ab");
        assertThat(r.readEmHeader() & Xcdr.EMHEADER_ID_MASK).isEqualTo(2);
        assertThat(r.memberSize()).isEqualTo(12);
        r.position(r.position() + r.memberSize());
        assertThat(r.readEmHeader() & Xcdr.EMHEADER_ID_MASK).isEqualTo(3);
        assertThat(r.memberSize()).isEqualTo(12);
    }

    @Test
    void parameterListHeadersShortAndExtended()
    {
        // XTypes 1.3 §7.4.1.2: short PID with must-understand flag 0x4000, PID_EXTENDED (0x3f01, written with its
        // must-understand flag, length 8) for large ids, PID_LIST_END (0x3f02) to close.
        final MemorySegment s = MemorySegment.ofArray(new byte[64]);
        final CdrWriter w = new CdrWriter().reset(s, 0, false, 1);
        final long p1 = w.beginParameter(5, true);
        w.writeInt32(9);
        w.endParameter(p1, "t.a");
        final long p2 = w.beginParameter(0x12345, false);
        w.writeInt16((short)7);
        w.endParameter(p2, "t.b");
        w.writeParameterListEnd();
        assertThat(hex(s, 0, w.position())).isEqualTo(
            "05400400" + "09000000" + "017f0800" + "45230100" + "02000000" + "0700" + "0000" + "023f0000");
        final CdrReader r = new CdrReader().reset(s, 0, w.position(), false, 1);
        assertThat(r.readParameterHeader()).isEqualTo(5 | Xcdr.EMHEADER_MUST_UNDERSTAND);
        assertThat(r.memberSize()).isEqualTo(4);
        assertThat(r.readInt32()).isEqualTo(9);
        assertThat(r.readParameterHeader()).isEqualTo(0x12345);
        assertThat(r.memberSize()).isEqualTo(2);
        assertThat(r.readInt16()).isEqualTo((short)7);
        assertThat(r.readParameterHeader()).isEqualTo(-1);
    }

    @Test
    void representationFollowsExtensibility()
    {
        assertThat(Xcdr.representationFor(Xcdr.FINAL, 2, false)).isEqualTo(DataRepresentation.XCDR2_LE);
        assertThat(Xcdr.representationFor(Xcdr.APPENDABLE, 2, true)).isEqualTo(DataRepresentation.D_XCDR2_BE);
        assertThat(Xcdr.representationFor(Xcdr.MUTABLE, 2, false)).isEqualTo(DataRepresentation.PL_XCDR2_LE);
        assertThat(Xcdr.representationFor(Xcdr.APPENDABLE, 1, false)).isEqualTo(DataRepresentation.XCDR1_LE);
        assertThat(Xcdr.representationFor(Xcdr.MUTABLE, 1, true)).isEqualTo(DataRepresentation.PL_XCDR1_BE);
    }

    @Test
    void keyHashPadsShortKeysAndHashesLongOnes() throws Exception
    {
        // XTypes 1.3 §7.6.8.
        final byte[] out = new byte[16];
        KeyHashes.compute(0x0a0b0c0d, 4, (w, v) -> w.writeInt32(v), out);
        assertThat(HexFormat.of().formatHex(out)).isEqualTo("0a0b0c0d000000000000000000000000");
        KeyHashes.compute("abc", -1, (w, v) -> w.writeString(v, 0, "k"), out);
        assertThat(out).isEqualTo(MessageDigest.getInstance("MD5")
            .digest(HexFormat.of().parseHex("0000000461626300")));
    }
}
