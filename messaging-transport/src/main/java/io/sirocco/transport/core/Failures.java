package io.sirocco.transport.core;

import io.sirocco.transport.NodeIds;
import io.sirocco.transport.TransportException;

/**
 * Turns the cause of a failed future back into what the caller throws: a runtime exception as it is, an error
 * rethrown, anything else wrapped in a {@link TransportException}. Stateless.
 */
final class Failures
{
    private Failures()
    {
    }

    static RuntimeException rethrow(final Throwable cause)
    {
        if (cause instanceof RuntimeException runtime)
        {
            return runtime;
        }
        if (cause instanceof Error error)
        {
            throw error;
        }
        return new TransportException(NodeIds.INVALID, String.valueOf(cause), cause);
    }
}
