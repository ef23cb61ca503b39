package io.sirocco.pubsub.rtps;

import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.sirocco.pubsub.rtps.discovery.DiscoveredParticipant;
import io.sirocco.pubsub.rtps.discovery.EntityIds;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.discovery.LocalEndpoint;
import io.sirocco.pubsub.rtps.wire.AckNackView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;
import io.sirocco.transport.udp.UdpChannel;

/**
 * This participant's own writers and readers and the two SEDP writers that announce them.
 *
 * <p>Threads: {@link #create} is called from any thread: it allocates the EntityId atomically and queues the
 * endpoint; the RTPS agent drains the queue ({@link #drain()}) and alone touches the SEDP writers.
 */
final class LocalEndpoints
{
    private final AtomicInteger nextKey = new AtomicInteger(1);
    private final Queue<LocalEndpoint> pending = new ConcurrentLinkedQueue<>();
    private final List<LocalEndpoint> created = new CopyOnWriteArrayList<>();
    private final SedpWriter publications;
    private final SedpWriter subscriptions;

    LocalEndpoints(final GuidPrefix self, final UdpChannel metatraffic)
    {
        this.publications = new SedpWriter(self, metatraffic, EntityIds.SEDP_PUBLICATIONS_WRITER,
            EntityIds.SEDP_PUBLICATIONS_READER);
        this.subscriptions = new SedpWriter(self, metatraffic, EntityIds.SEDP_SUBSCRIPTIONS_WRITER,
            EntityIds.SEDP_SUBSCRIPTIONS_READER);
    }

    static boolean isSedpWriter(final int writerId)
    {
        return writerId == EntityIds.SEDP_PUBLICATIONS_WRITER || writerId == EntityIds.SEDP_SUBSCRIPTIONS_WRITER;
    }

    /** A new keyed endpoint; announced by the agent's next duty cycle. */
    LocalEndpoint create(final boolean writer, final String topic, final String type, final boolean reliable,
        final List<String> partitions)
    {
        final int kind = writer ? LocalEndpoint.KIND_WRITER_KEYED : LocalEndpoint.KIND_READER_KEYED;
        final LocalEndpoint e = new LocalEndpoint(LocalEndpoint.entityId(nextKey.getAndIncrement(), kind), writer,
            topic, type, reliable, partitions);
        created.add(e);
        pending.add(e);
        return e;
    }

    Collection<LocalEndpoint> endpoints()
    {
        return List.copyOf(created);
    }

    /** Announces the endpoints created since the last call; returns how many. */
    int drain()
    {
        int n = 0;
        for (LocalEndpoint e = pending.poll(); e != null; e = pending.poll())
        {
            (e.writer() ? publications : subscriptions).announce(e);
            n++;
        }
        return n;
    }

    void heartbeat()
    {
        publications.heartbeat();
        subscriptions.heartbeat();
    }

    void onAckNack(final ReceiveContext context, final AckNackView ackNack)
    {
        final GuidPrefix source = new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow());
        (ackNack.writerId() == publications.writerId() ? publications : subscriptions).onAckNack(source, ackNack);
    }

    void participantDiscovered(final DiscoveredParticipant p)
    {
        publications.participantDiscovered(p);
        subscriptions.participantDiscovered(p);
    }

    void participantLost(final GuidPrefix prefix)
    {
        publications.participantLost(prefix);
        subscriptions.participantLost(prefix);
    }
}
