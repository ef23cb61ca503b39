package io.sirocco.transport.nio;

import io.sirocco.transport.TransportContext;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportProvider;

/** Provides the {@code nio} (TCP) transport. */
public final class NioTransportProvider implements TransportProvider
{
    @Override
    public String name()
    {
        return "nio";
    }

    @Override
    public Transport create(final TransportContext context)
    {
        return new NioTransport(context);
    }
}
