package io.sirocco.transport;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One node's DXNet-style messaging endpoint: send messages to nodes by 16-bit id, make requests and get their
 * responses, and handle incoming messages by (type, subtype).
 *
 * <pre>{@code
 * TransportContext ctx = new TransportContext().ownNodeId(1).transport("nio");
 * ctx.addressMap().put(1, "127.0.0.1", 22221).put(2, "127.0.0.1", 22222);
 * try (MessagingService node = MessagingService.start(ctx)) {
 *     node.register(MY_TYPE, PING, Ping::new, ping -> node.respond(ping, new Pong()));
 *     node.registerMessageType(MY_TYPE, PONG, Pong::new);
 *     Pong pong = node.requestSync(new Ping(), 2, 1, TimeUnit.SECONDS);
 * }
 * }</pre>
 *
 * <p>Any number of services may run in one JVM (each with its own node id; the loopback transport connects those
 * that share a {@link InProcessFabric}), or one per process. See the package
 * documentation for the threading contract.
 */
public final class MessagingService implements AutoCloseable
{
    private final MessagingEngine core;
    private final TransportContext context;

    private MessagingService(final TransportContext context)
    {
        this.context = context.conclude();
        this.core = MessagingEngineFactory.loaded().create(context);
    }

    /** Creates and starts a node: listeners bound, threads running. */
    public static MessagingService start(final TransportContext context)
    {
        final MessagingService service = new MessagingService(context);
        service.core.start();
        return service;
    }

    public int ownNodeId()
    {
        return context.ownNodeId();
    }

    public TransportContext context()
    {
        return context;
    }

    /** The mutable id-to-address map (shared with the context). */
    public NodeAddressMap addressMap()
    {
        return context.addressMap();
    }

    public TransportStatistics statistics()
    {
        return core.statistics();
    }

    /** Registers the class received for (type, subtype): requests, responses and plain messages alike. */
    public void registerMessageType(final int type, final int subtype, final Supplier<? extends Message> factory)
    {
        core.registerMessageType(type, subtype, factory);
    }

    /** Registers the handler for (type, subtype); its class must be registered too (see {@link #register}). */
    public <M extends Message> void registerHandler(final int type, final int subtype, final MessageHandler<M> handler)
    {
        core.registerHandler(type, subtype, handler);
    }

    /** Registers class and handler in one call. */
    public <M extends Message> void register(final int type, final int subtype, final Supplier<M> factory,
        final MessageHandler<M> handler)
    {
        core.registerMessageType(type, subtype, factory);
        core.registerHandler(type, subtype, handler);
    }

    /** Registers an allocation-free handler that reads payloads in place; it takes precedence over an object handler. */
    public void registerRawHandler(final int type, final int subtype, final RawMessageHandler handler)
    {
        core.registerRawHandler(type, subtype, handler);
    }

    public void addConnectionListener(final ConnectionListener listener)
    {
        core.addConnectionListener(listener);
    }

    public void removeConnectionListener(final ConnectionListener listener)
    {
        core.removeConnectionListener(listener);
    }

    /**
     * Sends asynchronously: serializes into the connection's ring and returns; the transport sends it later.
     * Connects on first use. Blocks only while the ring is full or the flow-control window is shut.
     *
     * @throws NodeUnreachableException if the node cannot be connected or the connection is lost while waiting
     */
    public void send(final Message message, final int nodeId)
    {
        core.send(message, nodeId);
    }

    /**
     * Opens the connection to {@code nodeId} if it is not open yet, sending nothing; returns at once if it is open.
     * For a sender that never waits in {@link #send(Message, int)} (it sends only when {@link #canSendNow} says so)
     * and so must have the connection made by another thread.
     *
     * @throws NodeUnreachableException if the node cannot be connected
     */
    public void connect(final int nodeId)
    {
        core.connect(nodeId);
    }

    /**
     * A hint for threads that must not wait, such as a message handler that sends on the receiving thread: whether a
     * message of {@code payloadBytes} to {@code nodeId} would be sent now, with no connect and no wait for the
     * flow-control window or ring space. Another sender may take the room first.
     *
     * @param nodeId       destination node.
     * @param payloadBytes the message's payload size.
     * @return true if {@link #send(Message, int)} would not wait now.
     */
    public boolean canSendNow(final int nodeId, final int payloadBytes)
    {
        return core.canSendNow(nodeId, payloadBytes);
    }

    /** Sends the same message to each node in turn (serialized once per connection). */
    public void send(final Message message, final int... nodeIds)
    {
        for (final int nodeId : nodeIds)
        {
            core.send(message, nodeId);
        }
    }

    /**
     * Sends a request; the future completes with the matching response, or exceptionally with
     * {@link NodeUnreachableException} as soon as the connection is lost, or {@link RequestTimeoutException} after
     * the context's {@code requestTimeoutMs}. The future may complete on the coordinator thread: use the
     * {@code *Async} variants for callbacks that block.
     */
    public <R extends Response> CompletableFuture<R> request(final Request request, final int nodeId)
    {
        return core.request(request, nodeId, 0);
    }

    public <R extends Response> CompletableFuture<R> request(final Request request, final int nodeId,
        final long timeout, final TimeUnit unit)
    {
        return core.request(request, nodeId, unit.toNanos(timeout));
    }

    /**
     * Sends a request and waits for its response (spinning briefly, then blocking).
     *
     * @throws NodeUnreachableException if the node cannot be reached or the connection is lost meanwhile
     * @throws RequestTimeoutException if no response arrives within the timeout
     */
    public <R extends Response> R requestSync(final Request request, final int nodeId, final long timeout,
        final TimeUnit unit)
    {
        return core.requestSync(request, nodeId, unit.toNanos(timeout));
    }

    /** Answers a received request. */
    public void respond(final Request request, final Response response)
    {
        core.respond(request.sourceNodeId(), request.requestId(), response);
    }

    /** Answers a request received through a {@link RawMessageHandler}. */
    public void respond(final int nodeId, final int requestId, final Response response)
    {
        core.respond(nodeId, requestId, response);
    }

    /** Requests still waiting for a response. */
    public int outstandingRequests()
    {
        return core.outstandingRequests();
    }

    /** Sends what is queued (bounded wait), closes every connection, stops the threads. Idempotent. */
    @Override
    public void close()
    {
        core.close();
    }
}
