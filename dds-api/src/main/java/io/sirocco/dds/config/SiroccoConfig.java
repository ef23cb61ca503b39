package io.sirocco.dds.config;

import java.util.Locale;
import java.util.Map;

/**
 * Sirocco's DDS settings. Each is read from a system property, else an environment variable, else its default;
 * {@link #from(Map)} also accepts the map given to {@code ServiceEnvironment.createInstance}. Every setting and its
 * default is listed in docs/configuration.md.
 *
 * @param transport      {@code sirocco.transport} / {@code SIROCCO_TRANSPORT}: {@code auto} (default), {@code local},
 *                       {@code shm} or {@code tcp}.
 * @param windowSlots    {@code sirocco.window.slots} / {@code SIROCCO_WINDOW_SLOTS}: samples a reader may lag before a
 *                       reliable writer blocks or a best-effort reader loses samples (default 1024).
 * @param slotBytes      {@code sirocco.slot.bytes} / {@code SIROCCO_SLOT_BYTES}: initial bytes per window slot; slots grow
 *                       for larger samples (default 256).
 * @param peers          {@code sirocco.peers} / {@code SIROCCO_PEERS}: static peers {@code host:port,...} (default empty).
 */
public record SiroccoConfig(String transport, int windowSlots, int slotBytes, String peers)
{
    public static SiroccoConfig fromEnvironment()
    {
        return from(Map.of());
    }

    public static SiroccoConfig from(final Map<String, Object> environment)
    {
        final String transport = setting(environment, "sirocco.transport", "auto").toLowerCase(Locale.ROOT);
        final int window = Integer.parseInt(setting(environment, "sirocco.window.slots", "1024"));
        final int slotBytes = Integer.parseInt(setting(environment, "sirocco.slot.bytes", "256"));
        final String peers = setting(environment, "sirocco.peers", "");
        if (window < 2)
        {
            throw new IllegalArgumentException("sirocco.window.slots must be at least 2, got " + window);
        }
        return new SiroccoConfig(transport, window, slotBytes, peers);
    }

    private static String setting(final Map<String, Object> environment, final String property, final String fallback)
    {
        final Object given = environment == null ? null : environment.get(property);
        if (given != null)
        {
            return given.toString();
        }
        final String fromProperty = System.getProperty(property);
        if (fromProperty != null)
        {
            return fromProperty;
        }
        final String fromEnv = System.getenv(property.toUpperCase(Locale.ROOT).replace('.', '_'));
        return fromEnv != null ? fromEnv : fallback;
    }
}
