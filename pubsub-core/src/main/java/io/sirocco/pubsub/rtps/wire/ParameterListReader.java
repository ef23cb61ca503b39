package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/**
 * A cursor over a ParameterList (DDSI-RTPS 2.5, 9.4.2.11): {@code pid} (uint16), {@code length} (uint16, a multiple
 * of 4), value, ..., ended by PID_SENTINEL. Every step checks bounds, so no input makes it throw. Reusable and
 * allocation-free; confined to one thread (the receive loop).
 */
public final class ParameterListReader
{
    /** {@link #next()} reached the sentinel. */
    public static final int END = -1;
    /** {@link #next()} found the list malformed. */
    public static final int MALFORMED = -2;

    private ByteBuffer buffer;
    private int position;
    private int limit;
    private boolean little;
    private int valueOffset;
    private int valueLength;

    /** Starts a walk over {@code [start, limit)} in the given byte order. */
    public ParameterListReader wrap(final ByteBuffer buffer, final int start, final int limit, final boolean little)
    {
        this.buffer = buffer;
        this.position = start;
        this.limit = limit;
        this.little = little;
        this.valueOffset = start;
        this.valueLength = 0;
        return this;
    }

    /**
     * Advances to the next parameter, skipping PID_PAD. Returns its id (with the must-understand and vendor bits),
     * {@link #END} after the sentinel, or {@link #MALFORMED} when the list runs past its limit or a length is not a
     * multiple of 4.
     */
    public int next()
    {
        while (true)
        {
            if (limit - position < 4)
            {
                return MALFORMED;
            }
            final int pid = WireBytes.uint16(buffer, position, little);
            final int length = WireBytes.uint16(buffer, position + 2, little);
            if (pid == ParameterId.SENTINEL)
            {
                position += 4;
                return END;
            }
            if ((length & 3) != 0 || length > limit - position - 4)
            {
                return MALFORMED;
            }
            valueOffset = position + 4;
            valueLength = length;
            position = valueOffset + length;
            if (pid != ParameterId.PAD)
            {
                return pid;
            }
        }
    }

    public int valueOffset()
    {
        return valueOffset;
    }

    public int valueLength()
    {
        return valueLength;
    }

    /** After {@link #END}: the offset just past the sentinel. */
    public int position()
    {
        return position;
    }

    /** A 32-bit integer at {@code offset}, in the list's byte order. */
    public int int32(final int offset)
    {
        return WireBytes.int32(buffer, offset, little);
    }

    /** A 32-bit integer at {@code offset}, big-endian (octet arrays: GUIDs, EntityIds). */
    public int int32Be(final int offset)
    {
        return WireBytes.int32Be(buffer, offset);
    }

    /** A 64-bit integer at {@code offset}, big-endian (the first 8 octets of a GuidPrefix). */
    public long int64Be(final int offset)
    {
        return WireBytes.int64Be(buffer, offset);
    }

    public boolean littleEndian()
    {
        return little;
    }

    public ByteBuffer buffer()
    {
        return buffer;
    }
}
