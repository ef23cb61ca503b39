package io.sirocco.dds.config;

import java.util.Locale;
import java.util.Map;

/**
 * dds-api's typed configuration: Sirocco's DDS settings, keys {@code sirocco.dds.<setting>}. Each is read from the map
 * given to {@code ServiceEnvironment.createInstance}, else the system property, else the environment variable
 * {@link #environmentName SIROCCO_DDS_...}, else its default; a value that does not parse or is out of range is
 * an {@link IllegalArgumentException} naming the key. (dds-api stands alone, so it reads them itself; pubsub-core's
 * settings catalog lists the same keys for the unknown-key warning and docs/configuration.md, which describes each.)
 * Immutable.
 *
 * @param transport          {@value #TRANSPORT}: auto, mixed, shm, tcp or local (default auto).
 * @param windowSlots        {@value #WINDOW_SLOTS}: samples a reader may lag (default 1024, at least 2).
 * @param slotBytes          {@value #SLOT_BYTES}: initial bytes per window slot (default 2048).
 * @param peers              {@value #PEERS}: static peers {@code host:port,...} (default empty).
 * @param networkInterface   {@value #INTERFACE}: interface to bind; empty = the first up non-loopback IPv4 one.
 * @param tcpPort            {@value #TCP_PORT}: tcp port; 0 (default) = derived from the member id.
 * @param idleSpins          {@value #IDLE_SPINS}: predicate-thread idle passes spent spinning (default 50).
 * @param idleYields         {@value #IDLE_YIELDS}: then yielding (default 0).
 * @param idleParkNs         {@value #IDLE_PARK_NS}: then parking at most this long per pass (default 1000).
 * @param idleSpinNs         {@value #IDLE_SPIN_NS}: the hot yielding window (default 1 ms; 0 = off).
 * @param inlineListeners    {@value #LISTENER_INLINE}: data listeners on the predicate thread (default false).
 * @param discovery          {@value #DISCOVERY}: shm, peers or multicast ({@code auto} resolved by {@link #from}).
 * @param contactPort        {@value #CONTACT_PORT}: network registry port; 0 (default) = 7400 + domain id.
 * @param multicastGroup     {@value #DISCOVERY_GROUP}: beacon group address (default 239.255.0.1).
 * @param multicastPort      {@value #DISCOVERY_PORT}: beacon UDP port (default 7399).
 * @param beaconPeriodMs     {@value #DISCOVERY_PERIOD_MS}: period of beacons and hellos (default 200).
 * @param discoveryWaitMs    {@value #DISCOVERY_WAIT_MS}: listening before forming a group (default 2000).
 * @param idleAdaptiveNs     {@value #IDLE_ADAPTIVE_NS}: adaptive-spin yield threshold (default 1500; 0 = off).
 * @param suspicionTimeoutMs {@value #SUSPICION_MS}: multicast heartbeat timeout (default 2000, at least 100).
 */
