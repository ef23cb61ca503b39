package io.sirocco.transport.core;

import io.sirocco.transport.ConnectionListener;
import io.sirocco.transport.MalformedPayloadException;
import io.sirocco.transport.Message;
import io.sirocco.transport.MessageHandler;
import io.sirocco.transport.MessageTypes;
import io.sirocco.transport.NodeIds;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.RawMessageHandler;
import io.sirocco.transport.Request;
import io.sirocco.transport.Response;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.TransportException;
import io.sirocco.transport.TransportStatistics;
import io.sirocco.transport.flow.FlowControl;
import io.sirocco.transport.incoming.BufferPool;
import io.sirocco.transport.incoming.InboundDelivery;
import io.sirocco.transport.incoming.InboundMessage;
import io.sirocco.transport.incoming.IncomingBuffer;
import io.sirocco.transport.incoming.MessageCoordinator;
import io.sirocco.transport.incoming.SegmentImporter;
import io.sirocco.transport.orb.OutgoingRingBuffer;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportEnvironment;
import io.sirocco.transport.spi.TransportProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * The transport-independent messaging core behind {@link io.sirocco.transport.MessagingService}: connection
 * manager, request map, message directory, coordinator and handler threads, and the environment a
 * {@link Transport} plugs into. Internal: applications use the service facade.
 */
public final class MessagingCore implements InboundDelivery, TransportEnvironment
{
    private static final Logger LOG = LoggerFactory.getLogger(MessagingCore.class);
    private static final long SWEEP_PERIOD_NS = 10_000_000L;

    private final TransportContext context;
    private final int ownNodeId;
    private final Transport transport;
    private final BufferPool bufferPool;
    private final MessageCoordinator coordinator;
    private final MessageDirectory directory = new MessageDirectory();
    private final RequestMap requests;
    private final AtomicReferenceArray<Connection> connections = new AtomicReferenceArray<>(NodeIds.COUNT);
    private final Object[] locks = new Object[256];
    private final AtomicInteger connectionCount = new AtomicInteger();
    private final List<ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    private final TransportStatistics statistics = new TransportStatistics();
    private final ThreadLocal<InboundFrameView> frames = ThreadLocal.withInitial(InboundFrameView::new);
    private final long requestSpinNs;
    private final long connectTimeoutNs;
    private final long requestTimeoutNs;
    private volatile boolean closed;

    public MessagingCore(final TransportContext context)
    {
        this.context = context.conclude();
        this.ownNodeId = context.ownNodeId();
        this.transport = loadTransport(context);
        this.bufferPool = new BufferPool(context.incomingBufferBytes(), context.incomingBufferCount());
        this.requests = new RequestMap(context.requestMapSize());
        this.coordinator = new MessageCoordinator(context, bufferPool, this, this::sweep, SWEEP_PERIOD_NS);
        this.connectTimeoutNs = context.connectTimeoutMs() * 1_000_000L;
        this.requestTimeoutNs = context.requestTimeoutMs() * 1_000_000L;
        this.requestSpinNs = context.requestSpinNs();
        for (int i = 0; i < locks.length; i++)
        {
            locks[i] = new Object();
        }
    }

    private static Transport loadTransport(final TransportContext context)
    {
        final List<String> names = new ArrayList<>();
        for (final TransportProvider provider : ServiceLoader.load(TransportProvider.class))
        {
            if (provider.name().equals(context.transport()))
            {
                return provider.create(context);
            }
            names.add(provider.name());
        }
        throw new IllegalArgumentException("no transport provider named '" + context.transport() +
            "' (sirocco.transport.name); available: " + names);
    }

