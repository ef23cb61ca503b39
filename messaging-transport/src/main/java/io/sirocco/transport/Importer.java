package io.sirocco.transport;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * Reads a message payload straight from an off-heap receive buffer, the mirror of {@link Exporter}.
 *
 * <p>Lent to {@link Message#importPayload(Importer)} (or a {@link RawMessageHandler}) for that call only, on a
 * handler thread. Reading past the payload throws {@link MalformedPayloadException}; the transport then logs the
 * peer and the message type and closes that connection. A payload that reads fewer bytes than were sent is
 * rejected the same way, so a sender/receiver mismatch never goes unnoticed.
 */
public interface Importer
{
    byte readByte();

    short readShort();

    char readChar();

    int readInt();

    long readLong();

    float readFloat();

    double readDouble();

    void readBytes(byte[] destination, int offset, int length);

    void readSegment(MemorySegment destination, long offset, long length);

    /** Bytes of the payload not read yet. */
    int remaining();

    default boolean readBoolean()
    {
        return readByte() != 0;
    }

    default int readCompactInt()
    {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7)
        {
            final byte b = readByte();
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                if (value < 0)
                {
                    throw MalformedPayloadException.INSTANCE;
                }
                return value;
            }
        }
        throw MalformedPayloadException.INSTANCE;
    }

    default byte[] readByteArray()
    {
        final int length = readCompactInt();
        if (length > remaining())
        {
            throw MalformedPayloadException.INSTANCE;
        }
        final byte[] value = new byte[length];
        readBytes(value, 0, length);
        return value;
    }

    default String readString()
    {
        return new String(readByteArray(), StandardCharsets.UTF_8);
    }
}
