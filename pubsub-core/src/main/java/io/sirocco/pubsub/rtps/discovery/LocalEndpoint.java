package io.sirocco.pubsub.rtps.discovery;

import java.util.List;

/**
 * A writer or reader of this participant as its SEDP announcement describes it.
 *
 * @param entityId its EntityId (user-defined kinds: 0x02 keyed writer, 0x03 keyless writer, 0x07 keyed reader,
 *     0x04 keyless reader)
 * @param writer true for a writer (announced by the publications writer), false for a reader
 * @param topicName its topic
 * @param typeName its type's name as the peer registers it (ddsperf: {@code KeyedSeq})
 * @param reliable RELIABILITY RELIABLE, else BEST_EFFORT
 * @param partitions its publisher's or subscriber's PARTITION (empty: the default partition)
 */
public record LocalEndpoint(int entityId, boolean writer, String topicName, String typeName, boolean reliable,
    List<String> partitions)
{
    /** EntityKind of user-defined endpoints (DDSI-RTPS 2.5, 9.3.1.2). */
    public static final int KIND_WRITER_KEYED = 0x02;
    public static final int KIND_WRITER_KEYLESS = 0x03;
    public static final int KIND_READER_KEYLESS = 0x04;
    public static final int KIND_READER_KEYED = 0x07;

    public LocalEndpoint
    {
        partitions = List.copyOf(partitions);
    }

    /** The EntityId of the {@code key}-th user endpoint of kind {@code kind}. */
    public static int entityId(final int key, final int kind)
    {
        return (key & 0xff_ffff) << 8 | kind;
    }
}
