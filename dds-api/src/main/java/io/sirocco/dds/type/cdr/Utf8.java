package io.sirocco.dds.type.cdr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * UTF-8 encoding of an IDL {@code string} straight into a segment, without allocating: {@link #length} measures
 * and {@link #encode} writes the same bytes (an unpaired surrogate becomes {@code '?'}). Stateless and thread-safe.
 */
final class Utf8
{
    private Utf8()
    {
    }

    /** The number of UTF-8 bytes {@link #encode} writes for the string. */
    static int length(final String value)
    {
        final int n = value.length();
        int length = 0;
        for (int i = 0; i < n; i++)
        {
            final char c = value.charAt(i);
            if (c < 0x80)
            {
                length++;
            }
            else if (c < 0x800)
            {
                length += 2;
            }
            else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1)))
            {
                length += 4;
                i++;
            }
            else
            {
                length += 3;
            }
        }
        return length;
    }

    /** Writes the string's UTF-8 bytes at {@code at}; returns the position after the last byte. */
    static long encode(final String value, final MemorySegment segment, final long at)
    {
        long p = at;
        final int n = value.length();
        for (int i = 0; i < n; i++)
        {
            final char c = value.charAt(i);
            if (c < 0x80)
            {
                segment.set(ValueLayout.JAVA_BYTE, p++, (byte)c);
            }
            else if (c < 0x800)
            {
                segment.set(ValueLayout.JAVA_BYTE, p++, (byte)(0xc0 | (c >> 6)));
                segment.set(ValueLayout.JAVA_BYTE, p++, (byte)(0x80 | (c & 0x3f)));
            }
            else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1)))
            {
                final int cp = Character.toCodePoint(c, value.charAt(++i));
                segment.set(ValueLayout.JAVA_BYTE, p++, (byte)(0xf0 | (cp >> 18)));
                segment.set(ValueLayout.JAVA_BYTE, p++, (byte)(0x80 | ((cp >> 12) & 0x3f)));
                segment.set(ValueLayout.JAVA_BYTE, p++, (byte)(0x80 | ((cp >> 6) & 0x3f)));
                segment.set(ValueLayout.JAVA_BYTE, p++, (byte)(0x80 | (cp & 0x3f)));
            }
            else
            {
                final char e = Character.isSurrogate(c) ? '?' : c;
                segment.set(ValueLayout.JAVA_BYTE, p++, (byte)(0xe0 | (e >> 12)));
                segment.set(ValueLayout.JAVA_BYTE, p++, (byte)(0x80 | ((e >> 6) & 0x3f)));
                segment.set(ValueLayout.JAVA_BYTE, p++, (byte)(0x80 | (e & 0x3f)));
            }
        }
        return p;
    }
}
