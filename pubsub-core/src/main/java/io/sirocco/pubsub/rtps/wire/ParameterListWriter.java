package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Appends little-endian parameters to a ParameterList (DDSI-RTPS 2.5, 9.4.2.11), each padded to 4 bytes, ended by
 * {@link #finish()} with the sentinel. For discovery data (SPDP, SEDP), a cold path: the string parameters allocate.
 * Not thread-safe; throws {@link java.nio.BufferOverflowException}-like IndexOutOfBoundsException when the buffer is
 * too small, which only a programming error causes (discovery data has a known bound).
 */
public final class ParameterListWriter
{
    private final ByteBuffer buffer;
    private int position;

    /** Writes parameters into {@code buffer} from {@code offset}. */
    public ParameterListWriter(final ByteBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.position = offset;
    }

    /** A PL_CDR_LE encapsulation header (0x0003, options 0), for a serialized discovery payload. */
    public ParameterListWriter encapsulationPlCdrLe()
    {
        buffer.put(position, (byte) 0).put(position + 1, (byte) 3).put(position + 2, (byte) 0)
            .put(position + 3, (byte) 0);
        position += 4;
        return this;
    }

    /** Starts parameter {@code pid} of {@code length} bytes and returns the offset of its value. */
    public int begin(final int pid, final int length)
    {
        final int padded = (length + 3) & ~3;
        WireBytes.putUint16Le(buffer, position, pid);
        WireBytes.putUint16Le(buffer, position + 2, padded);
        final int value = position + 4;
        for (int i = value + length; i < value + padded; i++)
        {
            buffer.put(i, (byte) 0);
        }
        position = value + padded;
        return value;
    }

    public ParameterListWriter int32(final int pid, final int value)
    {
        WireBytes.putInt32Le(buffer, begin(pid, 4), value);
        return this;
    }

    /** Raw octets (a GUID, a protocol version, a vendor id), copied as they are. */
    public ParameterListWriter octets(final int pid, final byte[] value)
    {
        buffer.put(begin(pid, value.length), value);
        return this;
    }

    /** A sequence&lt;octet&gt;: uint32 length, then the octets. */
    public ParameterListWriter octetSequence(final int pid, final byte[] value)
    {
        final int at = begin(pid, 4 + value.length);
        WireBytes.putInt32Le(buffer, at, value.length);
        buffer.put(at + 4, value);
        return this;
    }

    /** A CDR string: uint32 length including the terminating NUL, the UTF-8 bytes, NUL. */
    public ParameterListWriter string(final int pid, final String value)
    {
        final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        final int at = begin(pid, 4 + bytes.length + 1);
        WireBytes.putInt32Le(buffer, at, bytes.length + 1);
        buffer.put(at + 4, bytes);
        buffer.put(at + 4 + bytes.length, (byte) 0);
        return this;
    }

    /** RELIABILITY: kind (1 best-effort, 2 reliable), then max_blocking_time as a Duration_t. */
    public ParameterListWriter reliability(final int kind, final long maxBlockingNs)
    {
        final int at = begin(ParameterId.RELIABILITY, 12);
        WireBytes.putInt32Le(buffer, at, kind);
        durationAt(at + 4, maxBlockingNs);
        return this;
    }

    /** A sequence&lt;string&gt; (PARTITION): uint32 count, then CDR strings each aligned to 4. */
    public ParameterListWriter stringSequence(final int pid, final List<String> values)
    {
        final byte[][] bytes = new byte[values.size()][];
        int length = 4;
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
            length += pad4(4 + bytes[i].length + 1);
        }
        int at = begin(pid, length);
        WireBytes.putInt32Le(buffer, at, bytes.length);
        at += 4;
        for (final byte[] b : bytes)
        {
            WireBytes.putInt32Le(buffer, at, b.length + 1);
            buffer.put(at + 4, b);
            for (int i = at + 4 + b.length; i < at + pad4(4 + b.length + 1); i++)
            {
                buffer.put(i, (byte) 0);
            }
            at += pad4(4 + b.length + 1);
        }
        return this;
    }

    private static int pad4(final int n)
    {
        return (n + 3) & ~3;
    }

    /** A Duration_t: seconds (int32) and fraction (uint32, 2^-32 s). */
    public ParameterListWriter duration(final int pid, final long nanos)
    {
        durationAt(begin(pid, 8), nanos);
        return this;
    }

    private void durationAt(final int at, final long nanos)
    {
        final long seconds = nanos / 1_000_000_000L;
        final long fraction = ((nanos % 1_000_000_000L) << 32) / 1_000_000_000L;
        WireBytes.putInt32Le(buffer, at, (int) seconds);
        WireBytes.putInt32Le(buffer, at + 4, (int) fraction);
    }

    /** A Locator_t: kind (int32), port (uint32), 16 address octets (IPv4 in the last 4). */
    public ParameterListWriter locator(final int pid, final int kind, final int port, final byte[] address)
    {
        final int at = begin(pid, 24);
        WireBytes.putInt32Le(buffer, at, kind);
        WireBytes.putInt32Le(buffer, at + 4, port);
        for (int i = 0; i < 16; i++)
        {
            buffer.put(at + 8 + i, (byte) 0);
        }
        buffer.put(at + 8 + 16 - address.length, address);
        return this;
    }

    /** Writes the sentinel and returns the offset just past it. */
    public int finish()
    {
        WireBytes.putUint16Le(buffer, position, ParameterId.SENTINEL);
        WireBytes.putUint16Le(buffer, position + 2, 0);
        position += 4;
        return position;
    }

    public int position()
    {
        return position;
    }
}
