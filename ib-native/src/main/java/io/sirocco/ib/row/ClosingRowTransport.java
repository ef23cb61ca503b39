package io.sirocco.ib.row;

import io.sirocco.multicast.spi.ForwardingRowTransport;
import io.sirocco.multicast.spi.RowTransport;

/**
 * A {@link RowTransport} that delegates everything (the default methods too: the shm bell and tcp's frame coalescing
 * stay on behind it) and runs one action after the delegate closed, so a provider can count a member's open tables
 * and release what they shared (an endpoint) when the last one closes. Threading as the delegate's; {@link #close()}
 * is idempotent.
 */
final class ClosingRowTransport extends ForwardingRowTransport
{
    private final Runnable afterClose;
    private boolean closed;

    ClosingRowTransport(final RowTransport delegate, final Runnable afterClose)
    {
        super(delegate);
        this.afterClose = afterClose;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                delegate.close();
            }
            finally
            {
                afterClose.run();
            }
        }
    }
}
