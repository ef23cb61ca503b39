package io.sirocco.pubsub.bus.group;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.multicast.contact.ContactSettings;
import io.sirocco.multicast.contact.NetRegistry;

/**
 * Builds a participant's network membership registry ({@link NetRegistry}) from the DDS settings: it listens on the
 * chosen interface at {@code sirocco.dds.contact.port} (default 7400 + domain), contacts the static peers
 * ({@code SIROCCO_DDS_PEERS}, entries without a port get the same default) and, with {@code sirocco.dds.discovery=multicast},
 * sends and hears UDP beacons. Stateless.
 */
final class NetDiscovery
{
    private NetDiscovery()
    {
    }

    static NetRegistry registry(final SiroccoConfig config, final int domainId, final String groupName,
        final long memberId, final String bindAddress)
    {
        final int port = config.contactPort(domainId);
        final ContactSettings settings = new ContactSettings(bindAddress, port,
            ContactSettings.parsePeers(config.peers(), port), "multicast".equals(config.discovery()),
            config.multicastGroup(), config.multicastPort(), config.beaconPeriodMs(), config.discoveryWaitMs());
        return new NetRegistry(groupName, memberId, settings);
    }
}
