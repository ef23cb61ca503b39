package io.sirocco.log.entry;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Layout of one log entry in a secondary log, a secondary-log buffer and a primary-log batch. All fields are
 * little-endian and only as wide as their value needs (after the thesis's variable-length headers):
 *
 * <pre>
 *   0        1            9              9+s         9+s+l     11+s+l      11+s+l+v     15+s+l+v
 *   +--------+------------+--------------+-----------+---------+-----------+------------+---------+
 *   |  type  |  keyHash   | sequence (s) |length (l) |  epoch  |version (v)|  CRC32C    | payload |
 *   |  1 B   |    8 B     | 1, 2, 4, 8 B | 0,1,2,3 B |   2 B   | 0,1,2,4 B |    4 B     | length  |
 *   +--------+------------+--------------+-----------+---------+-----------+------------+---------+
 *
 *   type bits: 7 always 1 (a 0 byte marks the end of written data) | 6 tombstone | 5-4 version width code
 *              | 3-2 length width code | 1-0 sequence width code
 * </pre>
 *
 * The CRC32C covers the header bytes before it and the payload, so a flipped bit anywhere in the entry is found.
 * A 64-byte entry with a sequence below 2^32 and version 0 has a 20-byte header. Stateless; thread-safe.
 */
public final class LogEntryDescriptor
{
    public static final int TYPE_MARKER = 0x80;
    public static final int TOMBSTONE_FLAG = 0x40;
    public static final int KEY_HASH_OFFSET = 1;
    public static final int MIN_HEADER_LENGTH = 1 + 8 + 1 + 0 + 2 + 0 + 4;
    public static final int MAX_HEADER_LENGTH = 1 + 8 + 8 + 3 + 2 + 4 + 4;
    public static final int MAX_LENGTH = (1 << 24) - 1;
    public static final int MAX_EPOCH = 0xFFFF;

    private static final int[] SEQ_WIDTH = {1, 2, 4, 8};
    private static final int[] LEN_WIDTH = {0, 1, 2, 3};
    private static final int[] VER_WIDTH = {0, 1, 2, 4};

    private LogEntryDescriptor()
    {
    }

    /** Header length for a type byte. */
    public static int headerLength(final int type)
    {
        return 1 + 8 + SEQ_WIDTH[type & 3] + LEN_WIDTH[(type >>> 2) & 3] + 2 + VER_WIDTH[(type >>> 4) & 3] + 4;
    }

    /** The type byte for these values. {@code sequence} is treated as unsigned, {@code version} as unsigned int. */
    public static int type(final boolean tombstone, final long sequence, final int length, final int version)
    {
        final int seqCode = (sequence & 0xFFFF_FFFF_0000_0000L) != 0 ? 3
            : (sequence & 0xFFFF_0000L) != 0 ? 2 : (sequence & 0xFF00L) != 0 ? 1 : 0;
        final int lenCode = length == 0 ? 0 : length < 0x100 ? 1 : length < 0x1_0000 ? 2 : 3;
        final int verCode = version == 0 ? 0 : (version & 0xFFFF_FF00) == 0 ? 1 : (version & 0xFFFF_0000) == 0 ? 2 : 3;
        return TYPE_MARKER | (tombstone ? TOMBSTONE_FLAG : 0) | (verCode << 4) | (lenCode << 2) | seqCode;
    }

    /**
     * Writes the header at {@code offset} (the CRC slot is left for {@link #sealChecksum}) and returns its length.
     */
    public static int encodeHeader(
        final ByteBuffer buffer,
        final int offset,
        final boolean tombstone,
        final long keyHash,
        final long sequence,
        final int length,
        final int epoch,
        final int version)
    {
        final int type = type(tombstone, sequence, length, version);
        int p = offset;
        buffer.put(p, (byte)type);
        p++;
        buffer.putLong(p, keyHash);
        p += 8;
        p = putVar(buffer, p, sequence, SEQ_WIDTH[type & 3]);
        p = putVar(buffer, p, length, LEN_WIDTH[(type >>> 2) & 3]);
        buffer.putShort(p, (short)epoch);
        p += 2;
        p = putVar(buffer, p, version & 0xFFFF_FFFFL, VER_WIDTH[(type >>> 4) & 3]);
        return p + 4 - offset;
    }

    /**
     * Computes the CRC32C of the entry at {@code offset} (header before the CRC slot, then the payload) and stores
     * it. {@code view} is a duplicate of {@code buffer} owned by the caller (its position/limit are changed).
     */
    public static void sealChecksum(
        final ByteBuffer view, final int offset, final int headerLength, final int length, final CRC32C crc)
    {
        view.putInt(offset + headerLength - 4, checksum(view, offset, headerLength, length, crc));
    }

    /** The CRC32C an entry should carry. See {@link #sealChecksum}. */
    public static int checksum(
        final ByteBuffer view, final int offset, final int headerLength, final int length, final CRC32C crc)
    {
        crc.reset();
        if (view.hasArray())
        {
            final byte[] array = view.array();
            final int base = view.arrayOffset();
            crc.update(array, base + offset, headerLength - 4);
            crc.update(array, base + offset + headerLength, length);
        }
        else
        {
            view.limit(offset + headerLength - 4).position(offset);
            crc.update(view);
            view.limit(offset + headerLength + length).position(offset + headerLength);
            crc.update(view);
            view.clear();
        }
        return (int)crc.getValue();
    }

    /**
     * Parses the header at {@code offset} into {@code out}, checking only that it is well formed and fits before
     * {@code limit}; returns false at an end marker (type 0) or a malformed header. The CRC is not checked here.
     */
    public static boolean parse(final ByteBuffer buffer, final int offset, final int limit, final LogEntry out)
    {
        if (offset + MIN_HEADER_LENGTH > limit)
        {
            return false;
        }
        final int type = buffer.get(offset) & 0xFF;
        if ((type & TYPE_MARKER) == 0)
        {
            return false;
        }
        final int headerLength = headerLength(type);
        if (offset + headerLength > limit)
        {
            return false;
        }
        int p = offset + 1;
        final long keyHash = buffer.getLong(p);
        p += 8;
        final int seqWidth = SEQ_WIDTH[type & 3];
        final long sequence = getVar(buffer, p, seqWidth);
        p += seqWidth;
        final int lenWidth = LEN_WIDTH[(type >>> 2) & 3];
        final int length = (int)getVar(buffer, p, lenWidth);
        p += lenWidth;
        final int epoch = buffer.getShort(p) & 0xFFFF;
        p += 2;
        final int verWidth = VER_WIDTH[(type >>> 4) & 3];
        final int version = (int)getVar(buffer, p, verWidth);
        p += verWidth;
        final int crc = buffer.getInt(p);
        if ((long)offset + headerLength + length > limit)
        {
            return false;
        }
        out.set(offset, (type & TOMBSTONE_FLAG) != 0, headerLength, keyHash, sequence, length, epoch, version, crc);
        return true;
    }

    /** Length of the whole entry (header and payload) at {@code offset}, which must be well formed. */
    public static int entryLength(final ByteBuffer buffer, final int offset)
    {
        final int type = buffer.get(offset) & 0xFF;
        final int lenWidth = LEN_WIDTH[(type >>> 2) & 3];
        final int length = (int)getVar(buffer, offset + 9 + SEQ_WIDTH[type & 3], lenWidth);
        return headerLength(type) + length;
    }

    /** Orders (epoch, version) pairs as one unsigned 48-bit number: epoch first, then version. */
    public static long epochVersion(final int epoch, final int version)
    {
        return ((long)epoch << 32) | (version & 0xFFFF_FFFFL);
    }

    private static int putVar(final ByteBuffer buffer, final int offset, final long value, final int width)
    {
        switch (width)
        {
            case 0:
                break;
            case 1:
                buffer.put(offset, (byte)value);
                break;
            case 2:
                buffer.putShort(offset, (short)value);
                break;
            case 3:
                buffer.putShort(offset, (short)value);
                buffer.put(offset + 2, (byte)(value >>> 16));
                break;
            case 4:
                buffer.putInt(offset, (int)value);
                break;
            default:
                buffer.putLong(offset, value);
                break;
        }
        return offset + width;
    }

    private static long getVar(final ByteBuffer buffer, final int offset, final int width)
    {
        return switch (width)
        {
            case 0 -> 0;
            case 1 -> buffer.get(offset) & 0xFFL;
            case 2 -> buffer.getShort(offset) & 0xFFFFL;
            case 3 -> (buffer.getShort(offset) & 0xFFFFL) | ((buffer.get(offset + 2) & 0xFFL) << 16);
            case 4 -> buffer.getInt(offset) & 0xFFFF_FFFFL;
            default -> buffer.getLong(offset);
        };
    }
}
