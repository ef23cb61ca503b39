package io.sirocco.transport;

/**
 * The in-process "network" that loopback transports join, as the {@link TransportContext} sees it. The loopback
 * package implements it ({@code io.sirocco.transport.loopback.LoopbackFabric}); the interface lives here so that the
 * public face (this package) does not depend on a concrete transport, which depends on it in turn. Implementations
 * are thread-safe.
 */
public interface InProcessFabric
{
}
