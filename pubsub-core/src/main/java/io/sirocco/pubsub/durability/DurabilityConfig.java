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
 * @param replayBatchKib   the most sample bytes a backup packs into one bus message of a recovered history's replay
 *                         (KiB; bounded by the bus's largest message).
 */
public record DurabilityConfig(boolean backup, String directory, int replicas, int zoneMib, int recoveryBlockKib,
    int replayBatchKib)
{
    public static final String BACKUP = "sirocco.dds.durability.backup";
    public static final String DIRECTORY = "sirocco.dds.durability.dir";
    public static final String REPLICAS = "sirocco.dds.durability.replicas";
    public static final String ZONE_MIB = "sirocco.dds.durability.zone.mb";
    public static final String RECOVERY_BLOCK_KIB = "sirocco.dds.durability.recovery.block.kb";
    public static final String REPLAY_BATCH_KIB = "sirocco.dds.durability.replay.batch.kb";
    /**
     * Default replay message: 60 KiB of samples (about 400 samples of 64 bytes), so that a million samples travel as a
     * few thousand multicast messages, each paying the ordered subgroup's per-message cost once.
     */
    public static final int DEFAULT_REPLAY_BATCH_KIB = 60;
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
        if (replayBatchKib < 1 || replayBatchKib > (1 << 14))
        {
            throw new IllegalArgumentException(REPLAY_BATCH_KIB + " must be 1..16384 (KiB), got " + replayBatchKib);
        }
    }

    /** From system properties and {@code SIROCCO_*} environment variables. */
    public static DurabilityConfig fromSettings()
    {
        return new DurabilityConfig(Settings.booleanValue(BACKUP, false), Settings.string(DIRECTORY, ""),
            Settings.intValue(REPLICAS, 3), Settings.intValue(ZONE_MIB, DEFAULT_ZONE_MIB),
            Settings.intValue(RECOVERY_BLOCK_KIB, DEFAULT_RECOVERY_BLOCK_KIB),
            Settings.intValue(REPLAY_BATCH_KIB, DEFAULT_REPLAY_BATCH_KIB));
    }
}
