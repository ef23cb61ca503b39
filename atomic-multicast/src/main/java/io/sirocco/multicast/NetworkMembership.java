package io.sirocco.multicast;

import io.sirocco.multicast.view.MembershipRegistry;

/**
 * A group's network membership registry as a caller outside atomic-multicast holds it: made by
 * {@link DomainGroups#networkMembership}, handed to {@link DomainGroups#join}, which closes it when the group leaves
 * or the join fails. A thin handle over the registry (so callers never name the registry packages); immutable, the
 * registry itself is thread-safe.
 */
public final class NetworkMembership implements AutoCloseable
{
    private final MembershipRegistry registry;

    NetworkMembership(final MembershipRegistry registry)
    {
        this.registry = registry;
    }

    MembershipRegistry registry()
    {
        return registry;
    }

    /** The address other members contact this one at ({@code host:port}). */
    public String contactAddress()
    {
        return registry.contactAddress();
    }

    /** Closes the registry; only needed when it was never handed to a successful {@link DomainGroups#join}. */
    @Override
    public void close()
    {
        registry.close();
    }
}
