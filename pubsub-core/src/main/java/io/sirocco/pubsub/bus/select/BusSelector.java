package io.sirocco.pubsub.bus.select;

import java.util.concurrent.TimeoutException;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.multicast.DomainGroups;
import io.sirocco.multicast.model.Member;
import io.sirocco.pubsub.bus.DiscoveryHandler;
import io.sirocco.pubsub.bus.DomainBus;
import io.sirocco.pubsub.bus.group.GroupBus;
import io.sirocco.pubsub.bus.local.LocalBus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joins the subgroup bus for a participant over the transport {@link DomainTransportSelection} decided, and logs the
 * choice once at INFO per participant start (every fallback at WARN): the transport is never chosen silently. The
 * group bus adds its own INFO line when it joined (member, interface, discovery). A package of its own: it picks
 * among the bus implementations ({@code bus.group}, {@code bus.local}), which depend on {@code bus}.
 */
public final class BusSelector
{
    private static final Logger LOG = LoggerFactory.getLogger(BusSelector.class);

    private BusSelector()
    {
    }

    public static DomainBus join(final SiroccoConfig config, final int domainId, final DiscoveryHandler discovery)
    {
        final String configured = config.transport();
        final boolean needsShm = "auto".equals(configured) || "mixed".equals(configured);
        final DomainTransportSelection choice = DomainTransportSelection.choose(domainId, configured,
            config.discovery(),
            Member.localHost(), needsShm ? DomainTransportSelection.shmProblem(DomainGroups.shmRoot()) : null);
        if (choice.warn())
        {
            LOG.warn(choice.reason());
        }
        else
        {
            LOG.info(choice.reason());
        }
        switch (choice.transport())
        {
            case "local" ->
            {
                return new LocalBus(domainId, discovery, config.windowSlots(), config.slotBytes());
            }
            case "shm" ->
            {
                try
                {
                    return GroupBus.join(domainId, discovery, config, "shm");
                }
                catch (final TimeoutException | RuntimeException ex)
                {
                    if ("shm".equals(configured))
                    {
                        throw new IllegalStateException("domain " + domainId + ": transport 'shm' failed: " + ex, ex);
                    }
                    LOG.warn("domain {}: transport 'shm' failed ({}); FALLING BACK to 'local' (in-process only): " +
                        "other processes will not be discovered", domainId, ex.toString());
                    return new LocalBus(domainId, discovery, config.windowSlots(), config.slotBytes());
                }
            }
            default ->
            {
                return joinNetwork(config, domainId, discovery, choice.transport());
            }
        }
    }

    private static DomainBus joinNetwork(final SiroccoConfig config, final int domainId,
        final DiscoveryHandler discovery, final String transport)
    {
        try
        {
            return GroupBus.join(domainId, discovery, config, transport);
        }
        catch (final TimeoutException ex)
        {
            throw new IllegalStateException("domain " + domainId + ": transport '" + transport + "' failed: " + ex,
                ex);
        }
    }
}
