package io.sirocco.transport.core;

import io.sirocco.transport.Response;
import io.sirocco.transport.spi.Connection;

import java.util.concurrent.CompletableFuture;

/** The future of one outstanding request; lives in the {@link RequestMap} until answered, failed or expired. */
final class PendingRequest extends CompletableFuture<Response>
{
    final int nodeId;
    final long deadlineNs;
    final long timeoutNs;
    int requestId;
    volatile Connection connection;

    PendingRequest(final int nodeId, final long deadlineNs, final long timeoutNs)
    {
        this.nodeId = nodeId;
        this.deadlineNs = deadlineNs;
        this.timeoutNs = timeoutNs;
    }
}
