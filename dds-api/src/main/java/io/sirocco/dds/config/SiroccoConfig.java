package io.sirocco.dds.config;

import java.util.Locale;
import java.util.Map;

/**
 * Sirocco's DDS settings. Each is read from a system property, else an environment variable, else its default;
 * {@link #from(Map)} also accepts the map given to {@code ServiceEnvironment.createInstance}. Every setting and its
 * default is listed in docs/configuration.md.
 *
 * @param transport      {@code sirocco.transport} / {@code SIROCCO_TRANSPORT}: {@code auto} (default: {@code shm} with
 *                       the per-host registry, {@code mixed} with network discovery), {@code mixed} (shared memory
 *                       within a host, tcp between hosts), {@code local}, {@code shm} or {@code tcp}.
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
 * @param discovery      {@code sirocco.discovery}: how members find each other: {@code shm} (the per-domain registry
 *                       directory, one host), {@code peers} (static peers, registry over the network) or
 *                       {@code multicast} (UDP beacons plus the static peers); default {@code auto} = {@code peers}
 *                       when {@code sirocco.peers} is set, else {@code shm}.
 * @param contactPort    {@code sirocco.contact.port}: port of a member's network registry endpoint, the default port
 *                       of a peer entry without one; 0 (default) = 7400 + domain id.
 * @param multicastGroup {@code sirocco.discovery.group}: beacon group address (default 239.255.0.1).
 * @param multicastPort  {@code sirocco.discovery.port}: beacon UDP port (default 7399).
 * @param beaconPeriodMs {@code sirocco.discovery.period.ms}: period of beacons and of hellos to contacts (default 200).
 * @param discoveryWaitMs {@code sirocco.discovery.wait.ms}: how long a member that found no running group listens
 *                       before it may form one (default 2000).
 * @param idleAdaptiveNs {@code sirocco.idle.adaptive.ns}: adaptive spins: a predicate-thread yield that took longer than
 *                       this let another thread run on its core, so the thread halves its spins (a partner process on
 *                       the same core cannot answer while it spins) and doubles them back, up to {@code idleSpins},
 *                       when its yields come back at once (default 1500; 0 = always {@code idleSpins} spins).
 * @param suspicionTimeoutMs {@code sirocco.mcast.suspicion.ms}: a member whose heartbeat did not move for this long
 *                       is suspected and removed by a view change (default 2000). Raise it on hosts where a process can
 *                       go unscheduled that long (heavily loaded machines); the cost is slower detection of a dead
 *                       member on another host (on one host a process exit is seen at once).
 */
public record SiroccoConfig(String transport, int windowSlots, int slotBytes, String peers, String networkInterface,
    int tcpPort, int idleSpins, int idleYields, long idleParkNs, long idleSpinNs, boolean inlineListeners,
    String discovery, int contactPort, String multicastGroup, int multicastPort, long beaconPeriodMs,
    long discoveryWaitMs, long idleAdaptiveNs, long suspicionTimeoutMs)
{
    /** Default of {@code sirocco.mcast.suspicion.ms}: the multicast layer's heartbeat timeout. */
    public static final long DEFAULT_SUSPICION_MS = 2_000;

    /** Default of {@code sirocco.idle.adaptive.ns}: between a yield that returns at once (~0.5 µs here) and one that
     *  ran another thread (>= 2.5 µs measured on the 2-vCPU development VM, docs/benchmarks.md). */
    public static final long DEFAULT_IDLE_ADAPTIVE_NS = 1_500;

    /** The settings before network discovery existed; discovery settings take their defaults. */
    public SiroccoConfig(final String transport, final int windowSlots, final int slotBytes, final String peers,
        final String networkInterface, final int tcpPort, final int idleSpins, final int idleYields,
        final long idleParkNs)
    {
        this(transport, windowSlots, slotBytes, peers, networkInterface, tcpPort, idleSpins, idleYields, idleParkNs,
            1_000_000, false, peers == null || peers.isBlank() ? "shm" : "peers", 0, "239.255.0.1", 7399, 200, 2000,
            DEFAULT_IDLE_ADAPTIVE_NS, DEFAULT_SUSPICION_MS);
    }

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
        String discovery = setting(environment, "sirocco.discovery", "auto").toLowerCase(Locale.ROOT);
        if ("auto".equals(discovery))
        {
            discovery = peers.isBlank() ? "shm" : "peers";
        }
        if (!discovery.equals("shm") && !discovery.equals("peers") && !discovery.equals("multicast"))
        {
            throw new IllegalArgumentException("sirocco.discovery (SIROCCO_DISCOVERY) must be auto, shm, peers or "
                + "multicast, got '" + discovery + "'");
        }
        if ("peers".equals(discovery) && peers.isBlank())
        {
            throw new IllegalArgumentException("sirocco.discovery=peers needs sirocco.peers (SIROCCO_PEERS), e.g. "
                + "'10.0.0.1:7400,10.0.0.2'");
        }
        final int contactPort = Integer.parseInt(setting(environment, "sirocco.contact.port", "0"));
        final String group = setting(environment, "sirocco.discovery.group", "239.255.0.1");
        final int groupPort = Integer.parseInt(setting(environment, "sirocco.discovery.port", "7399"));
        final long periodMs = Long.parseLong(setting(environment, "sirocco.discovery.period.ms", "200"));
        final long waitMs = Long.parseLong(setting(environment, "sirocco.discovery.wait.ms", "2000"));
        final long spinNs = Long.parseLong(setting(environment, "sirocco.idle.spin.ns", "1000000"));
        if (spinNs < 0)
        {
            throw new IllegalArgumentException("sirocco.idle.spin.ns must be >= 0, got " + spinNs);
        }
        final boolean inline = Boolean.parseBoolean(setting(environment, "sirocco.listener.inline", "false"));
        final long adaptiveNs = Long.parseLong(setting(environment, "sirocco.idle.adaptive.ns",
            String.valueOf(DEFAULT_IDLE_ADAPTIVE_NS)));
        if (adaptiveNs < 0)
        {
            throw new IllegalArgumentException("sirocco.idle.adaptive.ns must be >= 0, got " + adaptiveNs);
        }
        final long suspicionMs = Long.parseLong(setting(environment, "sirocco.mcast.suspicion.ms",
            String.valueOf(DEFAULT_SUSPICION_MS)));
        if (suspicionMs < 100)
        {
            throw new IllegalArgumentException("sirocco.mcast.suspicion.ms must be >= 100 (ten heartbeat periods), got "
                + suspicionMs);
        }
        return new SiroccoConfig(transport, window, slotBytes, peers, networkInterface, tcpPort, spins, yields, parkNs,
            spinNs, inline, discovery, contactPort, group, groupPort, periodMs, waitMs, adaptiveNs, suspicionMs);
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
