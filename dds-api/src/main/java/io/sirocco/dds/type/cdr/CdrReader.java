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
import java.nio.charset.StandardCharsets;

/**
 * Reads CDR (XCDR1 or XCDR2, either byte order) from a {@link MemorySegment}, with the same alignment rules as
 * {@link CdrWriter}. Every read is bounds-checked against the limit given at {@link #reset}; a read past it, a
 * length that cannot fit, or a malformed header throws {@link CdrFormatException} naming the offset, so bad input
 * from the network never escapes as anything else.
 *
 * <p>Not thread-safe: one reader per thread; {@link #local()} hands out a per-thread instance.
 */
public final class CdrReader
{

    private static final ThreadLocal<CdrReader> LOCAL = ThreadLocal.withInitial(CdrReader::new);

    private MemorySegment segment;
    private long origin;
    private long position;
    private long limit;
    private boolean bigEndian;
    private int xcdrVersion = 2;
    private int maxAlign = 4;
    private byte[] scratch = new byte[64];

    public static CdrReader local()
    {
        return LOCAL.get();
    }

    /** Reads from {@code origin} (the alignment origin) up to, not including, {@code limit}. */
    public CdrReader reset(
        final MemorySegment segment, final long origin, final long limit, final boolean bigEndian, final int xcdrVersion)
    {
        if (limit > segment.byteSize() || origin > limit)
        {
            throw new CdrFormatException(0, "length runs past the end of the segment");
        }
        this.segment = segment;
        this.origin = origin;
        this.position = origin;
        this.limit = limit;
        this.bigEndian = bigEndian;
        this.xcdrVersion = xcdrVersion;
        this.maxAlign = xcdrVersion == 1 ? 8 : 4;
        return this;
    }

    public int xcdrVersion()
    {
        return xcdrVersion;
    }

    public long position()
    {
        return position;
    }

    public long limit()
    {
        return limit;
    }

    /** Moves to an absolute position inside [origin, limit]: used to skip the rest of a delimited member. */
    public void position(final long newPosition)
    {
        if (newPosition < origin || newPosition > limit)
        {
            throw fail("member end " + (newPosition - origin) + " outside the sample");
        }
        position = newPosition;
    }

    public CdrFormatException fail(final String reason)
    {
        return new CdrFormatException(position - origin, reason);
    }

    private void need(final long n)
    {
        if (n < 0 || position + n > limit)
        {
            throw fail("needs " + n + " bytes, " + (limit - position) + " left");
        }
    }

    public void align(final int alignment)
    {
        final int a = Math.min(alignment, maxAlign);
        final int pad = (int)(-(position - origin) & (a - 1));
        need(pad);
        position += pad;
    }

    public byte readInt8()
    {
        need(1);
        return segment.get(ValueLayout.JAVA_BYTE, position++);
    }

    public boolean readBoolean()
    {
        final byte b = readInt8();
        if (b != 0 && b != 1)
        {
            throw new CdrFormatException(position - 1 - origin, "boolean byte " + b + " is neither 0 nor 1");
        }
        return b == 1;
    }

    public char readChar8()
    {
        return (char)(readInt8() & 0xff);
    }

    public char readChar16()
    {
        align(2);
        need(2);
        final char v = bigEndian ? segment.get(CHAR_BE, position) : segment.get(CHAR_LE, position);
        position += 2;
        return v;
    }

    public short readInt16()
    {
        align(2);
        need(2);
        final short v = bigEndian ? segment.get(SHORT_BE, position) : segment.get(SHORT_LE, position);
        position += 2;
        return v;
    }

    public int readInt32()
    {
        align(4);
        need(4);
        final int v = bigEndian ? segment.get(INT_BE, position) : segment.get(INT_LE, position);
        position += 4;
        return v;
    }

    public long readInt64()
    {
        align(8);
        need(8);
        final long v = bigEndian ? segment.get(LONG_BE, position) : segment.get(LONG_LE, position);
        position += 8;
        return v;
    }

    public float readFloat32()
    {
        align(4);
        need(4);
        final float v = bigEndian ? segment.get(FLOAT_BE, position) : segment.get(FLOAT_LE, position);
        position += 4;
        return v;
    }

