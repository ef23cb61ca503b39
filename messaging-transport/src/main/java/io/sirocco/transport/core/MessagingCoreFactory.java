package io.sirocco.transport.core;

import io.sirocco.transport.MessagingEngine;
import io.sirocco.transport.MessagingEngineFactory;
import io.sirocco.transport.TransportContext;

/** Registers {@link MessagingCore} as the engine of every {@code MessagingService} (through ServiceLoader). */
public final class MessagingCoreFactory implements MessagingEngineFactory
{
    @Override
    public MessagingEngine create(final TransportContext context)
    {
        return new MessagingCore(context);
    }
}
