package io.sirocco.pubsub.durability;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayList;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusWriter;
import io.sirocco.pubsub.bus.DiscoveryHandler;
import io.sirocco.pubsub.bus.DomainBus;
import io.sirocco.pubsub.bus.EndpointRecord;
import org.omg.dds.core.policy.Durability;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the histories this backup recovered for failed writers, under each writer's own GUID: once a zone is
 * recovered, this participant opens a bus writer with the dead writer's GUID on its topic and announces the dead
 * writer's record (the same GUID, topic, type and QoS; this participant as its owner, because a member announces only
 * its own entities). Every TRANSIENT_LOCAL-or-stronger reader of the topic, present or later, gets the recovered
 * samples as a directed history replay, then an unregister of each instance (no writer of it is alive: the reader's
 * instances become NOT_ALIVE_NO_WRITERS), then the end-of-history mark, so {@code waitForHistoricalData} covers the
 * recovered history. A reader that took samples from the writer before it died drops what it already has: it keeps
 * the failed writer's last sequence number (MatchedWriters), so nothing is delivered twice.
 *
 * <p>Threads: discovery events arrive on the participant's discovery thread ({@link DiscoveryHandler}) and recovery
 * completions on a recovery thread; both only update the concurrent maps and queue work on one serving thread
 * ({@code sirocco-durable-serve-d<domain>}), which alone opens bus writers and sends (a replay may block on a reliable
 * reader's window).
 */
public final class RecoveredWriters implements DiscoveryHandler, AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(RecoveredWriters.class);
    private static final long SEND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    private final DomainBus bus;
    private final RecoveredHistories histories;
    private final PersistentRecords records;
    private final ExecutorService serving;
    private final int replayBatchBytes;
    /** Durable writers of other participants, by GUID: what a recovered zone's writer was. */
    private final Map<Long, EndpointRecord> durableWriters = new ConcurrentHashMap<>();
    /** TRANSIENT_LOCAL-or-stronger readers of the domain, by GUID. */
    private final Map<Long, EndpointRecord> readers = new ConcurrentHashMap<>();
    /** The writers this participant serves, by GUID (serving thread only). */
    private final Map<Long, Served> served = new ConcurrentHashMap<>();

    private record Served(EndpointRecord record, BusWriter writer)
    {
    }

    /**
     * @param records      where PERSISTENT writers' records are kept (loaded now: writers of before a restart).
     * @param replayBatchBytes the most sample bytes packed into one replay message (bounded by the bus's own limit).
     */
    public RecoveredWriters(final int domainId, final DomainBus bus, final RecoveredHistories histories,
        final Path records, final int replayBatchBytes)
    {
        this.replayBatchBytes = replayBatchBytes;
        this.bus = bus;
        this.histories = histories;
        this.records = new PersistentRecords(records);
        this.records.loadInto(durableWriters);
        this.serving = Executors.newSingleThreadExecutor(io.sirocco.transport.agent.Agents.threadFactory(
            "durable-serve-d" + domainId));
    }

    @Override
    public void onAnnounce(final EndpointRecord record)
    {
        // Own writers are never recovered here (and the records this participant serves are its own); own readers
        // are served like any other.
        final boolean own = record.participantGuid() == bus.participantGuid();
        if (record.isWriter() && !own && record.durabilityKind() >= Durability.Kind.TRANSIENT.ordinal())
        {
            durableWriters.put(record.guid(), record);
            records.save(record);
            if (served.containsKey(record.guid()))
            {
                submit(() -> handOver(record));
            }
        }
        else if (record.isReader() && record.durabilityKind() >= Durability.Kind.TRANSIENT_LOCAL.ordinal())
        {
            readers.put(record.guid(), record);
            submit(() -> serveTo(record));
        }
    }

    @Override
    public void onRetract(final long guid, final boolean participantFailed)
    {
        readers.remove(guid);
    }

    /** A recovery thread: this backup recovered the zone of {@code writerGuid}; serve it from now on. */
    void onRecovered(final long writerGuid)
    {
        submit(() -> startServing(writerGuid));
    }

    private void submit(final Runnable task)
    {
        try
        {
            serving.execute(() ->
            {
                try
                {
                    task.run();
                }
                catch (final RuntimeException ex)
                {
                    LOG.error("durability: serving a recovered history failed", ex);
                }
            });
        }
        catch (final RejectedExecutionException ex)
        {
            LOG.debug("durability: serving task after close dropped");
        }
    }

    private void startServing(final long writerGuid)
    {
        final EndpointRecord dead = durableWriters.get(writerGuid);
        if (dead == null)
        {
            LOG.warn("durability: recovered writer {} was never discovered by this participant: its topic is "
                + "unknown, its {} samples are not served", String.format("%016x", writerGuid),
                histories.samplesOf(writerGuid).size());
            return;
        }
        final BusWriter writer = bus.openWriter(writerGuid, dead.topicName(), true);
        if (!writer.awaitSending(SEND_TIMEOUT_NS))
        {
            LOG.warn("durability: recovered writer {}: no view of topic '{}' within 30 s; its history is not served",
                String.format("%016x", writerGuid), dead.topicName());
            writer.close();
            return;
        }
        final EndpointRecord record = asOwn(dead);
        served.put(writerGuid, new Served(record, writer));
        bus.announce(record);
        LOG.info("durability: serving the recovered history of writer {} on topic '{}' ({} samples)",
            String.format("%016x", writerGuid), dead.topicName(), histories.samplesOf(writerGuid).size());
        for (final EndpointRecord reader : readers.values())
        {
            serveTo(reader);
        }
    }

    /**
     * Serving thread: a replacement writer (same GUID, another participant) announced itself, after it took the
     * history (this thread's replay to its fetching reader came first). Its record already replaced this one on every
     * member, so this participant forgets its own without a retraction, which readers would apply to the replacement.
     */
    private void handOver(final EndpointRecord replacement)
    {
        final Served gone = served.remove(replacement.guid());
        if (gone == null)
        {
            return;
        }
        bus.withdraw(replacement.guid());
        gone.writer().close();
        LOG.info("durability: writer {} on topic '{}' resumed in participant {}; this backup stops serving it",
            String.format("%016x", replacement.guid()), replacement.topicName(),
            String.format("%016x", replacement.participantGuid()));
    }

    /** The dead writer's record with this participant as its owner (a member announces only its own entities). */
    private EndpointRecord asOwn(final EndpointRecord d)
    {
        return new EndpointRecord(d.kind(), d.guid(), bus.participantGuid(), d.topicName(), d.typeName(),
            d.typeClassName(), d.reliabilityKind(), d.maxBlockingNs(), d.durabilityKind(), d.deadlineNs(),
            d.latencyBudgetNs(), d.livelinessKind(), d.leaseNs(), d.ownershipKind(), d.destinationOrderKind(),
            d.presentationScope(), d.coherentAccess(), d.orderedAccess(), d.historyKind(), d.historyDepth(),
            d.partitions(), d.userData(), d.hostName(), d.pid());
    }

    /** Serving thread: replays every served history of the reader's topic to it. */
    private void serveTo(final EndpointRecord reader)
    {
        for (final Map.Entry<Long, Served> entry : served.entrySet())
        {
            if (entry.getValue().record().topicName().equals(reader.topicName()) && readers.containsKey(reader.guid()))
            {
                replay(entry.getKey(), entry.getValue().writer(), reader.guid());
            }
        }
    }

    /** The recovered samples in sequence order, an unregister of every instance, then the end-of-history mark. */
    private void replay(final long writerGuid, final BusWriter writer, final long readerGuid)
    {
        final long startNs = System.nanoTime();
        final RecoveredSamples samples = histories.samplesOf(writerGuid);
        final int count = samples.size();
        // Each instance's last sample (by its index), and the instances in the order they first appear.
        final Long2LongHashMap lastOfInstance = new Long2LongHashMap(-1);
        final LongArrayList instances = new LongArrayList();
        final BusMessage message = new BusMessage(256);
        final DirectedBatches out = new DirectedBatches(writer, writerGuid, readerGuid, SEND_TIMEOUT_NS,
            replayBatchBytes);
        long last = 0;
        for (int i = 0; i < count; i++)
        {
            SampleEnvelope.toMessage(message, writerGuid, samples.block(i), samples.offset(i), samples.length(i));
            message.kind(message.kind() | BusMessage.KIND_HISTORY);
            if (!out.send(message))
            {
                LOG.warn("durability: reader {} took no recovered sample of writer {} for 30 s; its replay stops",
                    String.format("%016x", readerGuid), String.format("%016x", writerGuid));
                return;
            }
            final long instance = message.keyHashHi() * 31 + message.keyHashLo();
            if (lastOfInstance.put(instance, i) == -1)
            {
                instances.addLong(instance);
            }
            last = message.seq();
        }
        for (int k = 0; k < instances.size(); k++)
        {
            final int i = (int)lastOfInstance.get(instances.getLong(k));
            SampleEnvelope.toMessage(message, writerGuid, samples.block(i), samples.offset(i), samples.length(i));
            message.kind(BusMessage.KIND_UNREGISTER | BusMessage.KIND_HISTORY).seq(last);
            out.send(message);
        }
        out.flush();
        final BusMessage end = new BusMessage(16);
        end.kind(BusMessage.KIND_HISTORY_END).writerGuid(writerGuid).seq(last).payloadLength(0);
        writer.sendDirected(readerGuid, end, SEND_TIMEOUT_NS);
        LOG.debug("durability: replayed {} recovered samples of writer {} to reader {} in {} ms ({} bus messages)",
            count, String.format("%016x", writerGuid), String.format("%016x", readerGuid),
            (System.nanoTime() - startNs) / 1_000_000, out.messages());
    }

    @Override
    public void close()
    {
        serving.shutdownNow();
        for (final Served s : served.values())
        {
            s.writer().close();
        }
    }
}
