package io.sirocco.transport.spi;

import java.util.concurrent.CompletableFuture;

import io.sirocco.transport.NodeUnreachableException;

/**
 * A network transport under the messaging core: the paper's five operations.
 * <ol>
 *   <li><b>signal data availability</b>: {@link #signal(Connection, int)} with {@link #DATA} after producers
 *       committed frames to the connection's ring (and with {@link #CREDITS} when flow-control credits are due);</li>
 *   <li><b>pull data from the ORB and send it</b>: the transport reads {@link Connection#outgoingRingBuffer()}
 *       ({@code prepareRead}/{@code copyTo}, then {@code consumed}) while holding its consumer lock;</li>
 *   <li><b>push received data to the incoming buffer queue</b>: {@link TransportEnvironment#pushIncoming};</li>
 *   <li><b>set up a connection</b>: {@link #connect(Connection, long)} opens the outgoing direction (the
 *       incoming one is announced by the peer and handed over with {@link TransportEnvironment#acceptIncoming});</li>
 *   <li><b>close a connection</b>: {@link #close(Connection)}.</li>
 * </ol>
 * Implementations are found with {@link java.util.ServiceLoader} through {@link TransportProvider}.
 *
 * <p>Threads: {@code connect} runs on the first sending thread (cold path, may block up to
 * {@link #connectBoundNs});
 * {@code signal} runs on any producer thread and the coordinator and must not block; {@code close} may run on
 * any thread and must be idempotent. A transport reports a failed or closed channel with
 * {@link TransportEnvironment#endOfStream}, never by throwing into a producer.
 */
public interface Transport
{
    /** Committed bytes wait in the connection's ring. */
    int DATA = 1;
    /** The connection's receiving half has flow-control credits to send back. */
    int CREDITS = 2;

    /** A short name for logs: {@code nio}, {@code loopback}, {@code ib}. */
    String name();

    /** Starts the transport's threads and listeners. */
    void start(TransportEnvironment environment);

    /** Opens the outgoing direction to {@code connection.nodeId()}; throws if that fails within the timeout. */
    void connect(Connection connection, long timeoutNs) throws NodeUnreachableException;

    /**
     * The longest {@link #connect} may take with this timeout: a transport that retries a handshake (NIO after a lost
     * crossed connect) takes up to a timeout per attempt. Threads that wait for another thread's connect use it.
     */
    default long connectBoundNs(final long timeoutNs)
    {
        return timeoutNs;
    }

    /** Signals {@link #DATA} and/or {@link #CREDITS} for a connection. Must not block. */
    void signal(Connection connection, int what);

    /** Closes both directions of the connection and releases its transport resources. Idempotent. */
    void close(Connection connection);

    /**
     * Called by a thread waiting in {@code requestSync} for {@code response}: a transport may let the caller do its
     * receiving meanwhile (NIO's leader/follower) so that the response wakes it directly. Returns true if the caller
     * should now block on the future at once (the transport waited, or spinning would only compete with its own
     * threads), false to let the core spin for {@code requestSpinNs} first. The default returns false at once.
     */
    default boolean awaitResponse(final CompletableFuture<?> response, final long deadlineNs)
    {
        return false;
    }

    /** Stops the transport's threads and closes its listeners. */
    void shutdown();
}
