package io.sirocco.transport;

import java.util.concurrent.atomic.AtomicLong;

/** Counters of one node's transport; written by transport threads, readable from any thread. */
public final class TransportStatistics
{
    final AtomicLong connectionsOpened = new AtomicLong();
    final AtomicLong connectionsClosed = new AtomicLong();
    final AtomicLong protocolErrors = new AtomicLong();
    final AtomicLong handlerErrors = new AtomicLong();

    public long connectionsOpened() { return connectionsOpened.get(); }
    public long connectionsClosed() { return connectionsClosed.get(); }
    /** Connections closed because the peer sent bad input. */
    public long protocolErrors() { return protocolErrors.get(); }
    /** Exceptions thrown by application handlers (logged, connection kept). */
    public long handlerErrors() { return handlerErrors.get(); }

    public void connectionOpened() { connectionsOpened.incrementAndGet(); }
    public void connectionClosed() { connectionsClosed.incrementAndGet(); }
    public void protocolError() { protocolErrors.incrementAndGet(); }
    public void handlerError() { handlerErrors.incrementAndGet(); }

    @Override
    public String toString()
    {
        return "connectionsOpened=" + connectionsOpened() + " connectionsClosed=" + connectionsClosed() +
            " protocolErrors=" + protocolErrors() + " handlerErrors=" + handlerErrors();
    }
}
