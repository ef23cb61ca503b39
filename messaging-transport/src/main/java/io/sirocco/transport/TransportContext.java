package io.sirocco.transport;

import io.sirocco.transport.idle.BackoffIdleStrategy;
import io.sirocco.transport.idle.IdleStrategy;

import static io.sirocco.transport.TransportConfiguration.*;

/**
 * The configuration of one {@link MessagingService}: fluent setters (Aeron style: {@code ringBufferBytes()} reads,
 * {@code ringBufferBytes(int)} sets and returns {@code this}), each starting from {@link TransportConfiguration}.
 * {@link #conclude()} validates every value once and names the setting, the value and the allowed range on error.
 * Confined to the thread that builds it; the service reads it after {@code conclude()} only.
 */
public final class TransportContext
{
    private int ownNodeId = NodeIds.INVALID;
    private NodeAddressMap addressMap = new NodeAddressMap();
    private String transport = string(TRANSPORT_PROP, TRANSPORT_DEFAULT);
    private int ringBufferBytes = integer(RING_BUFFER_BYTES_PROP, RING_BUFFER_BYTES_DEFAULT);
    private int catchUpBufferEntries = integer(CATCH_UP_BUFFER_ENTRIES_PROP, CATCH_UP_BUFFER_ENTRIES_DEFAULT);
    private int flowControlWindowBytes = integer(FLOW_CONTROL_WINDOW_BYTES_PROP, FLOW_CONTROL_WINDOW_BYTES_DEFAULT);
    private double flowControlThreshold = doubleValue(FLOW_CONTROL_THRESHOLD_PROP, FLOW_CONTROL_THRESHOLD_DEFAULT);
    private int maxConnections = integer(MAX_CONNECTIONS_PROP, MAX_CONNECTIONS_DEFAULT);
    private long connectTimeoutMs = longValue(CONNECT_TIMEOUT_MS_PROP, CONNECT_TIMEOUT_MS_DEFAULT);
    private long handshakeTimeoutMs = longValue(HANDSHAKE_TIMEOUT_MS_PROP, HANDSHAKE_TIMEOUT_MS_DEFAULT);
    private int handshakePendingMax = integer(HANDSHAKE_PENDING_MAX_PROP, HANDSHAKE_PENDING_MAX_DEFAULT);
    private long requestTimeoutMs = longValue(REQUEST_TIMEOUT_MS_PROP, REQUEST_TIMEOUT_MS_DEFAULT);
    private int requestMapSize = integer(REQUEST_MAP_SIZE_PROP, REQUEST_MAP_SIZE_DEFAULT);
    private int handlerThreads = integer(HANDLER_THREADS_PROP, HANDLER_THREADS_DEFAULT);
    private int handlerQueueCapacity = integer(HANDLER_QUEUE_CAPACITY_PROP, HANDLER_QUEUE_CAPACITY_DEFAULT);
    private long handlerSpinNs = longValue(HANDLER_SPIN_NS_PROP, HANDLER_SPIN_NS_DEFAULT);
    private int incomingBufferBytes = integer(INCOMING_BUFFER_BYTES_PROP, INCOMING_BUFFER_BYTES_DEFAULT);
    private int incomingBufferCount = integer(INCOMING_BUFFER_COUNT_PROP, INCOMING_BUFFER_COUNT_DEFAULT);
    private int incomingQueueCapacity = integer(INCOMING_QUEUE_CAPACITY_PROP, INCOMING_QUEUE_CAPACITY_DEFAULT);
    private int maxMessageBytes = integer(MAX_MESSAGE_BYTES_PROP, MAX_MESSAGE_BYTES_DEFAULT);
    private int idleSpins = integer(IDLE_SPINS_PROP, IDLE_SPINS_DEFAULT);
    private int idleYields = integer(IDLE_YIELDS_PROP, IDLE_YIELDS_DEFAULT);
    private int selectorSpins = integer(SELECTOR_SPINS_PROP, SELECTOR_SPINS_DEFAULT);
    private int selectorYields = integer(SELECTOR_YIELDS_PROP, SELECTOR_YIELDS_DEFAULT);
    private long selectorSpinNs = longValue(SELECTOR_SPIN_NS_PROP, SELECTOR_SPIN_NS_DEFAULT);
    private long selectorBlockMs = longValue(SELECTOR_BLOCK_MS_PROP, SELECTOR_BLOCK_MS_DEFAULT);
    private long requestSpinNs = longValue(REQUEST_SPIN_NS_PROP, REQUEST_SPIN_NS_DEFAULT);
    private long idleMinParkNs = longValue(IDLE_MIN_PARK_NS_PROP, IDLE_MIN_PARK_NS_DEFAULT);
    private long idleMaxParkNs = longValue(IDLE_MAX_PARK_NS_PROP, IDLE_MAX_PARK_NS_DEFAULT);
    private boolean directWrite = bool(DIRECT_WRITE_PROP, DIRECT_WRITE_DEFAULT);
    private long directWriteGapNs = longValue(DIRECT_WRITE_GAP_NS_PROP, DIRECT_WRITE_GAP_NS_DEFAULT);
    private boolean inlineCoordinator = bool(INLINE_COORDINATOR_PROP, INLINE_COORDINATOR_DEFAULT);
    private boolean selectorHandover = bool(SELECTOR_HANDOVER_PROP, SELECTOR_HANDOVER_DEFAULT);
    private int socketBufferBytes = integer(SOCKET_BUFFER_BYTES_PROP, SOCKET_BUFFER_BYTES_DEFAULT);
    private InProcessFabric loopbackFabric;
    private boolean concluded;

