package io.sirocco.ib.msg;

import io.sirocco.transport.TransportContext;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportProvider;

/** Test provider {@code ib-fake}: the real {@link IbTransport} over {@link FakeMessagingVerbs}. */
public final class FakeIbTransportProvider implements TransportProvider
{
    static final FakeMessagingVerbs.Fabric FABRIC = new FakeMessagingVerbs.Fabric();

    @Override
    public String name()
    {
        return "ib-fake";
    }

    @Override
    public Transport create(final TransportContext context)
    {
        // few slots and a small receive queue, so slot reuse, RNR waits and credits are exercised
        return new IbTransport(context, new FakeMessagingVerbs(FABRIC), 8, 4, 256);
    }
}
