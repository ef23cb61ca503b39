package io.sirocco.transport;

import io.sirocco.transport.config.Settings;

/**
 * The messaging transport's one typed configuration: every setting's key ({@code sirocco.transport.*}) and its
 * default, read through {@link Settings} (the system property, else the environment variable
 * {@code SIROCCO_TRANSPORT_...}). {@link TransportContext} starts each field from here, so a property overrides a
 * default and a context setter overrides both. {@link TransportSettingsCatalog} lists the same keys for
 * {@code docs/configuration.md} and the unknown-key warning. Stateless; the constants are immutable.
 */
public final class TransportConfiguration
{
    public static final String TRANSPORT_PROP = "sirocco.transport.name";
    public static final String TRANSPORT_DEFAULT = "nio";

    public static final String RING_BUFFER_BYTES_PROP = "sirocco.transport.ring.buffer.bytes";
    public static final int RING_BUFFER_BYTES_DEFAULT = 1 << 20;

    public static final String CATCH_UP_BUFFER_ENTRIES_PROP = "sirocco.transport.catch.up.buffer.entries";
    public static final int CATCH_UP_BUFFER_ENTRIES_DEFAULT = 1024;

    public static final String FLOW_CONTROL_WINDOW_BYTES_PROP = "sirocco.transport.flow.control.window.bytes";
    public static final int FLOW_CONTROL_WINDOW_BYTES_DEFAULT = 512 * 1024;

    public static final String FLOW_CONTROL_THRESHOLD_PROP = "sirocco.transport.flow.control.threshold";
    public static final double FLOW_CONTROL_THRESHOLD_DEFAULT = 0.6;

    public static final String MAX_CONNECTIONS_PROP = "sirocco.transport.max.connections";
    public static final int MAX_CONNECTIONS_DEFAULT = 100;

    public static final String CONNECT_TIMEOUT_MS_PROP = "sirocco.transport.connect.timeout.ms";
    public static final long CONNECT_TIMEOUT_MS_DEFAULT = 1_000;

    /** How long an accepted socket may take to send its whole hello before the node closes it. */
    public static final String HANDSHAKE_TIMEOUT_MS_PROP = "sirocco.transport.handshake.timeout.ms";
    public static final long HANDSHAKE_TIMEOUT_MS_DEFAULT = 5_000;

    /** Accepted sockets whose hello is still incomplete; past it the oldest is closed. */
    public static final String HANDSHAKE_PENDING_MAX_PROP = "sirocco.transport.handshake.pending.max";
    public static final int HANDSHAKE_PENDING_MAX_DEFAULT = 256;

    public static final String REQUEST_TIMEOUT_MS_PROP = "sirocco.transport.request.timeout.ms";
    public static final long REQUEST_TIMEOUT_MS_DEFAULT = 10_000;

    public static final String REQUEST_MAP_SIZE_PROP = "sirocco.transport.request.map.size";
    public static final int REQUEST_MAP_SIZE_DEFAULT = 1 << 16;

    public static final String HANDLER_THREADS_PROP = "sirocco.transport.handler.threads";
    public static final int HANDLER_THREADS_DEFAULT = 2;

    /**
     * How long a handler thread spins after its queue runs empty before it yields and parks: a request/response
     * exchange usually brings the next message sooner than a park and wake-up would take. Only the handler that
     * took the last unordered message spins (the coordinator prefers it), so one core at most spins per node.
     * The default, -1, means 20 µs, except over NIO on a machine with fewer than 4 cores: there the next message
     * needs the selector thread's CPU time, which a spinning handler would take (measured: 2x slower round trips).
     */
    public static final String HANDLER_SPIN_NS_PROP = "sirocco.transport.handler.spin.ns";
    public static final long HANDLER_SPIN_NS_DEFAULT = -1;
    static final long HANDLER_SPIN_NS_AUTO = 20_000;

    public static final String HANDLER_QUEUE_CAPACITY_PROP = "sirocco.transport.handler.queue.capacity";
    public static final int HANDLER_QUEUE_CAPACITY_DEFAULT = 4096;

    public static final String INCOMING_BUFFER_BYTES_PROP = "sirocco.transport.incoming.buffer.bytes";
    public static final int INCOMING_BUFFER_BYTES_DEFAULT = 64 * 1024;

    public static final String INCOMING_BUFFER_COUNT_PROP = "sirocco.transport.incoming.buffer.count";
    public static final int INCOMING_BUFFER_COUNT_DEFAULT = 64;

    public static final String INCOMING_QUEUE_CAPACITY_PROP = "sirocco.transport.incoming.queue.capacity";
    public static final int INCOMING_QUEUE_CAPACITY_DEFAULT = 1024;

    public static final String MAX_MESSAGE_BYTES_PROP = "sirocco.transport.max.message.bytes";
    public static final int MAX_MESSAGE_BYTES_DEFAULT = 64 << 20;

    /**
     * The paper's overprovisioning rule, decided once from the core count: with fewer than 4 cores the transport's
     * own threads already outnumber them, so idle threads park at once (woken by a doorbell) instead of spinning.
     */
    public static final boolean OVERPROVISIONED = Runtime.getRuntime().availableProcessors() < 4;

