package io.sirocco.log.config;

import io.sirocco.transport.config.Settings;

/**
 * The durable log's settings for a process ({@code sirocco.durable.*}, listed by {@link DurableSettingsCatalog}).
 * Immutable.
 *
 * @param dataDir where a backup keeps its PERSISTENT zones (one sub-directory per log node and domain, chosen by the
 *                caller); empty: beside its other zones, in the backup store's directory.
 */
public record DurableSettings(String dataDir)
{
    public static final String DATA_DIR = "sirocco.durable.data.dir";

    /** From system properties and {@code SIROCCO_*} environment variables. */
    public static DurableSettings fromSettings()
    {
        return new DurableSettings(Settings.string(DATA_DIR, "").trim());
    }

    /** The store configuration of PERSISTENT zones: {@code base} with group commit (ack after fsync). */
    public static LogConfig persistent(final LogConfig base)
    {
        return base.clone().syncPolicy(SyncPolicy.GROUP);
    }
}
