package io.sirocco.pubsub.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.transport.config.Setting;
import io.sirocco.transport.config.Settings;
import io.sirocco.transport.config.SettingsCatalog;
import org.junit.jupiter.api.Test;

/** The catalog lists exactly the keys SiroccoConfig reads, and both derive the same environment names. */
class DdsSettingsCatalogTest
{
    @Test
    void listsEveryKeySiroccoConfigReadsUnderTheDdsPrefix() throws IllegalAccessException
    {
        final Set<String> declared = new TreeSet<>();
        for (final Field field : SiroccoConfig.class.getDeclaredFields())
        {
            if (field.getType() == String.class && Modifier.isStatic(field.getModifiers()))
            {
                declared.add((String)field.get(null));
            }
        }
        final Set<String> listed = new DdsSettingsCatalog().settings().stream().map(Setting::key)
            .collect(Collectors.toCollection(TreeSet::new));
        assertThat(listed).isEqualTo(declared).allMatch(key -> key.matches("sirocco\\.dds\\.[a-z]+(\\.[a-z]+)*"));
    }

    @Test
    void environmentNamesMatchTheHouseConvention()
    {
        for (final Setting setting : new DdsSettingsCatalog().settings())
        {
            assertThat(SiroccoConfig.environmentName(setting.key())).isEqualTo(Settings.environmentName(setting.key()))
                .startsWith("SIROCCO_DDS_");
        }
    }

    @Test
    void isFoundThroughTheServiceLoader()
    {
        assertThat(ServiceLoader.load(SettingsCatalog.class).stream())
            .anyMatch(provider -> provider.type() == DdsSettingsCatalog.class);
    }
}
