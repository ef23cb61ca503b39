package io.sirocco.transport.config;

import java.util.Objects;

/**
 * One documented setting: its key ({@code sirocco.<module>.<setting>}), its default as text (as
 * {@code docs/configuration.md} shows it), and what it does in one line.
 *
 * @param key          the system property; the environment variable is {@link Settings#environmentName(String)}.
 * @param defaultValue the default as documented (may describe a computed default, e.g. "2000, or 0 with < 4 cores").
 * @param description  one line for the documentation and for error messages.
 */
public record Setting(String key, String defaultValue, String description)
{
    public Setting
    {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(description, "description");
        if (!key.startsWith(Settings.PREFIX))
        {
            throw new IllegalArgumentException("setting key must start with " + Settings.PREFIX + ": " + key);
        }
    }

    /** The environment variable read when the system property is absent. */
    public String environmentName()
    {
        return Settings.environmentName(key);
    }
}
