package io.sirocco.pubsub.bus.group;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.multicast.DomainGroups;
import io.sirocco.multicast.NetworkMembership;

/**
 * Builds a participant's network membership registry from the DDS settings: it listens on the chosen interface at
 * {@code sirocco.dds.contact.port} (default 7400 + domain), contacts the static peers ({@code SIROCCO_DDS_PEERS}, entries
 * without a port get the same default) and, with {@code sirocco.dds.discovery=multicast}, sends and hears UDP beacons.
 * Stateless.
 */
final class NetDiscovery
{
    private NetDiscovery()
    {
    }

    static NetworkMembership registry(final SiroccoConfig config, final int domainId, final String groupName,
        final long memberId, final String bindAddress)
    {
        final int port = config.contactPort(domainId);
        return DomainGroups.networkMembership(groupName, memberId, bindAddress, port, config.peers(),
            "multicast".equals(config.discovery()), config.multicastGroup(), config.multicastPort(),
            config.beaconPeriodMs(), config.discoveryWaitMs());
    }
}
