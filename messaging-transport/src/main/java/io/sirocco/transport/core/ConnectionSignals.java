package io.sirocco.transport.core;

import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.orb.RingSignals;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.Transport;

import java.util.concurrent.locks.LockSupport;

/**
 * A connection's producer-side signals: wake the transport after a commit, and back off while the ring is full
 * or the window shut (spin, then yield, then park 50 us, re-signalling the transport each time so a
 * caller-runs transport can drain). Fails the producer once the connection is closed.
 */
final class ConnectionSignals implements RingSignals
{
    private final Transport transport;
    private final int spins;
    private final int yields;
    private Connection connection;

    ConnectionSignals(final Transport transport, final int spins, final int yields)
    {
        this.transport = transport;
        this.spins = Math.min(spins, 1000);
        this.yields = Math.min(yields, 100);
    }

    void bind(final Connection connection)
    {
        this.connection = connection;
    }

    @Override
    public void framesCommitted()
    {
        transport.signal(connection, Transport.DATA);
    }

    @Override
    public void awaitProgress(final int attempt)
    {
        if (connection.isClosed())
        {
            throw new NodeUnreachableException(connection.nodeId(), connection.closeReason());
        }
        transport.signal(connection, Transport.DATA);
        if (attempt < spins)
        {
            Thread.onSpinWait();
        }
        else if (attempt < spins + yields)
        {
            Thread.yield();
        }
        else
        {
            LockSupport.parkNanos(50_000);
        }
    }
}
