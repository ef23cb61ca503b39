package io.sirocco.pubsub.durability;

import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusReader;
import io.sirocco.pubsub.bus.DeliveryHandler;
import io.sirocco.pubsub.bus.DomainBus;
import io.sirocco.pubsub.bus.EndpointRecord;
import org.omg.dds.core.policy.Durability;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replacement writer's first step: fetches the history a backup serves under the writer's GUID (the dead writer's,
 * {@link RecoveredWriters}), so that the replacement resumes past its high-water mark. It waits up to
 * {@link WriterIdentity#TAKEOVER_WAIT} to discover a record of the GUID from another participant; if there is one, it
 * opens a short-lived TRANSIENT reader of the topic, to which the serving backup replays the recovered samples, and
 * waits (bounded) for the end of that replay. The backup, seeing the replacement announce the same GUID afterwards,
 * withdraws its record and stops serving.
 *
 * <p>Threads: created and used by the application thread enabling the writer; {@link #onMessage} runs on the
 * reader's delivery thread and fills a concurrent map, then counts the latch down at the end-of-history mark.
 */
public final class WriterTakeover implements DeliveryHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(WriterTakeover.class);
    private static final long HISTORY_WAIT_NS = TimeUnit.SECONDS.toNanos(120);

    private final long writerGuid;
    /** The served samples (envelopes) by sequence number; the first message of a sequence number wins. */
    private final NavigableMap<Long, byte[]> samples = new ConcurrentSkipListMap<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile long highWaterMark;

    private WriterTakeover(final long writerGuid)
    {
        this.writerGuid = writerGuid;
    }

    /** What the replacement resumes from: the served samples (envelopes by sequence number) and the high-water mark. */
    public record Resumed(NavigableMap<Long, byte[]> samples, long highWaterMark)
    {
        public static final Resumed NOTHING = new Resumed(new ConcurrentSkipListMap<>(), 0);
    }

    /**
     * The history served under {@code own}'s GUID, {@link Resumed#NOTHING} when no other participant announced that
     * GUID within the configured wait, or null when one did but its replay did not end within 120 s.
     *
     * @param own        the replacement writer's record (its GUID, topic and QoS).
     * @param readerGuid a fresh GUID of the writer's participant for the fetching reader.
     * @param discovered the participant's discovered records by GUID.
     */
    public static Resumed fetch(final DomainBus bus, final EndpointRecord own, final long readerGuid,
        final LongFunction<EndpointRecord> discovered) throws InterruptedException
    {
        final long guid = own.guid();
        final long discoverBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WriterIdentity.takeoverWaitMs());
        EndpointRecord served = discovered.apply(guid);
        while ((served == null || served.participantGuid() == bus.participantGuid()) && System.nanoTime() < discoverBy)
        {
            LockSupport.parkNanos(5_000_000L);
            served = discovered.apply(guid);
        }
        if (served == null || served.participantGuid() == bus.participantGuid())
        {
            LOG.debug("writer {}: no served history of its identity; it starts at sequence number 1",
                String.format("%016x", guid));
            return Resumed.NOTHING;
        }
        final WriterTakeover takeover = new WriterTakeover(guid);
        final BusReader reader = bus.openReader(readerGuid, own.topicName(), true, takeover);
        try
        {
            bus.announce(readerRecord(own, readerGuid));
            if (!takeover.ended.await(HISTORY_WAIT_NS, TimeUnit.NANOSECONDS))
            {
                return null;
            }
        }
        finally
        {
            bus.retract(readerGuid);
            reader.close();
        }
        LOG.info("writer {} on topic '{}' takes over its served history: {} samples, resuming after sequence number {}",
            String.format("%016x", guid), own.topicName(), takeover.samples.size(), takeover.highWaterMark);
        return new Resumed(takeover.samples, takeover.highWaterMark);
    }

    /** The fetching reader: the writer's topic and type, RELIABLE, TRANSIENT, KEEP_ALL. */
    private static EndpointRecord readerRecord(final EndpointRecord w, final long readerGuid)
    {
        return new EndpointRecord(EndpointRecord.READER, readerGuid, w.participantGuid(), w.topicName(),
            w.typeName(), w.typeClassName(), w.reliabilityKind(), w.maxBlockingNs(),
            Durability.Kind.TRANSIENT.ordinal(), w.deadlineNs(), w.latencyBudgetNs(), w.livelinessKind(),
            w.leaseNs(), w.ownershipKind(), w.destinationOrderKind(), w.presentationScope(), w.coherentAccess(),
            w.orderedAccess(), w.historyKind(), w.historyDepth(), w.partitions(), w.userData(), w.hostName(),
            w.pid());
    }

    @Override
    public void onMessage(final BusMessage message)
    {
        if (message.writerGuid() != writerGuid)
        {
            return;
        }
        if (message.kind() == BusMessage.KIND_HISTORY_END)
        {
            highWaterMark = message.seq();
            ended.countDown();
            return;
        }
        if ((message.kind() & BusMessage.KIND_HISTORY) != 0)
        {
            // The replay ends with an unregister of each instance at the last sequence number: already taken.
            samples.putIfAbsent(message.seq(), SampleEnvelope.of(message, message.kind() & ~BusMessage.KIND_HISTORY));
        }
    }

    @Override
    public void onLost(final int count)
    {
        LOG.warn("writer {}: {} served history samples lost while taking over", String.format("%016x", writerGuid),
            count);
    }

    @Override
    public void onBatchEnd()
    {
    }
}
