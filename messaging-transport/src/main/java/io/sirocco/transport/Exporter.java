package io.sirocco.transport;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * Writes a message payload straight into off-heap memory (normally the connection's outgoing ring buffer).
 *
 * <p>Values are little-endian. An exporter is lent to {@link Message#exportPayload(Exporter)} for the duration of
 * that call only, on the sending thread; it must not be kept. A payload must write exactly
 * {@link Message#payloadSize()} bytes: writing more fails at the first byte past the reservation, writing fewer is
 * detected after the export. Both turn the reserved frame into padding and throw {@link IllegalStateException}
 * naming the message class; the connection stays usable.
 */
public interface Exporter
{
    void writeByte(byte value);

    void writeShort(short value);

    void writeChar(char value);

    void writeInt(int value);

    void writeLong(long value);

    void writeFloat(float value);

    void writeDouble(double value);

    void writeBytes(byte[] source, int offset, int length);

    void writeSegment(MemorySegment source, long offset, long length);

    default void writeBoolean(final boolean value)
    {
        writeByte(value ? (byte)1 : (byte)0);
    }

    default void writeBytes(final byte[] source)
    {
        writeBytes(source, 0, source.length);
    }

    /** A non-negative int in 1 to 5 bytes (7 bits per byte, high bit = more). See {@link #compactIntSize(int)}. */
    default void writeCompactInt(final int value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("compact ints are non-negative: " + value);
        }
        int v = value;
        while ((v & ~0x7F) != 0)
        {
            writeByte((byte)((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        writeByte((byte)v);
    }

    /** A byte array prefixed with its compact length; size with {@link #byteArraySize(byte[])}. */
    default void writeByteArray(final byte[] value)
    {
        writeCompactInt(value.length);
        writeBytes(value, 0, value.length);
    }

    /** UTF-8 prefixed with its compact byte length; allocates the encoded bytes (not for hot paths). */
    default void writeString(final String value)
    {
        writeByteArray(value.getBytes(StandardCharsets.UTF_8));
    }

    static int compactIntSize(final int value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("compact ints are non-negative: " + value);
        }
        return value < (1 << 7) ? 1 : value < (1 << 14) ? 2 : value < (1 << 21) ? 3 : value < (1 << 28) ? 4 : 5;
    }

    static int byteArraySize(final byte[] value)
    {
        return compactIntSize(value.length) + value.length;
    }

    static int stringSize(final String value)
    {
        final int utf8 = utf8Length(value);
        return compactIntSize(utf8) + utf8;
    }

    private static int utf8Length(final String value)
    {
        int bytes = 0;
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if (c < 0x80)
            {
                bytes += 1;
            }
            else if (c < 0x800)
            {
                bytes += 2;
            }
            else if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1)))
            {
                bytes += 4;
                i++;
            }
            else
            {
                bytes += 3;
            }
        }
        return bytes;
    }
}
