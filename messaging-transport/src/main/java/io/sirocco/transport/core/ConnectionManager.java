package io.sirocco.transport.core;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.sirocco.transport.ConnectionListener;
import io.sirocco.transport.NodeIds;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.TransportStatistics;
import io.sirocco.transport.flow.FlowControl;
import io.sirocco.transport.log.RateLimitedWarning;
import io.sirocco.transport.orb.OutgoingRingBuffer;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.Transport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection manager: one {@link Connection} per node, opened on first use (the first caller connects, later
 * callers wait for its future), or when a peer's socket comes in; closed once, failing the node's pending requests
 * and telling the listeners; the least recently used one evicted past {@code maxConnections}.
 *
 * <p>Concurrency: the table is an {@link AtomicReferenceArray}; creating or replacing a node's connection happens
 * under that node's striped lock ({@code locks[nodeId & 255]}), the connect itself outside it (a transport may need
 * the peer's, or its own, lock meanwhile). The fast path of {@link #connection} (an open connection) takes no lock
 * and allocates nothing. {@link #closeConnection} is idempotent ({@code markClosed}) and may run on any thread.
 * A connection closed for bad input is a WARN, rate-limited: a remote peer can cause it again and again.
 */
final class ConnectionManager
{
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionManager.class);

    private final TransportContext context;
    private final int ownNodeId;
    private final Transport transport;
    private final RequestMap requests;
    private final TransportStatistics statistics;
    private final AtomicReferenceArray<Connection> connections = new AtomicReferenceArray<>(NodeIds.COUNT);
    private final Object[] locks = new Object[256];
    private final AtomicInteger connectionCount = new AtomicInteger();
    private final List<ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    private final RateLimitedWarning badInput = new RateLimitedWarning(LOG);
    private final long connectTimeoutNs;
    private volatile boolean closed;

    ConnectionManager(final TransportContext context, final Transport transport, final RequestMap requests,
        final TransportStatistics statistics)
    {
        this.context = context;
        this.ownNodeId = context.ownNodeId();
        this.transport = transport;
        this.requests = requests;
        this.statistics = statistics;
        this.connectTimeoutNs = context.connectTimeoutMs() * 1_000_000L;
        for (int i = 0; i < locks.length; i++)
        {
            locks[i] = new Object();
        }
    }

    void addListener(final ConnectionListener listener)
    {
        listeners.add(listener);
    }

    void removeListener(final ConnectionListener listener)
    {
        listeners.remove(listener);
    }

    /** The node's connection if there is one (open or not), without connecting. */
    Connection existing(final int nodeId)
    {
        return connections.get(nodeId);
    }

    /** The local node shuts down: drains and closes every connection; no new one is opened. */
    void closeAll()
    {
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
    }

    private Object lock(final int nodeId)
    {
        return locks[nodeId & (locks.length - 1)];
    }

    /** The open connection to the node, connecting on first use. */
    Connection connection(final int nodeId)
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
            connectNow(connection, connecting, nodeId);
        }
        else if (connecting != null)
        {
            awaitConnect(connecting, nodeId);
        }
        connection.touch(nowNs);
        evictIfNeeded(connection);
        return connection;
    }

    /** This caller makes the connect; others wait for {@code connecting}. */
    private void connectNow(final Connection connection, final CompletableFuture<Void> connecting, final int nodeId)
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

    /** Another caller connects: waits for it, bounded by the transport's longest connect. */
    private void awaitConnect(final CompletableFuture<Void> connecting, final int nodeId)
    {
        try
        {
            connecting.get(transport.connectBoundNs(connectTimeoutNs) + 1_000_000_000L, TimeUnit.NANOSECONDS);
        }
        catch (final ExecutionException e)
        {
            throw Failures.rethrow(e.getCause());
        }
        catch (final TimeoutException | InterruptedException e)
        {
            throw new NodeUnreachableException(nodeId, "connect did not finish: " + e, e);
        }
    }

    private Connection newConnection(final int nodeId)
    {
        final ConnectionSignals signals = new ConnectionSignals(transport, context.idleSpins(), context.idleYields());
        final Connection connection = new Connection(nodeId,
            new OutgoingRingBuffer(context.ringBufferBytes(), context.catchUpBufferEntries(), statistics::ringAllocated),
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

    /** A peer's socket came in: the node's connection, replacing one that already had an incoming socket. */
    Connection acceptIncoming(final int nodeId)
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

    /** The peer ended the connection's stream (EOF, reset, failed write): closes it, telling listeners so. */
    void streamEnded(final Connection connection, final String reason)
    {
        closeConnection(connection, reason, false, true);
    }

    /** Closes the connection once: transport channels, pending requests, listeners. Any thread. */
    void closeConnection(final Connection connection, final String reason, final boolean error)
    {
        closeConnection(connection, reason, error, false);
    }

    private void closeConnection(final Connection connection, final String reason, final boolean error,
        final boolean peerEnded)
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
            badInput.warn("node {}: closed connection to node {}{}: {}", ownNodeId, connection.nodeId(),
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
                listener.onConnectionClosed(connection.nodeId(), reason, peerEnded);
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
}
