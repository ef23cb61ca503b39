package io.sirocco.transport;

/**
 * Thrown by an {@link Importer} that is asked for bytes beyond the payload it covers. A stackless singleton: it is
 * control flow for bad input from the network, caught by the transport, which logs the peer and closes the
 * connection.
 */
public final class MalformedPayloadException extends RuntimeException
{
    public static final MalformedPayloadException INSTANCE = new MalformedPayloadException();

    private MalformedPayloadException()
    {
        super("payload read past its end", null, false, false);
    }
}
