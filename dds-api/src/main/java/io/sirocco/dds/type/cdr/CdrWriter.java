package io.sirocco.dds.type.cdr;

import static io.sirocco.dds.type.cdr.CdrLayouts.CHAR_BE;
import static io.sirocco.dds.type.cdr.CdrLayouts.CHAR_LE;
import static io.sirocco.dds.type.cdr.CdrLayouts.DOUBLE_BE;
import static io.sirocco.dds.type.cdr.CdrLayouts.DOUBLE_LE;
import static io.sirocco.dds.type.cdr.CdrLayouts.FLOAT_BE;
import static io.sirocco.dds.type.cdr.CdrLayouts.FLOAT_LE;
import static io.sirocco.dds.type.cdr.CdrLayouts.INT_BE;
import static io.sirocco.dds.type.cdr.CdrLayouts.INT_LE;
import static io.sirocco.dds.type.cdr.CdrLayouts.LONG_BE;
import static io.sirocco.dds.type.cdr.CdrLayouts.LONG_LE;
import static io.sirocco.dds.type.cdr.CdrLayouts.SHORT_BE;
import static io.sirocco.dds.type.cdr.CdrLayouts.SHORT_LE;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Writes CDR (XCDR1 or XCDR2, either byte order) into a {@link MemorySegment}, or only measures when reset with
 * {@link #resetMeasure}. Alignment is taken relative to the origin (the first byte after the encapsulation header,
 * XTypes 1.3 §7.4.1.1.1 and §7.4.3.1): XCDR1 aligns each primitive to its size, XCDR2 caps the alignment at 4.
 * Padding bytes are written as zero so that equal samples serialize to equal bytes.
 *
 * <p>Not thread-safe: one writer per thread. {@link #local()} hands out a per-thread instance so that generated
 * codecs allocate nothing per sample.
 *
 * Size: one cohesive hot-path codec. Every public method is called per sample by generated codecs; the byte
 * layouts and UTF-8 are in CdrLayouts and Utf8, and what remains is one writer per CDR primitive and header.
 */
public final class CdrWriter
{

    private static final ThreadLocal<CdrWriter> LOCAL = ThreadLocal.withInitial(CdrWriter::new);
    private static final ThreadLocal<CdrWriter> LOCAL_KEY = ThreadLocal.withInitial(CdrWriter::new);

    private MemorySegment segment;
    private long origin;
    private long position;
    private boolean bigEndian;
    private int xcdrVersion = 2;
    private int maxAlign = 4;
    private boolean measuring;

    /** This thread's writer for sample serialization. */
    public static CdrWriter local()
    {
        return LOCAL.get();
    }

    /** This thread's writer for key-hash computation, separate so a key hash may be taken while serializing. */
    public static CdrWriter localForKey()
    {
        return LOCAL_KEY.get();
    }

    /**
     * Starts writing at {@code origin} in {@code segment}; alignment is relative to {@code origin}.
     */
    public CdrWriter reset(final MemorySegment segment, final long origin, final boolean bigEndian, final int xcdrVersion)
    {
        this.segment = segment;
        this.origin = origin;
        this.position = origin;
        this.bigEndian = bigEndian;
        this.xcdrVersion = xcdrVersion;
        this.maxAlign = xcdrVersion == 1 ? 8 : 4;
        this.measuring = false;
        return this;
    }

    /** Starts a measuring pass: nothing is written, positions advance as if it were. */
    public CdrWriter resetMeasure(final int xcdrVersion)
    {
        this.segment = null;
        this.origin = 0;
        this.position = 0;
        this.bigEndian = false;
        this.xcdrVersion = xcdrVersion;
        this.maxAlign = xcdrVersion == 1 ? 8 : 4;
        this.measuring = true;
        return this;
    }

    public int xcdrVersion()
    {
        return xcdrVersion;
    }

    public boolean bigEndian()
    {
        return bigEndian;
    }

    /** Absolute position in the segment (or bytes counted since the origin when measuring). */
    public long position()
    {
        return position;
    }

    /** Bytes written since the origin. */
    public long length()
    {
        return position - origin;
    }

    /** Pads with zeros to the given alignment, capped at 8 for XCDR1 and 4 for XCDR2. */
    public void align(final int alignment)
    {
        final int a = Math.min(alignment, maxAlign);
        final int pad = (int)(-(position - origin) & (a - 1));
        if (pad != 0)
        {
            if (!measuring)
            {
                for (int i = 0; i < pad; i++)
                {
                    segment.set(ValueLayout.JAVA_BYTE, position + i, (byte)0);
                }
            }
            position += pad;
        }
    }

    public void writeInt8(final byte value)
    {
        if (!measuring)
        {
            segment.set(ValueLayout.JAVA_BYTE, position, value);
        }
        position++;
    }

    public void writeBoolean(final boolean value)
    {
        writeInt8(value ? (byte)1 : (byte)0);
    }

    /** IDL {@code char}: one byte (ISO-8859-1); characters above 0xff are a caller error. */
    public void writeChar8(final char value, final String member)
    {
        if (value > 0xff)
        {
            throw new IllegalArgumentException(member + ": char value 0x" + Integer.toHexString(value)
                + " does not fit an IDL char");
        }
        writeInt8((byte)value);
    }

    /** IDL {@code wchar}: two bytes, UTF-16 (XTypes 1.3 §7.4.3.5.1 Char16). */
    public void writeChar16(final char value)
    {
        align(2);
        if (!measuring)
        {
            if (bigEndian)
            {
                segment.set(CHAR_BE, position, value);
            }
            else
            {
                segment.set(CHAR_LE, position, value);
            }
        }
        position += 2;
    }

    public void writeInt16(final short value)
    {
        align(2);
        if (!measuring)
        {
            if (bigEndian)
            {
                segment.set(SHORT_BE, position, value);
            }
            else
            {
                segment.set(SHORT_LE, position, value);
            }
        }
        position += 2;
    }

    public void writeInt32(final int value)
    {
        align(4);
        if (!measuring)
        {
            if (bigEndian)
            {
                segment.set(INT_BE, position, value);
            }
            else
            {
                segment.set(INT_LE, position, value);
            }
        }
        position += 4;
    }

    public void writeInt64(final long value)
    {
        align(8);
        if (!measuring)
        {
            if (bigEndian)
            {
                segment.set(LONG_BE, position, value);
            }
            else
            {
                segment.set(LONG_LE, position, value);
            }
        }
        position += 8;
    }

    public void writeFloat32(final float value)
    {
        align(4);
        if (!measuring)
        {
            if (bigEndian)
            {
                segment.set(FLOAT_BE, position, value);
            }
            else
            {
                segment.set(FLOAT_LE, position, value);
            }
        }
        position += 4;
    }

    public void writeFloat64(final double value)
    {
        align(8);
        if (!measuring)
        {
            if (bigEndian)
            {
                segment.set(DOUBLE_BE, position, value);
            }
            else
            {
                segment.set(DOUBLE_LE, position, value);
            }
        }
        position += 8;
    }

    /** Writes an int32 at an earlier, already aligned position (used to patch lengths). */
    private void putInt32At(final long at, final int value)
    {
        if (!measuring)
        {
            if (bigEndian)
            {
                segment.set(INT_BE, at, value);
            }
            else
            {
                segment.set(INT_LE, at, value);
            }
        }
    }

    private void putInt16At(final long at, final short value)
    {
        if (!measuring)
        {
            if (bigEndian)
            {
                segment.set(SHORT_BE, at, value);
            }
            else
            {
                segment.set(SHORT_LE, at, value);
            }
        }
    }

    /**
     * IDL {@code string}: uint32 length including the terminating NUL, the UTF-8 bytes, then NUL (XTypes 1.3
     * §7.4.3.5.1 and §7.4.1.1.5). Encodes without allocating.
     *
     * @param bound the maximum number of bytes (without NUL), or 0 when unbounded.
     */
    public void writeString(final String value, final long bound, final String member)
    {
        if (value == null)
        {
            throw new IllegalArgumentException(member + ": string is null");
        }
        final int utf8Length = utf8Length(value);
        if (bound > 0 && utf8Length > bound)
        {
            throw new IllegalArgumentException(member + ": string of " + utf8Length + " bytes exceeds bound " + bound);
        }
        writeInt32(utf8Length + 1);
        if (!measuring)
        {
            segment.set(ValueLayout.JAVA_BYTE, Utf8.encode(value, segment, position), (byte)0);
        }
        position += utf8Length + 1;
    }

    /** The number of UTF-8 bytes {@link #writeString} writes for the string, without the NUL. */
    public static int utf8Length(final String value)
    {
        return Utf8.length(value);
    }

    /**
     * IDL {@code wstring}: uint32 length in bytes, then UTF-16 code units with no terminator (XTypes 1.3
     * §7.4.3.5.1, String16). Sirocco uses the same form under XCDR1.
     *
     * @param bound the maximum number of characters, or 0 when unbounded.
     */
    public void writeWString(final String value, final long bound, final String member)
    {
        if (value == null)
        {
            throw new IllegalArgumentException(member + ": wstring is null");
        }
        final int n = value.length();
        if (bound > 0 && n > bound)
        {
            throw new IllegalArgumentException(member + ": wstring of " + n + " characters exceeds bound " + bound);
        }
        writeInt32(n * 2);
        if (!measuring)
        {
            final ValueLayout.OfChar layout = bigEndian ? CHAR_BE : CHAR_LE;
            for (int i = 0; i < n; i++)
            {
                segment.set(layout, position + 2L * i, value.charAt(i));
            }
        }
        position += 2L * n;
    }

    /** Checks a sequence length against its bound and writes it as uint32. */
    public void writeSequenceLength(final int length, final long bound, final String member)
    {
        checkSequenceBound(length, bound, member);
        writeInt32(length);
    }

    public static void checkSequenceBound(final int length, final long bound, final String member)
    {
        if (bound > 0 && length > bound)
        {
            throw new IllegalArgumentException(member + ": sequence of " + length + " elements exceeds bound " + bound);
        }
    }

    /** Checks that an array member has exactly the declared number of elements. */
    public static void checkArrayLength(final int length, final int expected, final String member)
    {
        if (length != expected)
        {
            throw new IllegalArgumentException(member + ": array has " + length + " elements, IDL declares " + expected);
        }
    }

    public static <T> T checkNotNull(final T value, final String member)
    {
        if (value == null)
        {
            throw new IllegalArgumentException(member + ": is null and not @optional");
        }
        return value;
    }

    public static void checkSequenceBound(final List<?> list, final long bound, final String member)
    {
        checkNotNull(list, member);
        checkSequenceBound(list.size(), bound, member);
    }

    /** Bulk primitive runs, elements only (no length): arrays, and the body of primitive sequences. */
    public void writeInt8s(final byte[] values, final int count)
    {
        if (!measuring && count > 0)
        {
            MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_BYTE, position, count);
        }
        position += count;
    }

    public void writeBooleans(final boolean[] values, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            writeBoolean(values[i]);
        }
    }

    public void writeInt16s(final short[] values, final int count)
    {
        writeArray(values, count, 2, bigEndian ? SHORT_BE : SHORT_LE);
    }

    public void writeChar16s(final char[] values, final int count)
    {
        writeArray(values, count, 2, bigEndian ? CHAR_BE : CHAR_LE);
    }

    public void writeChar8s(final char[] values, final int count, final String member)
    {
        for (int i = 0; i < count; i++)
        {
            writeChar8(values[i], member);
        }
    }

    public void writeInt32s(final int[] values, final int count)
    {
        writeArray(values, count, 4, bigEndian ? INT_BE : INT_LE);
    }

    public void writeInt64s(final long[] values, final int count)
    {
        writeArray(values, count, 8, bigEndian ? LONG_BE : LONG_LE);
    }

    public void writeFloat32s(final float[] values, final int count)
    {
        writeArray(values, count, 4, bigEndian ? FLOAT_BE : FLOAT_LE);
    }

    public void writeFloat64s(final double[] values, final int count)
    {
        writeArray(values, count, 8, bigEndian ? DOUBLE_BE : DOUBLE_LE);
    }

    /**
     * The bulk copy behind {@code writeInt16s} to {@code writeFloat64s}: align to the element size, then copy the
     * primitive array {@code values} (only advance when measuring). {@link MemorySegment#copy} takes the array as an
     * {@code Object}, so nothing is boxed, and each caller passes its constant element size and layout.
     */
    private void writeArray(final Object values, final int count, final int elementBytes, final ValueLayout layout)
    {
        if (count == 0)
        {
            return;
        }
        align(elementBytes);
        if (!measuring)
        {
            MemorySegment.copy(values, 0, segment, layout, position, count);
        }
        position += (long)elementBytes * count;
    }

    /**
     * Reserves a DHEADER (XTypes 1.3 §7.4.3.5.2 and §7.4.3.5.4): a uint32 that will hold the number of bytes that
     * follow it. Pass the result to {@link #endDHeader}.
     */
    public long beginDHeader()
    {
        align(4);
        final long mark = position;
        position += 4;
        return mark;
    }

    public void endDHeader(final long mark)
    {
        putInt32At(mark, (int)(position - mark - 4));
    }

    /** EMHEADER1 with a length code 0..3 (XTypes 1.3 §7.4.3.4.2): the member's size follows from the code. */
    public void writeEmHeader(final int memberId, final boolean mustUnderstand, final int lengthCode)
    {
        writeInt32((mustUnderstand ? Xcdr.EMHEADER_MUST_UNDERSTAND : 0) | (lengthCode << 28)
            | (memberId & Xcdr.EMHEADER_ID_MASK));
    }

    /** EMHEADER1 with LC=4 and a NEXTINT to be patched by {@link #endEmHeaderNextInt}. */
    public long beginEmHeaderNextInt(final int memberId, final boolean mustUnderstand)
    {
        writeEmHeader(memberId, mustUnderstand, Xcdr.LC_NEXTINT);
        final long mark = position;
        position += 4;
        return mark;
    }

    public void endEmHeaderNextInt(final long mark)
    {
        putInt32At(mark, (int)(position - mark - 4));
    }

    /**
     * XCDR1 parameter header (XTypes 1.3 §7.4.1.2.1): 4-aligned, 16-bit id with flags and 16-bit length patched by
     * {@link #endParameter}; ids of 0x3f00 and above take the extended form (PID_EXTENDED, length 8, uint32 id,
     * uint32 length).
     *
     * @return a mark encoding where the length goes and which form was used.
     */
    public long beginParameter(final int memberId, final boolean mustUnderstand)
    {
        align(4);
        if (memberId < 0x3f00)
        {
            writeInt16((short)((mustUnderstand ? Xcdr.PID_MUST_UNDERSTAND : 0) | memberId));
            final long mark = position;
            position += 2;
            return mark;
        }
        writeInt16((short)(Xcdr.PID_EXTENDED | Xcdr.PID_MUST_UNDERSTAND));
        writeInt16((short)8);
        writeInt32((mustUnderstand ? Xcdr.EMHEADER_MUST_UNDERSTAND : 0) | memberId);
        final long mark = position;
        position += 4;
        return -mark - 1;
    }

    public void endParameter(final long mark, final String member)
    {
        if (mark >= 0)
        {
            final long length = position - mark - 2;
            if (length > 0xffff)
            {
                throw new IllegalArgumentException(member + ": " + length
                    + " bytes do not fit an XCDR1 parameter; use XCDR2");
            }
            putInt16At(mark, (short)length);
        }
        else
        {
            final long at = -mark - 1;
            putInt32At(at, (int)(position - at - 4));
        }
    }

    /** XCDR1 parameter-list end: PID_LIST_END with length 0. */
    public void writeParameterListEnd()
    {
        align(4);
        writeInt16((short)Xcdr.PID_LIST_END);
        writeInt16((short)0);
    }
}
