package io.sirocco.ib.verbs;

/**
 * A libibverbs call failed, or the library could not be loaded. The message names the verb and its arguments or
 * the missing library, so a user can act on it without a stack trace.
 */
public final class VerbsException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}. */
    public VerbsException(final String message)
    {
        super(message);
    }

    /** A failure described by {@code message}, caused by {@code cause}. */
    public VerbsException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