    public void start()
    {
        coordinator.start();
        transport.start(this);
        LOG.debug("node {} started on transport {}", ownNodeId, transport.name());
    }

    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (int node = 0; node < NodeIds.COUNT; node++)
        {
            final Connection connection = connections.get(node);
            if (connection != null)
            {
                drain(connection, 1_000_000_000L);
                closeConnection(connection, "local node " + ownNodeId + " shut down", false);
            }
        }
        transport.shutdown();
        try
        {
            coordinator.stop();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    public boolean isClosed()
    {
        return closed;
    }

    public Transport transport()
    {
        return transport;
    }

    @Override
    public TransportStatistics statistics()
    {
        return statistics;
    }

    // ------------------------------------------------------------------ registration

    public void registerMessageType(final int type, final int subtype, final Supplier<? extends Message> factory)
    {
        directory.registerFactory(type, subtype, factory);
    }

    public void registerHandler(final int type, final int subtype, final MessageHandler<? extends Message> handler)
    {
        directory.registerHandler(type, subtype, handler);
    }

    public void registerRawHandler(final int type, final int subtype, final RawMessageHandler handler)
    {
        directory.registerRawHandler(type, subtype, handler);
    }

    public void addConnectionListener(final ConnectionListener listener)
    {
        listeners.add(listener);
    }

    public void removeConnectionListener(final ConnectionListener listener)
    {
        listeners.remove(listener);
    }

    // ------------------------------------------------------------------ sending

    public void send(final Message message, final int nodeId)
    {
        if (message instanceof Response)
        {
            throw new IllegalArgumentException("send a Response with respond(request, response)");
        }
        final Connection connection = connection(nodeId);
        connection.outgoingRingBuffer().write(message, message instanceof Request ? KIND_REQUEST : KIND_MESSAGE, 0,
            connection.flowControl(), connection.signals());
    }

    /**
     * Whether a message of {@code payloadBytes} to {@code nodeId} would be sent now without waiting (an open
     * connection exists, the flow-control window and the ring have room). A hint for threads that must not wait
     * (the receiving thread, which alone reads the credits that end a wait); never connects.
     */
    public boolean canSendNow(final int nodeId, final int payloadBytes)
    {
        final Connection existing = connections.get(NodeIds.check(nodeId));
        return existing != null && existing.outgoingOpen() && !existing.isClosed()
            && existing.outgoingRingBuffer().canWriteNow(payloadBytes, existing.flowControl());
    }

    public void respond(final int nodeId, final int requestId, final Response response)
    {
        response.requestId(requestId);
        final Connection connection = connection(nodeId);
        connection.outgoingRingBuffer().write(response, KIND_RESPONSE, requestId, connection.flowControl(),
            connection.signals());
    }

    @SuppressWarnings("unchecked")
    public <R extends Response> CompletableFuture<R> request(final Request request, final int nodeId, final long timeoutNs)
    {
        NodeIds.check(nodeId);
        final long effectiveNs = timeoutNs > 0 ? timeoutNs : requestTimeoutNs;
        final PendingRequest pending = requests.register(
            new PendingRequest(nodeId, System.nanoTime() + effectiveNs, effectiveNs));
        request.requestId(pending.requestId);
        try
        {
            final Connection connection = connection(nodeId);
            pending.connection = connection;
            if (connection.isClosed())
            {
                throw new NodeUnreachableException(nodeId, connection.closeReason());
            }
            connection.outgoingRingBuffer().write(request, KIND_REQUEST, pending.requestId, connection.flowControl(),
                connection.signals());
        }
        catch (final RuntimeException e)
        {
            if (requests.cancel(pending))
            {
                pending.completeExceptionally(e);
            }
        }
        return (CompletableFuture<R>)(CompletableFuture<?>)pending;
    }

    /**
     * Waits for the response: the transport may lead its receiving meanwhile ({@link Transport#awaitResponse});
     * otherwise the caller spins up to {@code requestSpinNs}, then blocks on the future.
     */
    @SuppressWarnings("unchecked")
    public <R extends Response> R requestSync(final Request request, final int nodeId, final long timeoutNs)
    {
        final CompletableFuture<R> future = request(request, nodeId, timeoutNs);
        if (!future.isDone() && !transport.awaitResponse(future, System.nanoTime() + timeoutNs))
        {
            final long spinEndNs = System.nanoTime() + requestSpinNs;
            while (!future.isDone() && System.nanoTime() - spinEndNs < 0)
            {
                Thread.onSpinWait();
            }
        }
        try
        {
            if (future.isDone())
            {
                return future.join();
            }
            // The request map's sweep completes the future at the deadline; the extra bound only guards a stall.
            return future.get(timeoutNs + 1_000_000_000L, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
        catch (final CompletionException | ExecutionException e)
        {
            throw rethrow(e.getCause());
        }
        catch (final TimeoutException e)
        {
            throw new io.sirocco.transport.RequestTimeoutException(nodeId, request.requestId(), timeoutNs);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new TransportException(nodeId, "interrupted while waiting for a response", e);
        }
    }

    private static RuntimeException rethrow(final Throwable cause)
    {
        if (cause instanceof RuntimeException runtime)
        {
            return runtime;
        }
        if (cause instanceof Error error)
        {
            throw error;
        }
        return new TransportException(NodeIds.INVALID, String.valueOf(cause), cause);
    }

    // ------------------------------------------------------------------ connection manager

    private Object lock(final int nodeId)
    {
        return locks[nodeId & (locks.length - 1)];
    }

    /** The open connection to the node, connecting on first use. */
    public Connection connection(final int nodeId)
    {
        final Connection existing = connections.get(NodeIds.check(nodeId));
        final long nowNs = System.nanoTime();
        if (existing != null && existing.outgoingOpen() && !existing.isClosed())
        {
            existing.touch(nowNs);
            return existing;
        }
        if (closed)
        {
            throw new NodeUnreachableException(nodeId, "local node " + ownNodeId + " is shut down");
        }
        final Connection connection;
        final CompletableFuture<Void> connecting;
        final boolean mine;
        synchronized (lock(nodeId))
        {
            Connection current = connections.get(nodeId);
            if (current == null || current.isClosed())
            {
                current = newConnection(nodeId);
            }
            connection = current;
            if (connection.outgoingOpen())
            {
                connecting = null;
                mine = false;
            }
            else if (connection.connecting() != null)
            {
                connecting = connection.connecting();
                mine = false;
            }
            else
            {
                connecting = new CompletableFuture<>();
                connection.connecting(connecting);
                mine = true;
            }
        }
        // The connect runs outside the per-node lock: a transport may need the peer's (or our own) lock meanwhile.
        if (mine)
        {
            try
            {
                transport.connect(connection, connectTimeoutNs);
                connection.outgoingOpen(true);
                connecting.complete(null);
            }
            catch (final RuntimeException e)
            {
                final NodeUnreachableException failure = e instanceof NodeUnreachableException unreachable ? unreachable :
                    new NodeUnreachableException(nodeId, "connect failed: " + e.getMessage(), e);
                synchronized (lock(nodeId))
                {
                    connection.connecting(null);
                }
                connecting.completeExceptionally(failure);
                if (!connection.incomingOpen())
                {
                    closeConnection(connection, "connect failed: " + e.getMessage(), false);
                }
                throw failure;
            }
        }
        else if (connecting != null)
        {
            try
            {
                connecting.get(transport.connectBoundNs(connectTimeoutNs) + 1_000_000_000L,
                    java.util.concurrent.TimeUnit.NANOSECONDS);
            }
            catch (final ExecutionException e)
            {
                throw rethrow(e.getCause());
            }
            catch (final TimeoutException | InterruptedException e)
            {
                throw new NodeUnreachableException(nodeId, "connect did not finish: " + e, e);
            }
        }
        connection.touch(nowNs);
        evictIfNeeded(connection);
        return connection;
    }

    private Connection newConnection(final int nodeId)
    {
        final ConnectionSignals signals = new ConnectionSignals(transport, context.idleSpins(), context.idleYields());
        final Connection connection = new Connection(nodeId,
            new OutgoingRingBuffer(context.ringBufferBytes(), context.catchUpBufferEntries()),
            new FlowControl(context.flowControlWindowBytes(), context.flowControlThreshold()), signals);
        signals.bind(connection);
        connections.set(nodeId, connection);
        connectionCount.incrementAndGet();
        statistics.connectionOpened();
        return connection;
    }

    private void evictIfNeeded(final Connection keep)
    {
        while (connectionCount.get() > context.maxConnections())
        {
            Connection victim = null;
            for (int node = 0; node < NodeIds.COUNT; node++)
            {
                final Connection candidate = connections.get(node);
                if (candidate != null && candidate != keep && !candidate.isClosed() &&
                    (victim == null || candidate.lastUsedNs() - victim.lastUsedNs() < 0))
                {
                    victim = candidate;
                }
            }
            if (victim == null)
            {
                return;
            }
            drain(victim, 1_000_000_000L);
            closeConnection(victim, "evicted as least recently used (max connections " + context.maxConnections() + ")", false);
        }
    }

    /** Waits (bounded) until the connection's ring has been sent. */
    private void drain(final Connection connection, final long boundNs)
    {
        final long deadline = System.nanoTime() + boundNs;
        while (!connection.isClosed() && connection.outgoingRingBuffer().readableBytes() > 0 &&
            System.nanoTime() - deadline < 0)
        {
            transport.signal(connection, Transport.DATA);
            Thread.yield();
        }
    }

    /** Closes the connection once: transport channels, pending requests, listeners. Any thread. */
    public void closeConnection(final Connection connection, final String reason, final boolean error)
    {
        if (!connection.markClosed(reason))
        {
            return;
        }
        if (connections.compareAndSet(connection.nodeId(), connection, null))
        {
            connectionCount.decrementAndGet();
        }
        statistics.connectionClosed();
        if (error)
        {
            statistics.protocolError();
        }
        try
        {
            transport.close(connection);
        }
        catch (final RuntimeException e)
        {
            LOG.debug("closing transport channels of node {}", connection.nodeId(), e);
        }
        requests.failConnection(connection, reason);
        if (error)
        {
            LOG.warn("node {}: closed connection to node {}{}: {}", ownNodeId, connection.nodeId(),
                peerSuffix(connection), reason);
        }
        else
        {
            LOG.debug("node {}: closed connection to node {}: {}", ownNodeId, connection.nodeId(), reason);
        }
        for (final ConnectionListener listener : listeners)
        {
            try
            {
                listener.onConnectionClosed(connection.nodeId(), reason);
            }
            catch (final RuntimeException e)
            {
                LOG.error("connection listener failed for node {}", connection.nodeId(), e);
            }
        }
    }

    private static String peerSuffix(final Connection connection)
    {
        final String peer = connection.peerDescription();
        return peer == null ? "" : " (" + peer + ")";
    }

    private void sweep()
    {
        requests.expire(System.nanoTime());
    }

    public int outstandingRequests()
    {
        return requests.outstanding();
    }

    // ------------------------------------------------------------------ TransportEnvironment

    @Override
    public int ownNodeId()
    {
        return ownNodeId;
    }

    @Override
    public TransportContext context()
    {
        return context;
    }

    @Override
    public BufferPool bufferPool()
    {
        return bufferPool;
    }

    @Override
    public void pushIncoming(final IncomingBuffer buffer)
    {
        coordinator.push(buffer);
    }

    @Override
    public Connection acceptIncoming(final int nodeId)
    {
        synchronized (lock(NodeIds.check(nodeId)))
        {
            Connection current = connections.get(nodeId);
            if (current != null && !current.isClosed() && current.incomingOpen())
            {
                closeConnection(current, "node " + nodeId + " reconnected (restarted?)", false);
                current = null;
            }
            if (current == null || current.isClosed())
            {
                current = newConnection(nodeId);
            }
            current.incomingOpen(true);
            return current;
        }
    }

    @Override
    public void endOfStream(final Connection connection, final String reason)
    {
        coordinator.push(IncomingBuffer.endOfStream(connection, reason));
    }

    // ------------------------------------------------------------------ InboundDelivery

    @Override
    public boolean accepts(final int kind, final int type, final int subtype)
    {
        final int key = MessageTypes.key(type, subtype);
        if (type == 0)
        {
            return false;
        }
        if (kind == KIND_RESPONSE)
        {
            return directory.factory(key) != null;
        }
        return directory.rawHandler(key) != null || (directory.factory(key) != null && directory.handler(key) != null);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public String deliver(final InboundMessage inbound, final SegmentImporter importer)
    {
        final int key = MessageTypes.key(inbound.type(), inbound.subtype());
        final int kind = kind(inbound.flags());
        final int source = inbound.connection().nodeId();
        importer.wrap(inbound.segment(), inbound.offset(), inbound.length());
        if (kind == KIND_RESPONSE)
        {
            final PendingRequest pending = requests.remove(inbound.requestId(), source);
            if (pending == null)
            {
                return null; // a late response: its request timed out or was cancelled
            }
            final Message message = directory.factory(key).get();
            if (!(message instanceof Response response))
            {
                pending.completeExceptionally(new IllegalStateException("type (" + inbound.type() + ", " +
                    inbound.subtype() + ") is registered with " + message.getClass().getName() + ", not a Response"));
                return null;
            }
            final String malformed = importInto(response, inbound, importer);
            if (malformed != null)
            {
                pending.completeExceptionally(new NodeUnreachableException(source, malformed));
                return malformed;
            }
            response.sourceNodeId(source);
            response.requestId(inbound.requestId());
            pending.complete(response);
            return null;
        }
        final RawMessageHandler raw = directory.rawHandler(key);
        if (raw != null)
        {
            final InboundFrameView frame = frames.get();
            frame.sourceNodeId = source;
            frame.type = inbound.type();
            frame.subtype = inbound.subtype();
            frame.flags = inbound.flags();
            frame.requestId = inbound.requestId();
            frame.payloadLength = inbound.length();
            frame.importer = importer;
            try
            {
                raw.onMessage(frame);
            }
            catch (final MalformedPayloadException e)
            {
                return "malformed payload of type (" + inbound.type() + ", " + inbound.subtype() + ")";
            }
            catch (final Throwable t)
            {
                statistics.handlerError();
                LOG.error("node {}: raw handler for type ({}, {}) from node {} failed", ownNodeId, inbound.type(),
                    inbound.subtype(), source, t);
            }
            finally
            {
                frame.importer = null;
            }
            return null;
        }
        final Message message = directory.factory(key).get();
        if (kind == KIND_REQUEST && !(message instanceof Request))
        {
            return "a request frame for type (" + inbound.type() + ", " + inbound.subtype() + ") registered as " +
                message.getClass().getName() + ", which is not a Request";
        }
        final String malformed = importInto(message, inbound, importer);
        if (malformed != null)
        {
            return malformed;
        }
        message.sourceNodeId(source);
        if (message instanceof Request request)
        {
            request.requestId(inbound.requestId());
        }
        final MessageHandler handler = directory.handler(key);
        try
        {
            handler.onMessage(message);
        }
        catch (final Throwable t)
        {
            statistics.handlerError();
            LOG.error("node {}: handler for {} from node {} failed", ownNodeId, message.getClass().getName(), source, t);
        }
        return null;
    }

    private static String importInto(final Message message, final InboundMessage inbound, final SegmentImporter importer)
    {
        try
        {
            message.importPayload(importer);
        }
        catch (final MalformedPayloadException e)
        {
            return "malformed payload: " + message.getClass().getName() + " read past its " + inbound.length() +
                " payload bytes";
        }
        catch (final RuntimeException e)
        {
            return "malformed payload: " + message.getClass().getName() + ".importPayload failed: " + e;
        }
        if (importer.remaining() != 0)
        {
            return "malformed payload: " + message.getClass().getName() + " read " +
                (inbound.length() - importer.remaining()) + " of " + inbound.length() + " payload bytes";
        }
        return null;
    }

    @Override
    public void protocolError(final Connection connection, final String reason)
    {
        closeConnection(connection, "bad input from node " + connection.nodeId() + ": " + reason, true);
    }

    @Override
    public void streamEnded(final Connection connection, final String reason)
    {
        closeConnection(connection, reason, false);
    }

    @Override
    public void creditsPending(final Connection connection)
    {
        transport.signal(connection, Transport.CREDITS);
    }
}
