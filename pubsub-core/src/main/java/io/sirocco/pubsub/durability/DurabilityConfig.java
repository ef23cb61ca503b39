package io.sirocco.pubsub.durability;

import io.sirocco.transport.config.Settings;

/**
 * The durability settings of a participant ({@code sirocco.dds.durability.*}, listed by
 * {@link DurabilitySettingsCatalog}). Immutable.
 *
 * @param backup    whether this participant holds backup zones for the durable writers of its domain.
 * @param directory where its backup store lives; empty: a fresh temporary directory, deleted at close.
 * @param replicas  the replication factor R of a durable writer's zones (fewer when the domain has fewer backups).
 * @param zoneMib   the capacity of one writer's zone on each backup (MiB of secondary log, 1 MiB segments); a writer
 *                  whose live durable history would pass three quarters of it is refused on {@code write}.
 * @param recoveryBlockKib the size of the off-heap blocks a backup packs a recovered history into (KiB).
 */
public record DurabilityConfig(boolean backup, String directory, int replicas, int zoneMib, int recoveryBlockKib)
{
    public static final String BACKUP = "sirocco.dds.durability.backup";
    public static final String DIRECTORY = "sirocco.dds.durability.dir";
    public static final String REPLICAS = "sirocco.dds.durability.replicas";
    public static final String ZONE_MIB = "sirocco.dds.durability.zone.mb";
    public static final String RECOVERY_BLOCK_KIB = "sirocco.dds.durability.recovery.block.kb";
    /** Default recovery block: 16 MiB, so that a million small samples take a few blocks. */
    public static final int DEFAULT_RECOVERY_BLOCK_KIB = RecoveredSamples.DEFAULT_BLOCK_BYTES >> 10;
    /** Default zone capacity: the log's own default zone size limit, 256 MiB (about 2 million 64-byte samples). */
    public static final int DEFAULT_ZONE_MIB = 256;

    public DurabilityConfig
    {
        if (replicas < 1)
        {
            throw new IllegalArgumentException(REPLICAS + " must be at least 1, got " + replicas);
        }
        if (zoneMib < 4)
        {
            throw new IllegalArgumentException(ZONE_MIB + " must be at least 4 (MiB), got " + zoneMib);
        }
        if (recoveryBlockKib < 1 || recoveryBlockKib > (1 << 20))
        {
            throw new IllegalArgumentException(RECOVERY_BLOCK_KIB + " must be 1..1048576 (KiB), got "
                + recoveryBlockKib);
        }
    }

    /** From system properties and {@code SIROCCO_*} environment variables. */
    public static DurabilityConfig fromSettings()
    {
        return new DurabilityConfig(Settings.booleanValue(BACKUP, false), Settings.string(DIRECTORY, ""),
            Settings.intValue(REPLICAS, 3), Settings.intValue(ZONE_MIB, DEFAULT_ZONE_MIB),
            Settings.intValue(RECOVERY_BLOCK_KIB, DEFAULT_RECOVERY_BLOCK_KIB));
    }
}
