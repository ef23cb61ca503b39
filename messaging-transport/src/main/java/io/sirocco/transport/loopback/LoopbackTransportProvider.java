package io.sirocco.transport.loopback;

import io.sirocco.transport.TransportContext;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportProvider;

/** Provides the {@code loopback} transport. */
public final class LoopbackTransportProvider implements TransportProvider
{
    @Override
    public String name()
    {
        return "loopback";
    }

    @Override
    public Transport create(final TransportContext context)
    {
        return new LoopbackTransport(context);
    }
}
