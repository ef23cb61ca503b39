package io.sirocco.transport;

/** No response arrived in time although the connection to the node stayed up. */
public final class RequestTimeoutException extends TransportException
{
    public RequestTimeoutException(final int nodeId, final int requestId, final long timeoutNs)
    {
        super(nodeId, "request " + requestId + " to node " + nodeId + " got no response within " +
            timeoutNs / 1_000_000 + " ms", null);
    }
}