public record SiroccoConfig(String transport, int windowSlots, int slotBytes, String peers, String networkInterface,
    int tcpPort, int idleSpins, int idleYields, long idleParkNs, long idleSpinNs, boolean inlineListeners,
    String discovery, int contactPort, String multicastGroup, int multicastPort, long beaconPeriodMs,
    long discoveryWaitMs, long idleAdaptiveNs, long suspicionTimeoutMs)
{
    /** Default of {@value #SUSPICION_MS}: the multicast layer's heartbeat timeout. */
    public static final long DEFAULT_SUSPICION_MS = 2_000;

    /** Default of {@value #IDLE_ADAPTIVE_NS}: between a yield that returns at once (~0.5 µs here) and one that
     *  ran another thread (>= 2.5 µs measured on the 2-vCPU development VM, docs/benchmarks.md). */
    public static final long DEFAULT_IDLE_ADAPTIVE_NS = 1_500;

    public static final String TRANSPORT = "sirocco.dds.transport";
    public static final String WINDOW_SLOTS = "sirocco.dds.window.slots";
    public static final String SLOT_BYTES = "sirocco.dds.slot.bytes";
    public static final String PEERS = "sirocco.dds.peers";
    public static final String INTERFACE = "sirocco.dds.interface";
    public static final String TCP_PORT = "sirocco.dds.tcp.port";
    public static final String IDLE_SPINS = "sirocco.dds.idle.spins";
    public static final String IDLE_YIELDS = "sirocco.dds.idle.yields";
    public static final String IDLE_PARK_NS = "sirocco.dds.idle.park.ns";
    public static final String IDLE_SPIN_NS = "sirocco.dds.idle.spin.ns";
    public static final String LISTENER_INLINE = "sirocco.dds.listener.inline";
    public static final String DISCOVERY = "sirocco.dds.discovery";
    public static final String CONTACT_PORT = "sirocco.dds.contact.port";
    public static final String DISCOVERY_GROUP = "sirocco.dds.discovery.group";
    public static final String DISCOVERY_PORT = "sirocco.dds.discovery.port";
    public static final String DISCOVERY_PERIOD_MS = "sirocco.dds.discovery.period.ms";
    public static final String DISCOVERY_WAIT_MS = "sirocco.dds.discovery.wait.ms";
    public static final String IDLE_ADAPTIVE_NS = "sirocco.dds.idle.adaptive.ns";
    public static final String SUSPICION_MS = "sirocco.dds.suspicion.ms";

    /** @return the registry port of a domain: {@link #contactPort()} if set, else 7400 + domain id. */
    public int contactPort(final int domainId)
    {
        return contactPort > 0 ? contactPort : 7400 + domainId;
    }

    /** @return whether members find each other over the network (static peers or multicast), not a shared directory. */
    public boolean networkDiscovery()
    {
        return !"shm".equals(discovery);
    }

    /** The environment variable read when the system property {@code key} is absent: SIROCCO_DDS_..., capitals. */
    public static String environmentName(final String key)
    {
        return key.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    public static SiroccoConfig fromEnvironment()
    {
        return from(Map.of());
    }

    public static SiroccoConfig from(final Map<String, Object> environment)
    {
        final Lookup in = new Lookup(environment);
        final String peers = in.string(PEERS, "");
        return new SiroccoConfig(
            in.string(TRANSPORT, "auto").toLowerCase(Locale.ROOT),
            in.intAtLeast(WINDOW_SLOTS, 1024, 2, ""),
            in.intValue(SLOT_BYTES, 2048),
            peers,
            in.string(INTERFACE, ""),
            in.intValue(TCP_PORT, 0),
            in.intValue(IDLE_SPINS, 50),
            in.intValue(IDLE_YIELDS, 0),
            in.longValue(IDLE_PARK_NS, 1000),
            in.longAtLeast(IDLE_SPIN_NS, 1_000_000, 0, ""),
            Boolean.parseBoolean(in.string(LISTENER_INLINE, "false")),
            discovery(in.string(DISCOVERY, "auto").toLowerCase(Locale.ROOT), peers),
            in.intValue(CONTACT_PORT, 0),
            in.string(DISCOVERY_GROUP, "239.255.0.1"),
            in.intValue(DISCOVERY_PORT, 7399),
            in.longValue(DISCOVERY_PERIOD_MS, 200),
            in.longValue(DISCOVERY_WAIT_MS, 2000),
            in.longAtLeast(IDLE_ADAPTIVE_NS, DEFAULT_IDLE_ADAPTIVE_NS, 0, ""),
            in.longAtLeast(SUSPICION_MS, DEFAULT_SUSPICION_MS, 100, " (ten heartbeat periods)"));
    }

    /** Resolves {@code auto} and checks the discovery mode against the peers it needs. */
    private static String discovery(final String configured, final String peers)
    {
        final String discovery = "auto".equals(configured) ? (peers.isBlank() ? "shm" : "peers") : configured;
        if (!discovery.equals("shm") && !discovery.equals("peers") && !discovery.equals("multicast"))
        {
            throw new IllegalArgumentException(DISCOVERY + " (" + environmentName(DISCOVERY) + ") must be auto, shm, "
                + "peers or multicast, got '" + discovery + "'");
        }
        if ("peers".equals(discovery) && peers.isBlank())
        {
            throw new IllegalArgumentException(DISCOVERY + "=peers needs " + PEERS + " (" + environmentName(PEERS)
                + "), e.g. '10.0.0.1:7400,10.0.0.2'");
        }
        return discovery;
    }

    /**
     * One setting's value: the map given to {@code ServiceEnvironment.createInstance}, else the system property, else
     * the environment variable {@link #environmentName}, else the default. Used only while {@link #from} runs.
     */
    private record Lookup(Map<String, Object> environment)
    {
        String string(final String key, final String fallback)
        {
            final Object given = environment == null ? null : environment.get(key);
            if (given != null)
            {
                return given.toString();
            }
            final String fromProperty = System.getProperty(key);
            if (fromProperty != null)
            {
                return fromProperty;
            }
            final String fromEnv = System.getenv(environmentName(key));
            return fromEnv != null ? fromEnv : fallback;
        }

        int intValue(final String key, final int fallback)
        {
            return (int)parse(key, fallback, true);
        }

        long longValue(final String key, final long fallback)
        {
            return parse(key, fallback, false);
        }

        int intAtLeast(final String key, final int fallback, final int min, final String why)
        {
            return (int)atLeast(key, intValue(key, fallback), min, why);
        }

        long longAtLeast(final String key, final long fallback, final long min, final String why)
        {
            return atLeast(key, longValue(key, fallback), min, why);
        }

        private long parse(final String key, final long fallback, final boolean isInt)
        {
            final String text = string(key, null);
            if (text == null)
            {
                return fallback;
            }
            try
            {
                return isInt ? Integer.parseInt(text.trim()) : Long.parseLong(text.trim());
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(key + " (" + environmentName(key) + ") must be an integer, got '"
                    + text + "'", ex);
            }
        }

        private static long atLeast(final String key, final long value, final long min, final String why)
        {
            if (value < min)
            {
                throw new IllegalArgumentException(key + " must be >= " + min + why
                    + ", got " + value);
            }
            return value;
        }
    }
}
