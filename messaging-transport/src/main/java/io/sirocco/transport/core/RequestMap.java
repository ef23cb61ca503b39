package io.sirocco.transport.core;

import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.RequestTimeoutException;
import io.sirocco.transport.spi.Connection;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Outstanding requests by id: an array indexed by {@code id & mask}. A requester claims a free slot with a CAS
 * (skipping ids whose slot is busy); whoever removes the entry by CAS (the response, the connection's failure, or
 * the timeout sweep) owns completing its future, so each request completes exactly once. Any thread.
 */
final class RequestMap
{
    private final AtomicReferenceArray<PendingRequest> slots;
    private final int mask;
    private final AtomicInteger nextId = new AtomicInteger();
    private final AtomicInteger outstanding = new AtomicInteger();

    RequestMap(final int size)
    {
        this.slots = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
    }

    PendingRequest register(final PendingRequest request)
    {
        for (int attempt = 0; attempt <= mask; attempt++)
        {
            final int id = nextId.incrementAndGet();
            if (id == 0)
            {
                continue;
            }
            if (slots.compareAndSet(id & mask, null, request))
            {
                request.requestId = id;
                outstanding.incrementAndGet();
                return request;
            }
        }
        throw new IllegalStateException("request map full: " + (mask + 1) + " requests outstanding " +
            "(raise sirocco.transport.request.map.size)");
    }

    PendingRequest remove(final int requestId, final int fromNodeId)
    {
        final int index = requestId & mask;
        final PendingRequest request = slots.get(index);
        if (request != null && request.requestId == requestId && request.nodeId == fromNodeId &&
            slots.compareAndSet(index, request, null))
        {
            outstanding.decrementAndGet();
            return request;
        }
        return null;
    }

    boolean cancel(final PendingRequest request)
    {
        if (slots.compareAndSet(request.requestId & mask, request, null))
        {
            outstanding.decrementAndGet();
            return true;
        }
        return false;
    }

    /** Fails every request written to (or waiting on) the given connection. */
    void failConnection(final Connection connection, final String reason)
    {
        if (outstanding.get() == 0)
        {
            return;
        }
        for (int i = 0; i <= mask; i++)
        {
            final PendingRequest request = slots.get(i);
            if (request != null && request.connection == connection && slots.compareAndSet(i, request, null))
            {
                outstanding.decrementAndGet();
                request.completeExceptionally(new NodeUnreachableException(request.nodeId, reason));
            }
        }
    }

    void expire(final long nowNs)
    {
        if (outstanding.get() == 0)
        {
            return;
        }
        for (int i = 0; i <= mask; i++)
        {
            final PendingRequest request = slots.get(i);
            if (request != null && nowNs - request.deadlineNs >= 0 && slots.compareAndSet(i, request, null))
            {
                outstanding.decrementAndGet();
                request.completeExceptionally(
                    new RequestTimeoutException(request.nodeId, request.requestId, request.timeoutNs));
            }
        }
    }

    int outstanding()
    {
        return outstanding.get();
    }
}
