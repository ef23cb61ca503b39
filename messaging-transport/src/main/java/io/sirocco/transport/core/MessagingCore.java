package io.sirocco.transport.core;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import io.sirocco.transport.ConnectionListener;
import io.sirocco.transport.Message;
import io.sirocco.transport.MessagingEngine;
import io.sirocco.transport.MessageHandler;
import io.sirocco.transport.NodeIds;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.RawMessageHandler;
import io.sirocco.transport.Request;
import io.sirocco.transport.RequestTimeoutException;
import io.sirocco.transport.Response;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.TransportException;
import io.sirocco.transport.TransportStatistics;
import io.sirocco.transport.spi.BufferPool;
import io.sirocco.transport.spi.IncomingBuffer;
import io.sirocco.transport.incoming.MessageCoordinator;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportEnvironment;
import io.sirocco.transport.spi.TransportProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * The transport-independent messaging core behind {@link io.sirocco.transport.MessagingService}: it wires the
 * {@link ConnectionManager}, the request map, the message directory, the coordinator and handler agents and the
 * {@link DirectoryDelivery}, sends and requests, and is the environment a {@link Transport} plugs into. Internal:
 * applications use the service facade. Thread-safe: its parts document their own concurrency.
 */
public final class MessagingCore implements TransportEnvironment, MessagingEngine
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
    private final ConnectionManager connections;
    private final TransportStatistics statistics = new TransportStatistics();
    private final long requestSpinNs;
    private final long requestTimeoutNs;
    private volatile boolean closed;

    public MessagingCore(final TransportContext context)
    {
        this.context = context.conclude();
        this.ownNodeId = context.ownNodeId();
        this.transport = loadTransport(context);
        this.bufferPool = new BufferPool(context.incomingBufferBytes(), context.incomingBufferCount());
        this.requests = new RequestMap(context.requestMapSize());
        this.connections = new ConnectionManager(context, transport, requests, statistics);
        final DirectoryDelivery delivery =
            new DirectoryDelivery(ownNodeId, directory, requests, connections, transport, statistics);
        this.coordinator = new MessageCoordinator(context, bufferPool, delivery, this::sweep, SWEEP_PERIOD_NS);
        this.requestTimeoutNs = context.requestTimeoutMs() * 1_000_000L;
        this.requestSpinNs = context.requestSpinNs();
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
        connections.closeAll();
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
        connections.addListener(listener);
    }

    public void removeConnectionListener(final ConnectionListener listener)
    {
        connections.removeListener(listener);
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
        final Connection existing = connections.existing(NodeIds.check(nodeId));
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
            return future.get(timeoutNs + 1_000_000_000L, TimeUnit.NANOSECONDS);
        }
        catch (final CompletionException | ExecutionException e)
        {
            throw Failures.rethrow(e.getCause());
        }
        catch (final TimeoutException e)
        {
            throw new RequestTimeoutException(nodeId, request.requestId(), timeoutNs);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new TransportException(nodeId, "interrupted while waiting for a response", e);
        }
    }

    // ------------------------------------------------------------------ connection manager

    @Override
    public void connect(final int nodeId)
    {
        connections.connection(nodeId);
    }

    /** The open connection to the node, connecting on first use. */
    public Connection connection(final int nodeId)
    {
        return connections.connection(nodeId);
    }

    /** Closes the connection once: transport channels, pending requests, listeners. Any thread. */
    public void closeConnection(final Connection connection, final String reason, final boolean error)
    {
        connections.closeConnection(connection, reason, error);
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
        return connections.acceptIncoming(nodeId);
    }

    @Override
    public void endOfStream(final Connection connection, final String reason)
    {
        coordinator.push(IncomingBuffer.endOfStream(connection, reason));
    }
}
