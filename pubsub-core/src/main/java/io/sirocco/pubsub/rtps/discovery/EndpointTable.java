package io.sirocco.pubsub.rtps.discovery;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

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
    private final AtomicLong version = new AtomicLong();

    public EndpointTable(final int domainId)
    {
        this.domainId = domainId;
    }

    public void put(final DiscoveredEndpoint e)
    {
        if (endpoints.put(new Key(e.prefix(), e.entityId()), e) == null)
        {
            version.incrementAndGet();
            LOG.info("domain {}: RTPS discovered {}", domainId, e);
        }
    }

    public void remove(final GuidPrefix prefix, final int entityId)
    {
        final DiscoveredEndpoint gone = endpoints.remove(new Key(prefix, entityId));
        if (gone != null)
        {
            version.incrementAndGet();
            LOG.info("domain {}: RTPS lost {}", domainId, gone);
        }
    }

    /** Drops every endpoint of a participant that is gone. */
    public void removeParticipant(final GuidPrefix prefix)
    {
        if (endpoints.keySet().removeIf(k -> k.prefix.equals(prefix)))
        {
            version.incrementAndGet();
        }
    }

    /** The endpoint {@code entityId} of participant {@code prefix}, or null. */
    public DiscoveredEndpoint get(final GuidPrefix prefix, final int entityId)
    {
        return endpoints.get(new Key(prefix, entityId));
    }

    /** Bumped by every change: a reader of the table recomputes what it derived only when this moved. */
    public long version()
    {
        return version.get();
    }

    public Collection<DiscoveredEndpoint> endpoints()
    {
        return List.copyOf(endpoints.values());
    }

    private record Key(GuidPrefix prefix, int entityId)
    {
    }
}
