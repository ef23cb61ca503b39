package io.sirocco.transport.config;

import java.util.List;

/**
 * The settings of one module, found through {@link java.util.ServiceLoader} (each module registers its catalog in
 * {@code META-INF/services/io.sirocco.transport.config.SettingsCatalog}). {@link UnknownSettings} and the
 * documentation test read every catalog on the class path.
 */
public interface SettingsCatalog
{
    /** The module's name as it appears in the keys ({@code sirocco.<module>.*}). */
    String module();

    /** Every setting the module reads. */
    List<Setting> settings();

    /**
     * Environment variables of the module that are not the environment form of a setting (for example the launcher's
     * {@code SIROCCO_JAVA_OPTS}), so {@link UnknownSettings} does not warn about them.
     */
    default List<String> otherEnvironmentVariables()
    {
        return List.of();
    }
}
