package io.sirocco.transport;

import java.util.List;

import io.sirocco.transport.config.Setting;
import io.sirocco.transport.config.SettingsCatalog;

import static io.sirocco.transport.TransportConfiguration.*;

/**
 * Every {@code sirocco.transport.*} setting of {@link TransportConfiguration}, for {@code docs/configuration.md} and
 * the unknown-key warning ({@link io.sirocco.transport.config.UnknownSettings}). Registered in
 * {@code META-INF/services}. Stateless.
 */
public final class TransportSettingsCatalog implements SettingsCatalog
{
    @Override
    public String module()
    {
        return "transport";
    }

    @Override
    public List<Setting> settings()
    {
        return java.util.stream.Stream.concat(connections().stream(), tuning().stream()).toList();
    }

    /** The transport, rings, flow control, connections and handshakes. */
    private static List<Setting> connections()
    {
        return List.of(
            new Setting(TRANSPORT_PROP, TRANSPORT_DEFAULT, "transport provider: nio, loopback, or one from ib-native"),
            new Setting(RING_BUFFER_BYTES_PROP, String.valueOf(RING_BUFFER_BYTES_DEFAULT),
                "outgoing ring buffer per connection, bytes (power of two)"),
            new Setting(CATCH_UP_BUFFER_ENTRIES_PROP, String.valueOf(CATCH_UP_BUFFER_ENTRIES_DEFAULT),
                "catch-up buffer slots per ring (power of two)"),
            new Setting(FLOW_CONTROL_WINDOW_BYTES_PROP, String.valueOf(FLOW_CONTROL_WINDOW_BYTES_DEFAULT),
                "bytes a sender may have unconfirmed per connection"),
            new Setting(FLOW_CONTROL_THRESHOLD_PROP, String.valueOf(FLOW_CONTROL_THRESHOLD_DEFAULT),
                "fraction of the window the receiver confirms at a time"),
            new Setting(MAX_CONNECTIONS_PROP, String.valueOf(MAX_CONNECTIONS_DEFAULT),
                "open connections before the least recently used is closed"),
            new Setting(CONNECT_TIMEOUT_MS_PROP, String.valueOf(CONNECT_TIMEOUT_MS_DEFAULT),
                "TCP connect timeout per handshake, ms"),
            new Setting(HANDSHAKE_TIMEOUT_MS_PROP, String.valueOf(HANDSHAKE_TIMEOUT_MS_DEFAULT),
                "time an accepted socket has to send its whole hello before it is closed, ms"),
            new Setting(HANDSHAKE_PENDING_MAX_PROP, String.valueOf(HANDSHAKE_PENDING_MAX_DEFAULT),
                "accepted sockets with an incomplete hello; past it the oldest is closed"),
            new Setting(REQUEST_TIMEOUT_MS_PROP, String.valueOf(REQUEST_TIMEOUT_MS_DEFAULT),
                "timeout of request(...) without an explicit one, ms"),
            new Setting(REQUEST_MAP_SIZE_PROP, String.valueOf(REQUEST_MAP_SIZE_DEFAULT),
                "outstanding requests per node (power of two)"));
    }

    /** Threads, queues, buffers and idling. */
    private static List<Setting> tuning()
    {
        return List.of(
            new Setting(HANDLER_THREADS_PROP, String.valueOf(HANDLER_THREADS_DEFAULT),
                "handler threads; 0 runs handlers on the coordinator or receiving thread"),
            new Setting(HANDLER_SPIN_NS_PROP, "-1 (auto: 20000, or 0 over nio with fewer than 4 cores)",
                "how long a handler thread spins after its queue ran empty, ns"),
            new Setting(HANDLER_QUEUE_CAPACITY_PROP, String.valueOf(HANDLER_QUEUE_CAPACITY_DEFAULT),
                "parsed messages queued per handler thread (power of two)"),
            new Setting(INCOMING_BUFFER_BYTES_PROP, String.valueOf(INCOMING_BUFFER_BYTES_DEFAULT),
                "size of a pooled receive buffer, bytes"),
            new Setting(INCOMING_BUFFER_COUNT_PROP, String.valueOf(INCOMING_BUFFER_COUNT_DEFAULT),
                "receive buffers allocated at start"),
            new Setting(INCOMING_QUEUE_CAPACITY_PROP, String.valueOf(INCOMING_QUEUE_CAPACITY_DEFAULT),
                "incoming buffer queue slots (power of two)"),
            new Setting(MAX_MESSAGE_BYTES_PROP, String.valueOf(MAX_MESSAGE_BYTES_DEFAULT),
                "largest payload accepted from the network, bytes"),
            new Setting(IDLE_SPINS_PROP, "2000, or 0 with fewer than 4 cores",
                "empty polls an idle coordinator or handler thread spins before yielding"),
            new Setting(IDLE_YIELDS_PROP, "200, or 0 with fewer than 4 cores", "yields before parking"),
            new Setting(IDLE_MIN_PARK_NS_PROP, String.valueOf(IDLE_MIN_PARK_NS_DEFAULT), "first park period, ns"),
            new Setting(IDLE_MAX_PARK_NS_PROP, String.valueOf(IDLE_MAX_PARK_NS_DEFAULT), "longest park period, ns"),
            new Setting(SELECTOR_SPINS_PROP, String.valueOf(SELECTOR_SPINS_DEFAULT),
                "empty selectNow polls of the NIO selector before it yields"),
            new Setting(SELECTOR_SPIN_NS_PROP, String.valueOf(SELECTOR_SPIN_NS_DEFAULT),
                "the NIO selector's spin window after request/response work, ns; 0 turns it off"),
            new Setting(SELECTOR_YIELDS_PROP, String.valueOf(SELECTOR_YIELDS_DEFAULT),
                "yielding polls of the NIO selector before it blocks"),
            new Setting(SELECTOR_BLOCK_MS_PROP, String.valueOf(SELECTOR_BLOCK_MS_DEFAULT),
                "longest blocking select of the NIO selector, ms; 0 blocks until ready or woken"),
            new Setting(REQUEST_SPIN_NS_PROP, String.valueOf(REQUEST_SPIN_NS_DEFAULT),
                "how long requestSync spins before it blocks (loopback, ib), ns"),
            new Setting(DIRECT_WRITE_PROP, String.valueOf(DIRECT_WRITE_DEFAULT),
                "the sending thread writes the ring to the socket when no other thread is"),
            new Setting(DIRECT_WRITE_GAP_NS_PROP, String.valueOf(DIRECT_WRITE_GAP_NS_DEFAULT),
                "NIO: least age of a connection's previous direct write before the next, ns"),
            new Setting(INLINE_COORDINATOR_PROP, String.valueOf(INLINE_COORDINATOR_DEFAULT),
                "parse on the receiving thread instead of the coordinator thread"),
            new Setting(SELECTOR_HANDOVER_PROP, String.valueOf(SELECTOR_HANDOVER_DEFAULT),
                "NIO: a thread blocked in requestSync leads the selector loop while it waits"),
            new Setting(SOCKET_BUFFER_BYTES_PROP, String.valueOf(SOCKET_BUFFER_BYTES_DEFAULT),
                "SO_SNDBUF and SO_RCVBUF of every connection's socket, bytes"));
    }
}
