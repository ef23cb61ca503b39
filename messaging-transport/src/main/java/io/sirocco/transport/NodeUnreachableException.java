package io.sirocco.transport;

/**
 * The node cannot be reached: connecting failed, or the connection was lost (the peer closed, crashed, or sent bad
 * input). Pending requests to that node fail with it as soon as the loss is seen, not at their timeout.
 */
public final class NodeUnreachableException extends TransportException
{
    public NodeUnreachableException(final int nodeId, final String reason)
    {
        this(nodeId, reason, null);
    }

    public NodeUnreachableException(final int nodeId, final String reason, final Throwable cause)
    {
        super(nodeId, "node " + nodeId + " unreachable: " + reason, cause);
    }
}
