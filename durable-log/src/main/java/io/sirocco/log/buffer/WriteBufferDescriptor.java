package io.sirocco.log.buffer;

/**
 * Layout of one record in the write buffer (little-endian), as the appending thread leaves it for the flusher:
 *
 * <pre>
 *   0          4          8            16      17          25          33          37
 *   +----------+----------+------------+-------+-----------+-----------+-----------+---------+
 *   | recLen   | zoneSlot |   ticket   | flags |  keyHash  | sequence  |  length   | payload |
 *   +----------+----------+------------+-------+-----------+-----------+-----------+---------+
 * </pre>
 *
 * flags bit 0: tombstone (a delete; length 0). Versions are assigned later, by the flusher, so that the version
 * buffer has a single writer. Stateless.
 */
public final class WriteBufferDescriptor
{
    public static final int REC_LEN_OFFSET = 0;
    public static final int ZONE_SLOT_OFFSET = 4;
    public static final int TICKET_OFFSET = 8;
    public static final int FLAGS_OFFSET = 16;
    public static final int KEY_HASH_OFFSET = 17;
    public static final int SEQUENCE_OFFSET = 25;
    public static final int LENGTH_OFFSET = 33;
    public static final int HEADER_LENGTH = 37;
    public static final int FLAG_TOMBSTONE = 1;

    private WriteBufferDescriptor()
    {
    }
}
