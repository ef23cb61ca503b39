package io.sirocco.pubsub.rtps.discovery;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The remote writers and readers SEDP announced, by participant and EntityId.
 *
 * <p>Threads: one writer, the RTPS agent; any thread reads a snapshot through {@link #endpoints()}.
 */
public final class EndpointTable
{
    private static final Logger LOG = LoggerFactory.getLogger(EndpointTable.class);

    private final Map<Key, DiscoveredEndpoint> endpoints = new ConcurrentHashMap<>();
    private final int domainId;

    public EndpointTable(final int domainId)
    {
        this.domainId = domainId;
    }

    public void put(final DiscoveredEndpoint e)
    {
        if (endpoints.put(new Key(e.prefix(), e.entityId()), e) == null)
        {
            LOG.info("domain {}: RTPS discovered {}", domainId, e);
        }
    }

    public void remove(final GuidPrefix prefix, final int entityId)
    {
        final DiscoveredEndpoint gone = endpoints.remove(new Key(prefix, entityId));
        if (gone != null)
        {
            LOG.info("domain {}: RTPS lost {}", domainId, gone);
        }
    }

    /** Drops every endpoint of a participant that is gone. */
    public void removeParticipant(final GuidPrefix prefix)
    {
        endpoints.keySet().removeIf(k -> k.prefix.equals(prefix));
    }

    public Collection<DiscoveredEndpoint> endpoints()
    {
        return List.copyOf(endpoints.values());
    }

    private record Key(GuidPrefix prefix, int entityId)
    {
    }
}
