package io.sirocco.pubsub.bus;

import io.sirocco.dds.config.SiroccoConfig;
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
        switch (transport)
        {
            case "local" ->
            {
                LOG.info("domain {}: transport 'local' (in-process) as configured", domainId);
                return new LocalBus(domainId, discovery, config.windowSlots(), config.slotBytes());
            }
            case "auto" ->
            {
                LOG.warn("domain {}: transport 'auto' falls back to 'local' (in-process only): the atomic-multicast " +
                    "shm/tcp buses are not wired into this build; other processes will not be discovered", domainId);
                return new LocalBus(domainId, discovery, config.windowSlots(), config.slotBytes());
            }
            case "shm", "tcp" -> throw new UnsupportedOperationException("domain " + domainId + ": transport '" +
                transport + "' (atomic-multicast row transport) is not wired into the DDS layer in this build; " +
                "use sirocco.transport=local");
            default -> throw new IllegalArgumentException("domain " + domainId + ": unknown transport '" + transport +
                "' (sirocco.transport / SIROCCO_TRANSPORT): expected auto, local, shm or tcp");
        }
    }
}
