package io.sirocco.transport.orb;

import io.sirocco.transport.Message;

/**
 * The exceptions a failed export of a message into the ring ends in (the frame was already turned into padding, so
 * the connection stays usable). Stateless.
 */
final class ExportFailures
{
    private ExportFailures()
    {
    }

    /** The export wrote {@code written} bytes (-1: more than declared; -2: fewer) against {@code declared}. */
    static IllegalStateException sizeMismatch(final Message message, final int declared, final int written)
    {
        return new IllegalStateException(message.getClass().getName() + ".exportPayload wrote " +
            (written < 0 ? "more than" : String.valueOf(written)) + " bytes but payloadSize() declared " + declared +
            "; the frame was dropped");
    }

    /** What the writer throws for {@code failure}: a size mismatch as it is, anything else wrapped. */
    static IllegalStateException thrown(final Message message, final Throwable failure)
    {
        return failure instanceof IllegalStateException ise ? ise :
            new IllegalStateException("export of " + message.getClass().getName() + " failed", failure);
    }
}
