package io.sirocco.log.entry;

/**
 * A parsed entry header, reused by one reading thread ({@link LogEntryDescriptor#parse} fills it). Not thread-safe.
 */
public final class LogEntry
{
    private int offset;
    private int type;
    private int headerLength;
    private long keyHash;
    private long sequence;
    private int length;
    private int epoch;
    private int version;
    private int crc;

    void set(
        final int offset,
        final int type,
        final int headerLength,
        final long keyHash,
        final long sequence,
        final int length,
        final int epoch,
        final int version,
        final int crc)
    {
        this.offset = offset;
        this.type = type;
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
        return (type & LogEntryDescriptor.TOMBSTONE_FLAG) != 0;
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

    public long epochVersion()
    {
        return LogEntryDescriptor.epochVersion(epoch, version);
    }
}
