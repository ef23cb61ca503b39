package io.sirocco.pubsub.bus.group;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.multicast.GroupConfig;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.SubgroupSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a participant's {@link GroupBus} configures the domain's group: the group itself (transport, registry, contact
 * role, idle policy, failure detection, tcp endpoint) and its discovery subgroup. Stateless.
 */
final class DomainGroupConfig
{
    private static final Logger LOG = LoggerFactory.getLogger(DomainGroupConfig.class);

    private DomainGroupConfig()
    {
    }

    /**
     * @param network     whether the group spans hosts (then this participant is not a contact).
     * @param tcpRows     whether the row transport is tcp (then it binds an endpoint).
     * @param bindAddress the address the tcp row transport binds.
     */
    static GroupConfig of(final int domainId, final String groupName, final long memberId, final String transport,
        final SiroccoConfig config, final boolean network, final boolean tcpRows, final String bindAddress)
    {
        // Zero-config on one host: every participant is a contact; the shm registry decides under its lock which one
        // founds the group (the first, when no live member runs it) and removes what dead processes left.
        final boolean contact = !network;
        GroupConfig groupConfig = GroupConfig.defaults(groupName).withMemberId(memberId)
            .withTransport(transport).withRegistry("shm").withContact(contact, 1)
            .withIdle(config.idleSpins(), config.idleYields(), config.idleParkNs());
        groupConfig = groupConfig.withFailureDetection(groupConfig.heartbeatPeriodMs(), config.suspicionTimeoutMs());
        if (tcpRows)
        {
            final String endpoint = bindAddress + ":" + TcpEndpoints.tcpPort(config, memberId);
            LOG.debug("domain {}: {} row transport binds {}", domainId, transport, endpoint);
            groupConfig = groupConfig.withEndpoint(endpoint);
        }
        return groupConfig;
    }

    /** The discovery subgroup {@code name}: ordered, a window of 64 slots of 1 KiB, messages up to 64 KiB. */
    static SubgroupSpec discovery(final String name)
    {
        return SubgroupSpec.of(name, DeliveryMode.ORDERED).withWindow(64).withSlotSize(1024).withMaxMessage(65_536);
    }
}