    /** Validates every setting; call once, before the service starts (the service calls it if you did not). */
    public TransportContext conclude()
    {
        if (concluded)
        {
            return this;
        }
        NodeIds.check(ownNodeId);
        requirePowerOfTwo("ringBufferBytes", ringBufferBytes, 1 << 10, 1 << 30);
        requirePowerOfTwo("catchUpBufferEntries", catchUpBufferEntries, 16, 1 << 20);
        requireRange("flowControlWindowBytes", flowControlWindowBytes, 1024, Integer.MAX_VALUE / 2);
        if (!(flowControlThreshold > 0.0 && flowControlThreshold <= 1.0))
        {
            throw new IllegalArgumentException("flowControlThreshold=" + flowControlThreshold + " must be in (0, 1]");
        }
        requireRange("maxConnections", maxConnections, 1, NodeIds.COUNT);
        requireRange("connectTimeoutMs", connectTimeoutMs, 1, Integer.MAX_VALUE);
        requireRange("handshakeTimeoutMs", handshakeTimeoutMs, 1, Integer.MAX_VALUE);
        requireRange("handshakePendingMax", handshakePendingMax, 1, 1 << 20);
        requireRange("requestTimeoutMs", requestTimeoutMs, 1, Long.MAX_VALUE / 1_000_000);
        requirePowerOfTwo("requestMapSize", requestMapSize, 16, 1 << 24);
        requireRange("handlerThreads", handlerThreads, 0, 256);
        requirePowerOfTwo("handlerQueueCapacity", handlerQueueCapacity, 16, 1 << 24);
        requireRange("incomingBufferBytes", incomingBufferBytes, 256, 1 << 28);
        requireRange("incomingBufferCount", incomingBufferCount, 1, 1 << 20);
        requirePowerOfTwo("incomingQueueCapacity", incomingQueueCapacity, 16, 1 << 24);
        requireRange("maxMessageBytes", maxMessageBytes, 1, Integer.MAX_VALUE - 64);
        requireRange("idleSpins", idleSpins, 0, Integer.MAX_VALUE / 4);
        requireRange("idleYields", idleYields, 0, Integer.MAX_VALUE / 4);
        requireRange("selectorSpins", selectorSpins, 0, Integer.MAX_VALUE / 4);
        requireRange("selectorYields", selectorYields, 0, Integer.MAX_VALUE / 4);
        requireRange("selectorSpinNs", selectorSpinNs, 0, 1_000_000_000L);
        requireRange("selectorBlockMs", selectorBlockMs, 0, 3_600_000L);
        requireRange("requestSpinNs", requestSpinNs, 0, 1_000_000_000L);
        requireRange("handlerSpinNs", handlerSpinNs, -1, 1_000_000_000L);
        if (handlerSpinNs < 0)
        {
            handlerSpinNs = OVERPROVISIONED && "nio".equals(transport) ? 0 : HANDLER_SPIN_NS_AUTO;
        }
        requireRange("idleMinParkNs", idleMinParkNs, 1, 1_000_000_000L);
        requireRange("idleMaxParkNs", idleMaxParkNs, idleMinParkNs, 1_000_000_000L);
        requireRange("directWriteGapNs", directWriteGapNs, 0, 1_000_000_000L);
        requireRange("socketBufferBytes", socketBufferBytes, 4096, 1 << 30);
        if (transport == null || transport.isBlank())
        {
            throw new IllegalArgumentException("transport must name a transport provider (nio, loopback, ...)");
        }
        concluded = true;
        return this;
    }

