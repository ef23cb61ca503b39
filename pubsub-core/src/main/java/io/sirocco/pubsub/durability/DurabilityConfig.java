package io.sirocco.pubsub.durability;

import io.sirocco.transport.config.Settings;

/**
 * The durability settings of a participant ({@code sirocco.dds.durability.*}, listed by
 * {@link DurabilitySettingsCatalog}). Immutable.
 *
 * @param backup    whether this participant holds backup zones for the durable writers of its domain.
 * @param directory where its backup store lives; empty: a fresh temporary directory, deleted at close.
 * @param replicas  the replication factor R of a durable writer's zones (fewer when the domain has fewer backups).
 */
public record DurabilityConfig(boolean backup, String directory, int replicas)
{
    public static final String BACKUP = "sirocco.dds.durability.backup";
    public static final String DIRECTORY = "sirocco.dds.durability.dir";
    public static final String REPLICAS = "sirocco.dds.durability.replicas";

    public DurabilityConfig
    {
        if (replicas < 1)
        {
            throw new IllegalArgumentException(REPLICAS + " must be at least 1, got " + replicas);
        }
    }

    /** From system properties and {@code SIROCCO_*} environment variables. */
    public static DurabilityConfig fromSettings()
    {
        return new DurabilityConfig(Settings.booleanValue(BACKUP, false), Settings.string(DIRECTORY, ""),
            Settings.intValue(REPLICAS, 3));
    }
}
