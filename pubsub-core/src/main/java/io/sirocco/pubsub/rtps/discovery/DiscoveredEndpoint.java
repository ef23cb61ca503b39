package io.sirocco.pubsub.rtps.discovery;

import java.util.List;

/**
 * A remote writer or reader as its SEDP announcement described it (the fields read so far).
 *
 * @param prefix its participant's GuidPrefix
 * @param entityId its EntityId
 * @param writer true for a writer (from the publications writer), false for a reader
 * @param topicName its topic
 * @param typeName its type's name
 * @param reliable whether its RELIABILITY is RELIABLE (the spec's default for writers when absent)
 * @param partitions its PARTITION (empty: the default partition)
 */
public record DiscoveredEndpoint(GuidPrefix prefix, int entityId, boolean writer, String topicName, String typeName,
    boolean reliable, List<String> partitions)
{
    public DiscoveredEndpoint
    {
        partitions = List.copyOf(partitions);
    }

    @Override
    public String toString()
    {
        return (writer ? "writer " : "reader ") + prefix + String.format(":%08x", entityId) + " topic '" + topicName
            + "' type '" + typeName + "' " + (reliable ? "reliable" : "best-effort")
            + (partitions.isEmpty() ? "" : " partitions " + partitions);
    }
}
