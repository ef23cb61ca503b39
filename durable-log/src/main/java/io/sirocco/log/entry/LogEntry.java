package io.sirocco.log.entry;

/**
 * A parsed entry header, reused by one reading thread ({@code LogEntryDescriptor.parse} fills it). Not thread-safe.
 * It knows nothing of the layout: the descriptor decodes the type byte and hands over the tombstone flag, so that the
 * descriptor depends on this holder and not the other way round.
 */
public final class LogEntry
{
    private int offset;
    private boolean tombstone;
    private int headerLength;
    private long keyHash;
    private long sequence;
    private int length;
    private int epoch;
    private int version;
    private int crc;

    void set(
        final int offset,
        final boolean tombstone,
        final int headerLength,
        final long keyHash,
        final long sequence,
        final int length,
        final int epoch,
        final int version,
        final int crc)
    {
        this.offset = offset;
        this.tombstone = tombstone;
        this.headerLength = headerLength;
        this.keyHash = keyHash;
        this.sequence = sequence;
        this.length = length;
        this.epoch = epoch;
        this.version = version;
        this.crc = crc;
    }

    public int offset()
    {
        return offset;
    }

    public int headerLength()
    {
        return headerLength;
    }

    public int totalLength()
    {
        return headerLength + length;
    }

    public int payloadOffset()
    {
        return offset + headerLength;
    }

    public boolean tombstone()
    {
        return tombstone;
    }

    public long keyHash()
    {
        return keyHash;
    }

    public long sequence()
    {
        return sequence;
    }

    public int length()
    {
        return length;
    }

    public int epoch()
    {
        return epoch;
    }

    public int version()
    {
        return version;
    }

    public int crc()
    {
        return crc;
    }

    /** The epoch in the high 32 bits, the version (unsigned) in the low 32: same value as the descriptor's. */
    public long epochVersion()
    {
        return ((long)epoch << 32) | (version & 0xFFFF_FFFFL);
    }
}
