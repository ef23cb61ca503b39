package io.sirocco.pubsub.durability;

import java.util.List;

import io.sirocco.transport.config.Setting;
import io.sirocco.transport.config.SettingsCatalog;

/** The {@code sirocco.dds.durability.*} settings ({@link DurabilityConfig}); ServiceLoader. Stateless. */
public final class DurabilitySettingsCatalog implements SettingsCatalog
{
    @Override
    public String module()
    {
        return "dds.durability";
    }

    @Override
    public List<Setting> settings()
    {
        return List.of(
            new Setting(DurabilityConfig.BACKUP, "false", "hold backup zones for the domain's durable writers"),
            new Setting(DurabilityConfig.DIRECTORY, "", "backup store directory; empty = temporary, deleted at close"),
            new Setting(DurabilityConfig.REPLICAS, "3", "backups per durable writer zone (fewer in a smaller domain)"),
            new Setting(DurabilityConfig.ZONE_MIB, String.valueOf(DurabilityConfig.DEFAULT_ZONE_MIB), "capacity of "
                + "one durable writer's zone on each backup (MiB); a write past 3/4 of it fails with OUT_OF_RESOURCES"),
            new Setting(DurabilityConfig.RECOVERY_BLOCK_KIB, String.valueOf(
                DurabilityConfig.DEFAULT_RECOVERY_BLOCK_KIB), "off-heap blocks a backup packs a recovered history "
                + "into (KiB)"),
            new Setting(DurabilityConfig.REPLAY_BATCH_KIB, String.valueOf(DurabilityConfig.DEFAULT_REPLAY_BATCH_KIB),
                "sample bytes a backup packs into one bus message when it replays a recovered history (KiB)"),
            new Setting(WriterIdentity.KEY, "", "identity of this process's TRANSIENT writers (their GUID per topic); "
                + "a replacement with the same identity resumes a dead writer's history"),
            new Setting(WriterIdentity.TAKEOVER_WAIT, "3000", "how long a writer with an identity waits to discover "
                + "a served history of its GUID (ms)"));
    }
}
