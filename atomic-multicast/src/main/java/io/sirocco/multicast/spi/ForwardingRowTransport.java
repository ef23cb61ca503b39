package io.sirocco.multicast.spi;

import java.lang.foreign.MemorySegment;

import io.sirocco.multicast.predicate.IdleWait;

/**
 * A {@link RowTransport} that hands every call, the default methods included, to a delegate, for wrappers that change
 * one or two calls (count tables and run an action on close, cut a push in a test). Forwarding the defaults matters:
 * a wrapper that implemented the interface directly would answer {@link #endOfPass()}, {@link #eventDriven()} or
 * {@link #idleWait()} with the defaults and silently turn off what the delegate does there (tcp's frame coalescing,
 * its arrival signal, shm's futex bell). Threading, ordering and snapshot rules are the delegate's.
 */
public abstract class ForwardingRowTransport implements RowTransport
{
    protected final RowTransport delegate;

    protected ForwardingRowTransport(final RowTransport delegate)
    {
        this.delegate = delegate;
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
    public void suspicionListener(final RowSuspicionListener listener)
    {
        delegate.suspicionListener(listener);
    }

    @Override
    public void flush()
    {
        delegate.flush();
    }

    @Override
    public void endOfPass()
    {
        delegate.endOfPass();
    }

    @Override
    public void beginPassRun()
    {
        delegate.beginPassRun();
    }

    @Override
    public void endPassRun()
    {
        delegate.endPassRun();
    }

    @Override
    public boolean eventDriven()
    {
        return delegate.eventDriven();
    }

    @Override
    public IdleWait idleWait()
    {
        return delegate.idleWait();
    }

    @Override
    public long pushCount()
    {
        return delegate.pushCount();
    }

    @Override
    public long pushCount(final int rank)
    {
        return delegate.pushCount(rank);
    }

    @Override
    public void close()
    {
        delegate.close();
    }
}
