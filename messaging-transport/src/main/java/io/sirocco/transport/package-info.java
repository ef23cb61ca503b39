/**
 * DXNet-style point-to-point messaging: 16-bit node ids and the node address map, the connection manager, the
 * outgoing ring buffer (ORB), message export/import, the incoming buffer queue and handler threads, credit-based
 * flow control, request/response matching, and the {@code nio} (TCP) and {@code loopback} transports behind a
 * transport SPI ({@link io.sirocco.transport.spi}) that {@code ib-native} also implements.
 *
 * <h2>Public API</h2>
 * {@link io.sirocco.transport.MessagingService} (the facade), {@link io.sirocco.transport.TransportContext} (the
 * configuration builder, defaults in {@link io.sirocco.transport.TransportConfiguration}),
 * {@link io.sirocco.transport.Message}, {@link io.sirocco.transport.Request}, {@link io.sirocco.transport.Response},
 * {@link io.sirocco.transport.Exporter}/{@link io.sirocco.transport.Importer},
 * {@link io.sirocco.transport.MessageHandler}, {@link io.sirocco.transport.RawMessageHandler},
 * {@link io.sirocco.transport.NodeAddressMap}, {@link io.sirocco.transport.ConnectionListener} and the exceptions
 * {@link io.sirocco.transport.NodeUnreachableException} and {@link io.sirocco.transport.RequestTimeoutException}.
 *
 * <h2>Threading contract</h2>
 * <ul>
 *   <li><b>Application threads</b>: {@code send}, {@code request}, {@code requestSync} and {@code respond} are
 *       thread-safe and lock-free on the data path: any number of threads may send to the same node at once; each
 *       serializes straight into that node's ring buffer (one CAS to reserve) and returns. The first send to a node
 *       connects (blocking, bounded by {@code connectTimeoutMs}). A send blocks only while the ring is full or the
 *       flow-control window is shut. A message object may be reused once {@code send} returns.</li>
 *   <li><b>Order</b>: frames from one sending thread to one node are carried in the order sent. Messages flagged
 *       {@link io.sirocco.transport.Message#ordered() ordered} are handled in that order (one handler thread per
 *       source node); unordered messages may be handled concurrently on several handler threads.</li>
 *   <li><b>Handlers</b> run on the node's handler threads ({@code handlerThreads}; if 0, on the thread that
 *       parses: the receiving thread with the inline coordinator, which may be a {@code requestSync} caller leading
 *       the NIO selector loop, and then they must never block). They may send and respond; they should not block on
 *       responses (that holds a handler thread). An exception from a handler is logged and counted; the connection
 *       stays up.</li>
 *   <li><b>Responses</b> complete their future on the parsing thread (by default the receiving thread: the NIO
 *       selector loop's leader or a loopback sender; the coordinator thread with {@code inlineCoordinator=false}):
 *       attach blocking callbacks with the {@code *Async} variants.</li>
 *   <li><b>Connection listeners</b> run on whichever transport thread saw the loss; they must not block.</li>
 *   <li><b>Registration</b> (types, handlers, listeners) may happen at any time from any thread; it is visible to
 *       frames parsed afterwards.</li>
 *   <li><b>Threads per node</b>: one coordinator, {@code handlerThreads} handlers, plus the transport's own (NIO:
 *       one selector thread, whose loop a {@code requestSync} caller may lead while it waits; loopback: none, the sending
 *       thread copies into the peer's queue). All are daemon
 *       threads and idle by spinning, then yielding, then parking ({@code idleSpins}, {@code idleYields},
 *       {@code idleMinParkNs}, {@code idleMaxParkNs}).</li>
 * </ul>
 *
 * <h2>Failures</h2>
 * A lost connection (peer closed or killed, I/O error) fails every request pending on it at once with
 * {@link io.sirocco.transport.NodeUnreachableException} naming the node; the next send reconnects. Bad input from a
 * peer (bad magic, bad length, unknown type, truncated frame, malformed payload) is logged at WARN naming the node,
 * its address and the reason, and closes only that connection.
 */
package io.sirocco.transport;
