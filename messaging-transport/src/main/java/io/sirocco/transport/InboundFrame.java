package io.sirocco.transport;

/** A received frame as seen by a {@link RawMessageHandler}: a reused view, valid during the callback only. */
public interface InboundFrame
{
    int sourceNodeId();

    int type();

    int subtype();

    boolean ordered();

    /** True if the sender expects a response: answer with {@link MessagingService#respond(int, int, Response)}. */
    boolean isRequest();

    /** The request id to answer, or 0 for a plain message. */
    int requestId();

    int payloadLength();

    Importer importer();
}
