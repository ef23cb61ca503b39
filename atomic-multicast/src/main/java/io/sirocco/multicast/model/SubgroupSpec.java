package io.sirocco.multicast.model;

import java.util.Objects;

/**
 * The shape of one named subgroup (one DDS topic). Every member registering the same name must agree on it; if they
 * do not, the spec registered by the lowest-ranked member wins and the others are told in the log.
 *
 * @param name            subgroup name, unique in the group (a DDS topic name).
 * @param mode            ordering and loss semantics.
 * @param windowSize      slots per sender ring (DDS history depth for the wire), at least 1.
 * @param slotSizeBytes   payload bytes a slot holds; larger messages take the bulk path.
 * @param maxMessageBytes largest message accepted, {@code >= slotSizeBytes}; above the slot size the bytes travel in
 *                        the sender's bulk region, keeping their place in the order.
 */
public record SubgroupSpec(String name, DeliveryMode mode, int windowSize, int slotSizeBytes, int maxMessageBytes)
{
    public static final int DEFAULT_WINDOW = 100;
    public static final int DEFAULT_SLOT_SIZE = 1024;

    public SubgroupSpec
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mode, "mode");
        if (name.isEmpty() || name.contains("\n") || name.contains("|") || name.contains(";")
            || name.contains(","))
        {
            throw new IllegalArgumentException(
                "subgroup name must be non-empty, without '|', ';', ',' or newline: " + name);
        }
        if (windowSize < 1)
        {
            throw new IllegalArgumentException("windowSize must be >= 1 for subgroup " + name + ": " + windowSize);
        }
        if (slotSizeBytes < 0 || maxMessageBytes < slotSizeBytes)
        {
            throw new IllegalArgumentException("need 0 <= slotSizeBytes <= maxMessageBytes for subgroup " + name
                + ": " + slotSizeBytes + ", " + maxMessageBytes);
        }
    }

    public static SubgroupSpec of(final String name, final DeliveryMode mode)
    {
        return new SubgroupSpec(name, mode, DEFAULT_WINDOW, DEFAULT_SLOT_SIZE, DEFAULT_SLOT_SIZE);
    }

    public SubgroupSpec withWindow(final int window)
    {
        return new SubgroupSpec(name, mode, window, slotSizeBytes, maxMessageBytes);
    }

    public SubgroupSpec withSlotSize(final int slotSize)
    {
        return new SubgroupSpec(name, mode, windowSize, slotSize, Math.max(slotSize, maxMessageBytes));
    }

    public SubgroupSpec withMaxMessage(final int maxMessage)
    {
        return new SubgroupSpec(name, mode, windowSize, slotSizeBytes, maxMessage);
    }
}
