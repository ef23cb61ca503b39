package io.sirocco.pubsub.bus;

import io.sirocco.dds.config.SiroccoConfig;
import java.util.concurrent.TimeoutException;

import io.sirocco.pubsub.bus.group.GroupBus;
import io.sirocco.pubsub.bus.local.LocalBus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the subgroup bus for a participant from {@link SiroccoConfig#transport()} and logs the choice, and every
 * fallback, at INFO or WARN: the transport is never chosen silently.
 */
public final class BusSelector
{
    private static final Logger LOG = LoggerFactory.getLogger(BusSelector.class);

    private BusSelector()
    {
    }

    public static DomainBus join(final SiroccoConfig config, final int domainId, final DiscoveryHandler discovery)
    {
        final String transport = config.transport();
        if ("auto".equals(transport) && config.networkDiscovery())
        {
            LOG.info("domain {}: transport 'tcp' chosen by default: discovery '{}' finds members on other hosts, " +
                "which shared memory cannot reach (set sirocco.transport=shm if every member is on this host)",
                domainId, config.discovery());
            return joinTcp(config, domainId, discovery);
        }
        switch (transport)
        {
            case "local" ->
            {
                LOG.info("domain {}: transport 'local' (in-process only) as configured", domainId);
                return new LocalBus(domainId, discovery, config.windowSlots(), config.slotBytes());
            }
            case "auto", "shm" ->
            {
                if (config.networkDiscovery())
                {
                    LOG.warn("domain {}: transport 'shm' as configured with discovery '{}': members are found over " +
                        "the network but rows are shared memory, so every member must run on this host", domainId,
                        config.discovery());
                }
                try
                {
                    final DomainBus bus = GroupBus.join(domainId, discovery, config, "shm");
                    LOG.info("domain {}: transport 'shm' ({}): atomic multicast over shared memory, same host; " +
                        "discovery '{}'", domainId, "auto".equals(transport) ? "chosen by default: discovery " +
                        "through the per-domain registry of this host" : "as configured", config.discovery());
                    return bus;
                }
                catch (final TimeoutException | RuntimeException ex)
                {
                    if ("shm".equals(transport))
                    {
                        throw new IllegalStateException("domain " + domainId + ": transport 'shm' failed: " + ex, ex);
                    }
                    LOG.warn("domain {}: transport 'shm' failed ({}); FALLING BACK to 'local' (in-process only): " +
                        "other processes will not be discovered", domainId, ex.toString());
                    return new LocalBus(domainId, discovery, config.windowSlots(), config.slotBytes());
                }
            }
            case "tcp" ->
            {
                LOG.info("domain {}: transport 'tcp' as configured; discovery '{}'{}", domainId, config.discovery(),
                    config.networkDiscovery() ? "" : " (membership through this host's per-domain registry: " +
                    "members on other hosts need sirocco.peers or sirocco.discovery=multicast)");
                return joinTcp(config, domainId, discovery);
            }
            default -> throw new IllegalArgumentException("domain " + domainId + ": unknown transport '" + transport +
                "' (sirocco.transport / SIROCCO_TRANSPORT): expected auto, local, shm or tcp");
        }
    }

    private static DomainBus joinTcp(final SiroccoConfig config, final int domainId, final DiscoveryHandler discovery)
    {
        try
        {
            return GroupBus.join(domainId, discovery, config, "tcp");
        }
        catch (final TimeoutException ex)
        {
            throw new IllegalStateException("domain " + domainId + ": transport 'tcp' failed: " + ex, ex);
        }
    }
}
