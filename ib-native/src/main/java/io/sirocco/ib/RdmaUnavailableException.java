package io.sirocco.ib;

/**
 * RDMA was explicitly chosen but this host cannot do it. The message names what is missing: the library
 * ({@code libibverbs.so.1}) or a device, and how to get one.
 */
public final class RdmaUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** A startup failure described by {@code message}. */
    public RdmaUnavailableException(final String message)
    {
        super(message);
    }
}
