package io.sirocco.transport;

/**
 * The answer to a {@link Request}. Register its class with {@link MessagingService#registerMessageType}; no handler
 * is needed, since the transport completes the requester's future with it.
 */
public abstract class Response extends Message
{
    private int requestId;

    protected Response(final int type, final int subtype)
    {
        super(type, subtype);
    }

    /** The id of the request this answers. */
    public final int requestId()
    {
        return requestId;
    }

    /** Set by the transport only. */
    public final void requestId(final int requestId)
    {
        this.requestId = requestId;
    }
}