    private static void requireRange(final String name, final long value, final long min, final long max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(name + "=" + value + " must be in [" + min + ", " + max + "]");
        }
    }

    private static void requirePowerOfTwo(final String name, final long value, final long min, final long max)
    {
        requireRange(name, value, min, max);
        if (Long.bitCount(value) != 1)
        {
            throw new IllegalArgumentException(name + "=" + value + " must be a power of two");
        }
    }

    private void checkMutable()
    {
        if (concluded)
        {
            throw new IllegalStateException("TransportContext already concluded");
        }
    }

    /** A fresh idle strategy with this context's spin, yield and park thresholds (one per thread). */
    public IdleStrategy newIdleStrategy()
    {
        return new BackoffIdleStrategy(idleSpins, idleYields, idleMinParkNs, idleMaxParkNs);
    }

    public int ownNodeId() { return ownNodeId; }
    public TransportContext ownNodeId(final int v) { checkMutable(); ownNodeId = NodeIds.check(v); return this; }
    public NodeAddressMap addressMap() { return addressMap; }
    public TransportContext addressMap(final NodeAddressMap v) { checkMutable(); addressMap = v; return this; }
    /** The transport provider's name: {@code nio} (TCP) or {@code loopback} (in-process). */
    public String transport() { return transport; }
    public TransportContext transport(final String v) { checkMutable(); transport = v; return this; }
    public int ringBufferBytes() { return ringBufferBytes; }
    public TransportContext ringBufferBytes(final int v) { checkMutable(); ringBufferBytes = v; return this; }
    public int catchUpBufferEntries() { return catchUpBufferEntries; }
    public TransportContext catchUpBufferEntries(final int v) { checkMutable(); catchUpBufferEntries = v; return this; }
    public int flowControlWindowBytes() { return flowControlWindowBytes; }
    public TransportContext flowControlWindowBytes(final int v) { checkMutable(); flowControlWindowBytes = v; return this; }
    public double flowControlThreshold() { return flowControlThreshold; }
    public TransportContext flowControlThreshold(final double v) { checkMutable(); flowControlThreshold = v; return this; }
    public int maxConnections() { return maxConnections; }
    public TransportContext maxConnections(final int v) { checkMutable(); maxConnections = v; return this; }
    public long connectTimeoutMs() { return connectTimeoutMs; }
    public TransportContext connectTimeoutMs(final long v) { checkMutable(); connectTimeoutMs = v; return this; }
    public long handshakeTimeoutMs() { return handshakeTimeoutMs; }
    public TransportContext handshakeTimeoutMs(final long v) { checkMutable(); handshakeTimeoutMs = v; return this; }
    public int handshakePendingMax() { return handshakePendingMax; }
    public TransportContext handshakePendingMax(final int v) { checkMutable(); handshakePendingMax = v; return this; }
    public long requestTimeoutMs() { return requestTimeoutMs; }
    public TransportContext requestTimeoutMs(final long v) { checkMutable(); requestTimeoutMs = v; return this; }
    public int requestMapSize() { return requestMapSize; }
    public TransportContext requestMapSize(final int v) { checkMutable(); requestMapSize = v; return this; }
    /** Handler threads; 0 runs handlers on the coordinator thread itself. */
    public int handlerThreads() { return handlerThreads; }
    public TransportContext handlerThreads(final int v) { checkMutable(); handlerThreads = v; return this; }
    /**
     * How long a handler thread spins after its queue ran empty before it yields and parks (0: no spin; -1, the
     * default: chosen by {@code conclude()}, see {@link TransportConfiguration#HANDLER_SPIN_NS_DEFAULT}).
     */
    public long handlerSpinNs() { return handlerSpinNs; }
    public TransportContext handlerSpinNs(final long v) { checkMutable(); handlerSpinNs = v; return this; }
    public int handlerQueueCapacity() { return handlerQueueCapacity; }
    public TransportContext handlerQueueCapacity(final int v) { checkMutable(); handlerQueueCapacity = v; return this; }
    public int incomingBufferBytes() { return incomingBufferBytes; }
    public TransportContext incomingBufferBytes(final int v) { checkMutable(); incomingBufferBytes = v; return this; }
    public int incomingBufferCount() { return incomingBufferCount; }
    public TransportContext incomingBufferCount(final int v) { checkMutable(); incomingBufferCount = v; return this; }
    public int incomingQueueCapacity() { return incomingQueueCapacity; }
    public TransportContext incomingQueueCapacity(final int v) { checkMutable(); incomingQueueCapacity = v; return this; }
    public int maxMessageBytes() { return maxMessageBytes; }
    public TransportContext maxMessageBytes(final int v) { checkMutable(); maxMessageBytes = v; return this; }
    public int idleSpins() { return idleSpins; }
    public TransportContext idleSpins(final int v) { checkMutable(); idleSpins = v; return this; }
    public int idleYields() { return idleYields; }
    public TransportContext idleYields(final int v) { checkMutable(); idleYields = v; return this; }
    /** Empty {@code selectNow} polls before the NIO selector yields (0: block in {@code select} at once). */
    public int selectorSpins() { return selectorSpins; }
    public TransportContext selectorSpins(final int v) { checkMutable(); selectorSpins = v; return this; }
    /** How long the NIO selector keeps polling with {@code selectNow} after it last found work (0: no window). */
    public long selectorSpinNs() { return selectorSpinNs; }
    public TransportContext selectorSpinNs(final long v) { checkMutable(); selectorSpinNs = v; return this; }
    /** Yielding polls of the NIO selector before it blocks in {@code select}. */
    public int selectorYields() { return selectorYields; }
    public TransportContext selectorYields(final int v) { checkMutable(); selectorYields = v; return this; }
    /** Longest blocking {@code select} of the NIO selector, ms (default 100); 0 = until ready or woken. */
    public long selectorBlockMs() { return selectorBlockMs; }
    public TransportContext selectorBlockMs(final long v) { checkMutable(); selectorBlockMs = v; return this; }
    /** How long {@code requestSync} spins for its response before it blocks (round trips are usually shorter). */
    public long requestSpinNs() { return requestSpinNs; }
    public TransportContext requestSpinNs(final long v) { checkMutable(); requestSpinNs = v; return this; }
    public long idleMinParkNs() { return idleMinParkNs; }
    public TransportContext idleMinParkNs(final long v) { checkMutable(); idleMinParkNs = v; return this; }
    public long idleMaxParkNs() { return idleMaxParkNs; }
    public TransportContext idleMaxParkNs(final long v) { checkMutable(); idleMaxParkNs = v; return this; }
    /** Let the sending thread write the ring to the socket itself when no other thread is writing it. */
    public boolean directWrite() { return directWrite; }
    public TransportContext directWrite(final boolean v) { checkMutable(); directWrite = v; return this; }
    /**
     * NIO: a sending thread writes directly only if its connection's previous direct write is at least this old;
     * a faster sender leaves the writing to the selector loop, which batches what was committed meanwhile.
     */
    public long directWriteGapNs() { return directWriteGapNs; }
    public TransportContext directWriteGapNs(final long v) { checkMutable(); directWriteGapNs = v; return this; }
    /**
     * Parse incoming buffers on the thread that received them (the selector, or a loopback sender) instead of
     * handing them to the coordinator thread: one thread hand-off less per message. Handlers still run on handler
     * threads unless {@code handlerThreads} is 0; then a handler must never block (a {@code requestSync} inside
     * it would wait for a response that the very same thread has to read).
     */
    public boolean inlineCoordinator() { return inlineCoordinator; }
    public TransportContext inlineCoordinator(final boolean v) { checkMutable(); inlineCoordinator = v; return this; }
    /**
     * NIO with the inline coordinator: a thread blocked in {@code requestSync} takes the selector loop over while it
     * waits (leader/follower), so the response's socket wakes it directly rather than through the selector thread.
     */
    public boolean selectorHandover() { return selectorHandover; }
    public TransportContext selectorHandover(final boolean v) { checkMutable(); selectorHandover = v; return this; }
    public int socketBufferBytes() { return socketBufferBytes; }
    public TransportContext socketBufferBytes(final int v) { checkMutable(); socketBufferBytes = v; return this; }
    /**
     * The in-process fabric the loopback transport joins; tests may use private fabrics. Null (the default): the
     * loopback provider's JVM-wide shared fabric.
     */
    public InProcessFabric loopbackFabric() { return loopbackFabric; }
    public TransportContext loopbackFabric(final InProcessFabric v) { checkMutable(); loopbackFabric = v; return this; }
}
