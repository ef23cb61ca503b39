/**
 * One way to read configuration in every module. Each module has one typed configuration class that reads its
 * settings through {@link io.sirocco.transport.config.Settings} and lists them in a
 * {@link io.sirocco.transport.config.SettingsCatalog} registered with {@link java.util.ServiceLoader}. Keys are
 * {@code sirocco.<module>.<setting>}; the environment variable {@code SIROCCO_<MODULE>_<SETTING>} (dots and
 * camel-case humps become underscores, upper case) is read when the system property is absent.
 * {@link io.sirocco.transport.config.UnknownSettings} warns once about {@code sirocco.*} keys no catalog knows.
 */
package io.sirocco.transport.config;
