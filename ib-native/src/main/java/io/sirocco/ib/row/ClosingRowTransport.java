package io.sirocco.ib.row;

import java.lang.foreign.MemorySegment;

import io.sirocco.multicast.spi.RowSuspicionListener;
import io.sirocco.multicast.spi.RowTransport;

/**
 * A {@link RowTransport} that delegates everything and runs one action after the delegate closed, so a provider can
 * count a member's open tables and release what they shared (an endpoint) when the last one closes. Threading as the
 * delegate's; {@link #close()} is idempotent.
 */
final class ClosingRowTransport implements RowTransport
{
    private final RowTransport delegate;
    private final Runnable afterClose;
    private boolean closed;

    ClosingRowTransport(final RowTransport delegate, final Runnable afterClose)
    {
        this.delegate = delegate;
        this.afterClose = afterClose;
    }

    @Override
    public MemorySegment table()
    {
        return delegate.table();
    }

    @Override
    public boolean sharesRows()
    {
        return delegate.sharesRows();
    }

    @Override
    public void pushBytes(final long rowOffset, final long lengthBytes)
    {
        delegate.pushBytes(rowOffset, lengthBytes);
    }

    @Override
    public void pushCounters(final long rowOffset, final int count)
    {
        delegate.pushCounters(rowOffset, count);
    }

    @Override
    public void pushGuard(final long rowOffset, final long value)
    {
        delegate.pushGuard(rowOffset, value);
    }

    @Override
    public void freeze(final int rank)
    {
        delegate.freeze(rank);
    }

    @Override
    public void flush()
    {
        delegate.flush();
    }

    @Override
    public void suspicionListener(final RowSuspicionListener listener)
    {
        delegate.suspicionListener(listener);
    }

    @Override
    public long pushCount()
    {
        return delegate.pushCount();
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