    public double readFloat64()
    {
        align(8);
        need(8);
        final double v = bigEndian ? segment.get(DOUBLE_BE, position) : segment.get(DOUBLE_LE, position);
        position += 8;
        return v;
    }

    /** Reads a string written by {@link CdrWriter#writeString}; {@code bound} 0 means unbounded. */
    public String readString(final long bound)
    {
        final long start = position;
        final int length = readInt32();
        if (length == 0)
        {
            return "";
        }
        if (length < 0)
        {
            throw new CdrFormatException(start - origin, "string length " + (length & 0xffffffffL) + " too large");
        }
        need(length);
        if (segment.get(ValueLayout.JAVA_BYTE, position + length - 1) != 0)
        {
            throw new CdrFormatException(start - origin, "string is not NUL-terminated");
        }
        final int bytes = length - 1;
        if (bound > 0 && bytes > bound)
        {
            throw new CdrFormatException(start - origin, "string of " + bytes + " bytes exceeds bound " + bound);
        }
        if (scratch.length < bytes)
        {
            scratch = new byte[Math.max(bytes, scratch.length * 2)];
        }
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, position, scratch, 0, bytes);
        position += length;
        return new String(scratch, 0, bytes, StandardCharsets.UTF_8);
    }

    /** Reads a wstring written by {@link CdrWriter#writeWString}. */
    public String readWString(final long bound)
    {
        final long start = position;
        final int byteLength = readInt32();
        if (byteLength < 0 || (byteLength & 1) != 0)
        {
            throw new CdrFormatException(start - origin, "wstring byte length " + (byteLength & 0xffffffffL)
                + " is not a whole number of characters");
        }
        final int n = byteLength / 2;
        if (bound > 0 && n > bound)
        {
            throw new CdrFormatException(start - origin, "wstring of " + n + " characters exceeds bound " + bound);
        }
        need(byteLength);
        final char[] chars = new char[n];
        MemorySegment.copy(segment, bigEndian ? CHAR_BE : CHAR_LE, position, chars, 0, n);
        position += byteLength;
        return new String(chars);
    }

    /**
     * Reads a sequence length and checks it against the bound and against the bytes left, given the smallest
     * serialized size of one element, so that a corrupt length cannot make the caller allocate without limit.
     */
    public int readSequenceLength(final long bound, final int minElementSize)
    {
        final long start = position;
        final int length = readInt32();
        if (length < 0)
        {
            throw new CdrFormatException(start - origin, "sequence length " + (length & 0xffffffffL) + " too large");
        }
        if (bound > 0 && length > bound)
        {
            throw new CdrFormatException(start - origin, "sequence of " + length + " elements exceeds bound " + bound);
        }
        if ((long)length * Math.max(0, minElementSize) > limit - position)
        {
            throw new CdrFormatException(start - origin, "sequence of " + length + " elements cannot fit in "
                + (limit - position) + " bytes left");
        }
        return length;
    }

    /** Reads a DHEADER and returns the absolute position where the delimited object ends. */
    public long readDHeader()
    {
        final long start = position;
        final int size = readInt32();
        if (size < 0 || size > limit - position)
        {
            throw new CdrFormatException(start - origin, "DHEADER size " + (size & 0xffffffffL) + " exceeds the "
                + (limit - position) + " bytes left");
        }
        return position + size;
    }

    public void readInt8s(final byte[] out, final int count)
    {
        need(count);
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, position, out, 0, count);
        position += count;
    }

    public void readBooleans(final boolean[] out, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            out[i] = readBoolean();
        }
    }

    public void readChar8s(final char[] out, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            out[i] = readChar8();
        }
    }

    public void readInt16s(final short[] out, final int count)
    {
        readArray(out, count, 2, bigEndian ? SHORT_BE : SHORT_LE);
    }

    public void readChar16s(final char[] out, final int count)
    {
        readArray(out, count, 2, bigEndian ? CHAR_BE : CHAR_LE);
    }

    public void readInt32s(final int[] out, final int count)
    {
        readArray(out, count, 4, bigEndian ? INT_BE : INT_LE);
    }

    public void readInt64s(final long[] out, final int count)
    {
        readArray(out, count, 8, bigEndian ? LONG_BE : LONG_LE);
    }

    public void readFloat32s(final float[] out, final int count)
    {
        readArray(out, count, 4, bigEndian ? FLOAT_BE : FLOAT_LE);
    }

    public void readFloat64s(final double[] out, final int count)
    {
        readArray(out, count, 8, bigEndian ? DOUBLE_BE : DOUBLE_LE);
    }

    /**
     * The bulk copy behind {@code readInt16s} to {@code readFloat64s}: align to the element size, check the bytes are
     * there, copy them into the primitive array {@code out}. {@link MemorySegment#copy} takes the array as an
     * {@code Object}, so nothing is boxed, and each caller passes its constant element size and layout.
     */
    private void readArray(final Object out, final int count, final int elementBytes, final ValueLayout layout)
    {
        if (count == 0)
        {
            return;
        }
        final long bytes = (long)elementBytes * count;
        align(elementBytes);
        need(bytes);
        MemorySegment.copy(segment, layout, position, out, 0, count);
        position += bytes;
    }

    /**
     * Reads an EMHEADER1 (and its NEXTINT when the length code needs one) and returns the header; the member's
     * serialized size is then in {@link #memberSize()} and the member starts at the current position.
     */
    public int readEmHeader()
    {
        final long start = position;
        final int header = readInt32();
        final int lc = (header >>> 28) & 0x7;
        switch (lc)
        {
            case 0 -> memberSize = 1;
            case 1 -> memberSize = 2;
            case 2 -> memberSize = 4;
            case 3 -> memberSize = 8;
            case 4 ->
            {
                memberSize = readInt32() & 0xffffffffL;
            }
            default ->
            {
                // LC 5..7: the member's own leading uint32 doubles as NEXTINT and stays part of the member.
                align(4);
                need(4);
                final long next = segment.get(bigEndian ? INT_BE : INT_LE, position) & 0xffffffffL;
                memberSize = 4 + (lc == 5 ? next : lc == 6 ? 4 * next : 8 * next);
            }
        }
        if (memberSize > limit - position)
        {
            throw new CdrFormatException(start - origin, "member size " + memberSize + " exceeds the "
                + (limit - position) + " bytes left");
        }
        return header;
    }

    private long memberSize;

    /** Serialized size of the member whose EMHEADER or parameter header was read last. */
    public long memberSize()
    {
        return memberSize;
    }

    /**
     * Reads an XCDR1 parameter header (short or extended form) and returns the member id with the must-understand
     * flag in bit 31, or -1 at PID_LIST_END; the member's size is then in {@link #memberSize()}.
     */
    public int readParameterHeader()
    {
        align(4);
        final long start = position;
        final int pid = readInt16() & 0xffff;
        final int length = readInt16() & 0xffff;
        final int id = pid & Xcdr.PID_ID_MASK;
        if (id == Xcdr.PID_LIST_END)
        {
            return -1;
        }
        final boolean mustUnderstand = (pid & Xcdr.PID_MUST_UNDERSTAND) != 0;
        int result;
        if (id == Xcdr.PID_EXTENDED)
        {
            if (length != 8)
            {
                throw new CdrFormatException(start - origin, "extended parameter header of length " + length);
            }
            final int extendedId = readInt32();
            memberSize = readInt32() & 0xffffffffL;
            result = extendedId & Xcdr.EMHEADER_ID_MASK;
            // The extended header itself carries M; the member's own flag is bit 31 of the extended id.
            if ((extendedId & Xcdr.EMHEADER_MUST_UNDERSTAND) != 0)
            {
                result |= Xcdr.EMHEADER_MUST_UNDERSTAND;
            }
        }
        else
        {
            memberSize = length;
            result = id | (mustUnderstand ? Xcdr.EMHEADER_MUST_UNDERSTAND : 0);
        }
        if (memberSize > limit - position)
        {
            throw new CdrFormatException(start - origin, "parameter size " + memberSize + " exceeds the "
                + (limit - position) + " bytes left");
        }
        return result;
    }

    /** Throws when a must-understand member is not known to this type (XTypes 1.3 §7.4.3.4.2). */
    public void unknownMember(final int header)
    {
        if ((header & Xcdr.EMHEADER_MUST_UNDERSTAND) != 0)
        {
            throw fail("unknown must-understand member id " + (header & Xcdr.EMHEADER_ID_MASK));
        }
    }
}
