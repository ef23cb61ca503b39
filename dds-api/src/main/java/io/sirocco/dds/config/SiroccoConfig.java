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
 *                       for larger samples (default 2048).
 * @param peers          {@code sirocco.peers} / {@code SIROCCO_PEERS}: static peers {@code host:port,...} (default empty).
 * @param networkInterface {@code sirocco.interface} / {@code SIROCCO_INTERFACE}: the interface (name or address) the tcp
 *                       transport binds; empty = the first up, non-loopback IPv4 interface, logged.
 * @param tcpPort        {@code sirocco.tcp.port} / {@code SIROCCO_TCP_PORT}: the tcp port; 0 (default) = 17400 plus the
 *                       member id modulo 20000.
 * @param idleSpins      {@code sirocco.idle.spins}: predicate-thread idle passes spent spinning (default 50).
 * @param idleYields     {@code sirocco.idle.yields}: then yielding (default 0).
 * @param idleParkNs     {@code sirocco.idle.park.ns}: then parking at most this long per pass (default 1000).
 * @param idleSpinNs     {@code sirocco.idle.spin.ns}: the hot window: after its spins the predicate thread yields
 *                       until this long after its first yield, before the yields/park policy above (default
 *                       1000000 = 1 ms; 0 turns it off).
 * @param inlineListeners {@code sirocco.listener.inline}: run the data listeners (DataAvailable, DataOnReaders,
 *                       SampleLost, SampleRejected) of every reader on the process's predicate thread, as ddsperf does,
 *                       instead of the reader's delivery thread (default false). Such listeners must be fast: while one
 *                       runs, no subgroup of the participant moves.
 */
public record SiroccoConfig(String transport, int windowSlots, int slotBytes, String peers, String networkInterface,
    int tcpPort, int idleSpins, int idleYields, long idleParkNs, long idleSpinNs, boolean inlineListeners)
{
    public static SiroccoConfig fromEnvironment()
    {
        return from(Map.of());
    }

    public static SiroccoConfig from(final Map<String, Object> environment)
    {
        final String transport = setting(environment, "sirocco.transport", "auto").toLowerCase(Locale.ROOT);
        final int window = Integer.parseInt(setting(environment, "sirocco.window.slots", "1024"));
        final int slotBytes = Integer.parseInt(setting(environment, "sirocco.slot.bytes", "2048"));
        final String peers = setting(environment, "sirocco.peers", "");
        if (window < 2)
        {
            throw new IllegalArgumentException("sirocco.window.slots must be at least 2, got " + window);
        }
        final String networkInterface = setting(environment, "sirocco.interface", "");
        final int tcpPort = Integer.parseInt(setting(environment, "sirocco.tcp.port", "0"));
        final int spins = Integer.parseInt(setting(environment, "sirocco.idle.spins", "50"));
        final int yields = Integer.parseInt(setting(environment, "sirocco.idle.yields", "0"));
        final long parkNs = Long.parseLong(setting(environment, "sirocco.idle.park.ns", "1000"));
        final long spinNs = Long.parseLong(setting(environment, "sirocco.idle.spin.ns", "1000000"));
        if (spinNs < 0)
        {
            throw new IllegalArgumentException("sirocco.idle.spin.ns must be >= 0, got " + spinNs);
        }
        final boolean inline = Boolean.parseBoolean(setting(environment, "sirocco.listener.inline", "false"));
        return new SiroccoConfig(transport, window, slotBytes, peers, networkInterface, tcpPort, spins, yields, parkNs,
            spinNs, inline);
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
