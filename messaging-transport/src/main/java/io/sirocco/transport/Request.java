package io.sirocco.transport;

/**
 * A message that expects one {@link Response}. The transport assigns its request id when it is sent and matches
 * the response to it; the receiving handler answers with {@link MessagingService#respond(Request, Response)}.
 */
public abstract class Request extends Message
{
    private int requestId;

    protected Request(final int type, final int subtype)
    {
        super(type, subtype);
    }

    protected Request(final int type, final int subtype, final boolean ordered)
    {
        super(type, subtype, ordered);
    }

    /** The id the transport gave this request (on the receiver: the id to answer). */
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
