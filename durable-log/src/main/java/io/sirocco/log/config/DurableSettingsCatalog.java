package io.sirocco.log.config;

import java.util.List;

import io.sirocco.transport.config.Setting;
import io.sirocco.transport.config.SettingsCatalog;

/** The {@code sirocco.durable.*} settings ({@link DurableSettings}); ServiceLoader. Stateless. */
public final class DurableSettingsCatalog implements SettingsCatalog
{
    @Override
    public String module()
    {
        return "durable";
    }

    @Override
    public List<Setting> settings()
    {
        return List.of(new Setting(DurableSettings.DATA_DIR, "",
            "directory of a backup's PERSISTENT zones (on disk, group commit); empty = in its backup store directory"));
    }
}
