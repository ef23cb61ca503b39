package io.sirocco.transport;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The node's messaging machinery behind {@link MessagingService}, as the public face sees it. It lives here and is
 * implemented in {@code io.sirocco.transport.core}, found through {@link MessagingEngineFactory} and
 * {@link java.util.ServiceLoader}, so that this package does not depend on the core, which depends on it. There is one
 * implementation, so the JIT devirtualises these calls. Not for applications: use {@link MessagingService}. The
 * threading contract is {@link MessagingService}'s.
 */
public interface MessagingEngine extends AutoCloseable
{
    /** Binds listeners and starts the threads. */
    void start();

    TransportStatistics statistics();

    void registerMessageType(int type, int subtype, Supplier<? extends Message> factory);

    void registerHandler(int type, int subtype, MessageHandler<? extends Message> handler);

    void registerRawHandler(int type, int subtype, RawMessageHandler handler);

    void addConnectionListener(ConnectionListener listener);

    void removeConnectionListener(ConnectionListener listener);

    void send(Message message, int nodeId);

    /** Opens the connection to {@code nodeId} if it is not open yet. */
    void connect(int nodeId);

    boolean canSendNow(int nodeId, int payloadBytes);

    void respond(int nodeId, int requestId, Response response);

    <R extends Response> CompletableFuture<R> request(Request request, int nodeId, long timeoutNs);

    <R extends Response> R requestSync(Request request, int nodeId, long timeoutNs);

    int outstandingRequests();

    @Override
    void close();
}
