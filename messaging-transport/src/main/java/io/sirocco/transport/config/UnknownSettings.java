package io.sirocco.transport.config;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns once per key about a {@code sirocco.*} system property or {@code SIROCCO_*} environment variable that no
 * {@link SettingsCatalog} declares: a misspelt key otherwise does nothing, silently. Called when a participant or a
 * group starts; thread-safe (the set of keys already warned about is concurrent).
 */
public final class UnknownSettings
{
    private static final Logger LOG = LoggerFactory.getLogger(UnknownSettings.class);
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private UnknownSettings()
    {
    }

    /** Every setting of every catalog on the class path. */
    public static List<Setting> known()
    {
        return ServiceLoader.load(SettingsCatalog.class).stream()
            .map(ServiceLoader.Provider::get)
            .flatMap(catalog -> catalog.settings().stream())
            .toList();
    }

    /** Checks the current system properties and environment; logs each unknown key at WARN, once per process. */
    public static void warnOnce()
    {
        for (final String key : unknown(System.getProperties().stringPropertyNames(), System.getenv()))
        {
            if (WARNED.add(key))
            {
                LOG.warn("unknown setting {} is ignored (see docs/configuration.md for the settings there are)", key);
            }
        }
    }

    /** The keys among {@code properties} and {@code environment} that start like a setting and are not one. */
    public static Set<String> unknown(final Set<String> properties, final Map<String, String> environment)
    {
        final Set<String> keys = new HashSet<>();
        final Set<String> environmentNames = new HashSet<>();
        for (final SettingsCatalog catalog : ServiceLoader.load(SettingsCatalog.class))
        {
            for (final Setting setting : catalog.settings())
            {
                keys.add(setting.key());
                environmentNames.add(setting.environmentName());
            }
            environmentNames.addAll(catalog.otherEnvironmentVariables());
        }
        final Set<String> unknown = new TreeSet<>();
        for (final String property : properties)
        {
            if (property.startsWith(Settings.PREFIX) && !keys.contains(property))
            {
                unknown.add(property);
            }
        }
        for (final String variable : environment.keySet())
        {
            if (variable.startsWith(Settings.ENVIRONMENT_PREFIX) && !environmentNames.contains(variable))
            {
                unknown.add(variable);
            }
        }
        return unknown;
    }
}
