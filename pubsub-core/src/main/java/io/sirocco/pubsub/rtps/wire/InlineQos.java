package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/**
 * The inline QoS of one DATA or DATA_FRAG: where its parameter list lies, and the two parameters the codec itself
 * interprets, the KeyHash and the StatusInfo. Other parameters stay in the buffer for the reader to walk with a
 * {@link ParameterListReader} over {@link #offset()}..{@link #end()}. Reused per submessage; confined to the
 * receive loop's thread.
 */
public final class InlineQos
{
    private final ParameterListReader cursor = new ParameterListReader();
    private ByteBuffer buffer;
    private int offset;
    private int end;
    private int keyHashOffset = -1;
    private int statusInfo;

    void clear(final ByteBuffer buffer, final int at)
    {
        this.buffer = buffer;
        this.offset = at;
        this.end = at;
        this.keyHashOffset = -1;
        this.statusInfo = 0;
    }

    /** Parses the list from {@code start}; returns null, or why it is malformed. */
    MalformedReason parse(final ByteBuffer buffer, final int start, final int limit, final boolean little)
    {
        clear(buffer, start);
        cursor.wrap(buffer, start, limit, little);
        for (int pid = cursor.next(); pid != ParameterListReader.END; pid = cursor.next())
        {
            if (pid == ParameterListReader.MALFORMED)
            {
                return MalformedReason.BAD_PARAMETER_LIST;
            }
            final int id = pid & 0x3fff;
            if (id == ParameterId.KEY_HASH)
            {
                if (cursor.valueLength() != 16)
                {
                    return MalformedReason.BAD_KEY_HASH;
                }
                keyHashOffset = cursor.valueOffset();
            }
            else if (id == ParameterId.STATUS_INFO)
            {
                if (cursor.valueLength() < 4)
                {
                    return MalformedReason.BAD_STATUS_INFO;
                }
                // an octet array on the wire: the flags are in its fourth octet whatever the endianness
                statusInfo = WireBytes.int32Be(buffer, cursor.valueOffset());
            }
        }
        end = cursor.position();
        return null;
    }

    /** Whether a KeyHash was present. */
    public boolean hasKeyHash()
    {
        return keyHashOffset >= 0;
    }

    /** Copies the 16-byte KeyHash into {@code dst} at {@code at}; false (and nothing copied) when absent. */
    public boolean keyHash(final byte[] dst, final int at)
    {
        if (keyHashOffset < 0)
        {
            return false;
        }
        buffer.get(keyHashOffset, dst, at, 16);
        return true;
    }

    /** The StatusInfo bits (0 when absent): {@link ParameterId#STATUS_DISPOSED} and friends. */
    public int statusInfo()
    {
        return statusInfo;
    }

    /** Offset of the first parameter (equal to {@link #end()} when there is no inline QoS). */
    public int offset()
    {
        return offset;
    }

    /** Offset just past the sentinel. */
    public int end()
    {
        return end;
    }
}