    public static final String IDLE_SPINS_PROP = "sirocco.transport.idle.spins";
    public static final int IDLE_SPINS_DEFAULT = OVERPROVISIONED ? 0 : 2_000;

    public static final String IDLE_YIELDS_PROP = "sirocco.transport.idle.yields";
    public static final int IDLE_YIELDS_DEFAULT = OVERPROVISIONED ? 0 : 200;

    public static final String SELECTOR_SPINS_PROP = "sirocco.transport.selector.spins";
    public static final int SELECTOR_SPINS_DEFAULT = 0;

    public static final String SELECTOR_SPIN_NS_PROP = "sirocco.transport.selector.spin.ns";
    /**
     * The NIO selector thread's spin window: after it found work it keeps polling with {@code selectNow} for this
     * long before it yields or blocks in {@code select}, if the work before came back within the same window
     * (request/response traffic: a DDS ping/pong over tcp, an answer written from the inline receive pass). The
     * peer's {@code write} then finds this thread running: no wake-up of a blocked thread on either side and no
     * {@code epoll_wait} return path; with the vCPUs awake the tcp ping went from ~1.4-1.8x to ~1.0-1.2x the blocking
     * raw TCP floor (docs/benchmarks.md, "Over tcp: the selector's spin window"). Traffic with longer gaps
     * (heartbeats only, an idle node, large batched frames) disarms it, and an empty poll that shows another thread
     * had the core ends it ({@code SelectorSpinWindow}), so a contended or idle host does not pay for it. Windows of
     * 20-200 µs were worse than none on this 2-core host: a thread that spun and then blocked often woke slowly.
     * The price is the tail where other work keeps the cores busy: a spinning thread that loses its core waits out a
     * scheduler slice (p99 0.2-1 ms against ~50-75 µs without the window, in the busy-loop batch); 0 turns it off.
     */
    public static final long SELECTOR_SPIN_NS_DEFAULT = 1_000_000;

    public static final String SELECTOR_YIELDS_PROP = "sirocco.transport.selector.yields";
    public static final int SELECTOR_YIELDS_DEFAULT = 0;

    public static final String SELECTOR_BLOCK_MS_PROP = "sirocco.transport.selector.block.ms";
    /**
     * The longest blocking {@code select} of the NIO selector thread, ms; 0 blocks until a socket is ready or the
     * selector is woken (every state change the loop must see wakes it: commands, interests, hand-over, shutdown).
     * A timed {@code epoll_wait} arms a kernel timer on every block; unbounded was 0.96x on the awake tcp ping's p50
     * in one batch (docs/benchmarks.md, "Over tcp: where an awake hop goes"), within the noise, so the default keeps
     * the bound as a safety net against a missed wake-up.
     */
    public static final long SELECTOR_BLOCK_MS_DEFAULT = 100;

    public static final String REQUEST_SPIN_NS_PROP = "sirocco.transport.request.spin.ns";
    /**
     * A requester spins this long before it parks, on transports that do not lead their receiving while it waits
     * (loopback, ib): a round trip through a handler thread is usually shorter, and parking would add a second
     * thread wake-up to it. NIO never spins (it leads the selector loop, or parks).
     */
    public static final long REQUEST_SPIN_NS_DEFAULT = 50_000;

    public static final String IDLE_MIN_PARK_NS_PROP = "sirocco.transport.idle.min.park.ns";
    public static final long IDLE_MIN_PARK_NS_DEFAULT = 10_000;

    public static final String IDLE_MAX_PARK_NS_PROP = "sirocco.transport.idle.max.park.ns";
    public static final long IDLE_MAX_PARK_NS_DEFAULT = 1_000_000;

    public static final String DIRECT_WRITE_PROP = "sirocco.transport.direct.write";
    public static final boolean DIRECT_WRITE_DEFAULT = true;

    public static final String DIRECT_WRITE_GAP_NS_PROP = "sirocco.transport.direct.write.gap.ns";
    public static final long DIRECT_WRITE_GAP_NS_DEFAULT = 10_000;

    public static final String INLINE_COORDINATOR_PROP = "sirocco.transport.inline.coordinator";
    public static final boolean INLINE_COORDINATOR_DEFAULT = true;

    public static final String SELECTOR_HANDOVER_PROP = "sirocco.transport.selector.handover";
    public static final boolean SELECTOR_HANDOVER_DEFAULT = true;

    public static final String SOCKET_BUFFER_BYTES_PROP = "sirocco.transport.socket.buffer.bytes";
    public static final int SOCKET_BUFFER_BYTES_DEFAULT = 1 << 20;

    private TransportConfiguration()
    {
    }

    static String string(final String key, final String defaultValue)
    {
        return Settings.string(key, defaultValue);
    }

    static int integer(final String key, final int defaultValue)
    {
        return Settings.intValue(key, defaultValue);
    }

    static long longValue(final String key, final long defaultValue)
    {
        return Settings.longValue(key, defaultValue);
    }

    static double doubleValue(final String key, final double defaultValue)
    {
        return Settings.doubleValue(key, defaultValue);
    }

    static boolean bool(final String key, final boolean defaultValue)
    {
        return Settings.booleanValue(key, defaultValue);
    }
}
