package io.sirocco.transport.spi;

import io.sirocco.transport.TransportContext;

/**
 * Creates a {@link Transport}; registered in {@code META-INF/services/io.sirocco.transport.spi.TransportProvider}
 * and chosen by {@link TransportContext#transport()} matching {@link #name()}.
 */
public interface TransportProvider
{
    String name();

    Transport create(TransportContext context);
}
