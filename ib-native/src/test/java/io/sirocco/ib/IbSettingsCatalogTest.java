package io.sirocco.ib;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.sirocco.transport.config.Setting;
import io.sirocco.transport.config.SettingsCatalog;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IbSettingsCatalogTest
{
    @Test
    void shouldListEveryKeyOfTheConfigurationUnderTheModulePrefix() throws IllegalAccessException
    {
        final Set<String> declared = new TreeSet<>();
        for (final Field field : IbConfiguration.class.getDeclaredFields())
        {
            if (field.getName().endsWith("_PROP") && Modifier.isStatic(field.getModifiers()))
            {
                declared.add((String)field.get(null));
            }
        }
        final Set<String> listed = new IbSettingsCatalog().settings().stream()
            .map(Setting::key).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(declared, listed);
        for (final String key : listed)
        {
            assertTrue(key.matches("sirocco\\.ib\\.[a-z][A-Za-z]*"), key);
        }
    }

    @Test
    void shouldBeFoundThroughTheServiceLoader()
    {
        assertTrue(ServiceLoader.load(SettingsCatalog.class).stream()
            .anyMatch(provider -> provider.type() == IbSettingsCatalog.class));
    }
}
