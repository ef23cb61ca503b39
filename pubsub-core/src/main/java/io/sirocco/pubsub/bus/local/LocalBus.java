package io.sirocco.pubsub.bus.local;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusReader;
import io.sirocco.pubsub.bus.BusWriter;
import io.sirocco.pubsub.bus.DeliveryExecutor;
import io.sirocco.pubsub.bus.DeliveryHandler;
import io.sirocco.pubsub.bus.DiscoveryHandler;
import io.sirocco.pubsub.bus.DomainBus;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.bus.ReaderQueue;

/**
 * The in-process subgroup bus: every participant of a domain in this JVM shares one {@link LocalDomain}. A write
 * copies the serialized sample once into each reader's window ({@link ReaderQueue}); each reader delivers on its own
 * thread. It is a real intra-process transport with the same flow-control and loss rules as the group transports.
 */
public final class LocalBus implements DomainBus
{
    private final LocalDomain domain;
    private final long participantGuid;
    private final int windowSlots;
    private final int slotBytes;
    /** Runs this participant's reader deliveries and listeners. */
    private final DeliveryExecutor delivery;

    public LocalBus(final int domainId, final DiscoveryHandler discovery, final int windowSlots, final int slotBytes)
    {
        this.domain = LocalDomain.of(domainId);
        this.participantGuid = ThreadLocalRandom.current().nextLong() & ~0xFFFFFL;
        this.windowSlots = windowSlots;
        this.slotBytes = slotBytes;
        this.delivery = new DeliveryExecutor(String.format("d%d-%05x", domainId, (participantGuid >>> 20) & 0xFFFFF));
        domain.join(participantGuid, discovery);
    }

    @Override
    public long participantGuid()
    {
        return participantGuid;
    }

    @Override
    public String transportName()
    {
        return "local";
    }

    @Override
    public void announce(final EndpointRecord record)
    {
        domain.announce(record);
    }

    @Override
    public void retract(final long guid)
    {
        domain.retract(guid);
    }

    @Override
    public BusWriter openWriter(final long writerGuid, final String topicName, final boolean reliable)
    {
        return new LocalWriter(domain.readers(topicName), reliable);
    }

    @Override
    public BusReader openReader(final long readerGuid, final String topicName, final boolean reliable,
        final DeliveryHandler handler)
    {
        final ReaderQueue queue = new ReaderQueue(readerGuid, topicName, reliable, windowSlots, slotBytes, handler,
            delivery);
        domain.addReader(queue);
        return () ->
        {
            domain.removeReader(queue);
            queue.close();
        };
    }

    @Override
    public void close()
    {
        domain.leave(participantGuid);
        delivery.close();
    }

    private record LocalWriter(List<ReaderQueue> readers, boolean reliable) implements BusWriter
    {
        @Override
        public boolean publish(final BusMessage message, final long timeoutNs)
        {
            final long deadlineNs = System.nanoTime() + Math.min(timeoutNs, Long.MAX_VALUE / 4);
            boolean ok = true;
            for (final ReaderQueue queue : readers)
            {
                final boolean block = reliable && queue.reliable();
                final long remainingNs = Math.max(0, deadlineNs - System.nanoTime());
                if (queue.offer(message, block, remainingNs) == ReaderQueue.Offer.TIMED_OUT)
                {
                    ok = false;
                }
            }
            return ok;
        }

        @Override
        public boolean sendDirected(final long readerGuid, final BusMessage message, final long timeoutNs)
        {
            for (final ReaderQueue queue : readers)
            {
                if (queue.readerGuid() == readerGuid)
                {
                    return queue.offer(message, reliable && queue.reliable(), timeoutNs) != ReaderQueue.Offer.TIMED_OUT;
                }
            }
            return true;
        }

        @Override
        public boolean awaitDelivered(final long timeoutNs)
        {
            final long deadlineNs = System.nanoTime() + Math.min(timeoutNs, Long.MAX_VALUE / 4);
            for (final ReaderQueue queue : readers)
            {
                // Acknowledgments are a RELIABLE notion: best-effort readers are never waited for.
                if (reliable && queue.reliable() && !queue.awaitDelivered(Math.max(0, deadlineNs - System.nanoTime())))
                {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void close()
        {
        }
    }
}
