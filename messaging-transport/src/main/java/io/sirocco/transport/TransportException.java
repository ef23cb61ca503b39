package io.sirocco.transport;

/** A failure of the messaging transport that names the node it concerns. */
public class TransportException extends RuntimeException
{
    private final int nodeId;

    public TransportException(final int nodeId, final String message, final Throwable cause)
    {
        super(message, cause);
        this.nodeId = nodeId;
    }

    /** The node concerned, or {@link NodeIds#INVALID}. */
    public int nodeId()
    {
        return nodeId;
    }
}
