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
        switch (transport)
        {
            case "local" ->
            {
                LOG.info("domain {}: transport 'local' (in-process only) as configured", domainId);
                return new LocalBus(domainId, discovery, config.windowSlots(), config.slotBytes());
            }
            case "auto", "shm" ->
            {
                try
                {
                    final DomainBus bus = GroupBus.join(domainId, discovery, config, "shm");
                    LOG.info("domain {}: transport 'shm' ({}): atomic multicast over shared memory, same host; " +
                        "discovery through the per-domain registry", domainId,
                        "auto".equals(transport) ? "chosen by default" : "as configured");
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
            case "tcp" -> throw new UnsupportedOperationException("domain " + domainId + ": transport 'tcp' needs " +
                "the atomic-multicast tcp row transport, which this build does not have yet; use shm (same host) " +
                "or local");
            default -> throw new IllegalArgumentException("domain " + domainId + ": unknown transport '" + transport +
                "' (sirocco.transport / SIROCCO_TRANSPORT): expected auto, local, shm or tcp");
        }
    }
}
