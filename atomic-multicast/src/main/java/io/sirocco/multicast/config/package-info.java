/**
 * The one typed configuration of atomic-multicast: every {@code sirocco.multicast.*} setting, read through
 * {@link io.sirocco.transport.config.Settings} and listed in the module's
 * {@link io.sirocco.transport.config.SettingsCatalog}. Depends on nothing else in the module.
 */
package io.sirocco.multicast.config;
