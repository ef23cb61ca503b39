package io.sirocco.pubsub.domain;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.sirocco.multicast.model.Member;
import io.sirocco.pubsub.bus.DiscoveryHandler;
import io.sirocco.pubsub.bus.DomainBus;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.pub.DataWriterImpl;
import io.sirocco.pubsub.sub.BuiltinSubscriber;
import io.sirocco.pubsub.sub.DataReaderImpl;
import io.sirocco.pubsub.topic.TopicImpl;
import io.sirocco.transport.agent.Agents;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ServiceEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The discovery side of one participant: the table of discovered records, the ignore list, and the discovery thread,
 * on which every announcement and retraction is matched against the local writers, readers and topics, fed to the
 * built-in readers, and the matching listeners run. The table is updated synchronously as records arrive (on the
 * bus's thread), so the data path can match a writer whose first sample overtakes its announcement; the matching is
 * queued to the discovery thread, one task per record, in arrival order.
 *
 * <p>Threads: {@link #onAnnounce} and {@link #onRetract} run on the bus's thread; the queued work runs on the
 * discovery thread (a single-thread executor from {@link Agents#threadFactory}, named
 * {@code sirocco-discovery-d<domain>}: a queue of one-off tasks, not a loop, hence not an agent). The table is a
 * concurrent map read from any thread. {@code changeLock} guards nothing but the {@code changed} condition, on which
 * {@link #await} (findTopic) waits for the next record.
 */
final class ParticipantDiscovery implements DiscoveryHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(ParticipantDiscovery.class);
    private static final long RECHECK_NS = 100_000_000L;

    private final int domainId;
    private final EntityRegistry registry;
    private final BuiltinSubscriber builtinSubscriber;
    private final BooleanSupplier participantClosed;
    private final IgnoreList ignored = new IgnoreList();
    private final Map<Long, EndpointRecord> discovered = new ConcurrentHashMap<>();
    private final ExecutorService thread;
    private final ReentrantLock changeLock = new ReentrantLock();
    private final Condition changed = changeLock.newCondition();
    /** The local participant's GUID, set once the bus is joined (local records match local endpoints at once). */
    private volatile long participantGuid;
    /** The participant's durability: it serves recovered histories to the readers it hears of (discovery thread). */
    private volatile DiscoveryHandler durable;

    ParticipantDiscovery(final int domainId, final EntityRegistry registry, final BuiltinSubscriber builtinSubscriber,
        final BooleanSupplier participantClosed)
    {
        this.domainId = domainId;
        this.registry = registry;
        this.builtinSubscriber = builtinSubscriber;
        this.participantClosed = participantClosed;
        this.thread = Executors.newSingleThreadExecutor(Agents.threadFactory("discovery-d" + domainId));
    }

    /** The bus is joined: records of this participant GUID are local. */
    void joined(final long localParticipantGuid)
    {
        this.participantGuid = localParticipantGuid;
    }

    /**
     * Announces the local participant on {@code bus}: at creation, and again after a {@code setQos}, so that its
     * USER_DATA reaches the built-in DCPSParticipant readers of every participant.
     */
    void announceParticipant(final DomainBus bus, final byte[] userData)
    {
        bus.announce(EndpointRecord.participant(bus.participantGuid(), userData, Member.localHost(),
            ProcessHandle.current().pid()));
    }

    /** From now on, {@code handler} hears of every record on the discovery thread, those known so far first. */
    void durable(final DiscoveryHandler handler)
    {
        submit(() ->
        {
            durable = handler;
            discovered.values().forEach(handler::onAnnounce);
        });
    }

    @Override
    public void onAnnounce(final EndpointRecord record)
    {
        discovered.put(record.guid(), record);
        signalChange();
        submit(() -> handleAnnounce(record));
    }

    @Override
    public void onRetract(final long guid, final boolean participantFailed)
    {
        final EndpointRecord record = discovered.remove(guid);
        if (record != null)
        {
            submit(() -> handleRetract(record, participantFailed));
        }
    }

    /** Runs a task on the discovery thread; after {@link #close} it is dropped. */
    void submit(final Runnable task)
    {
        if (!thread.isShutdown())
        {
            try
            {
                thread.execute(() -> runLogged(task));
            }
            catch (final RejectedExecutionException ex)
            {
                LOG.debug("domain {}: discovery event after close ignored", domainId);
            }
        }
    }

    private void runLogged(final Runnable task)
    {
        try
        {
            task.run();
        }
        catch (final RuntimeException ex)
        {
            LOG.error("domain {}: discovery event failed", domainId, ex);
        }
    }

    private void signalChange()
    {
        changeLock.lock();
        try
        {
            changed.signalAll();
        }
        finally
        {
            changeLock.unlock();
        }
    }

    /**
     * Calls {@code probe} until it answers (non-null) or {@code deadlineNs} ({@code System.nanoTime}) passes, again
     * after each discovered record and at least every 100 ms.
     *
     * @return the probe's answer, or null when the deadline passed.
     */
    <R> R await(final Supplier<R> probe, final long deadlineNs) throws InterruptedException
    {
        changeLock.lock();
        try
        {
            while (true)
            {
                final R answer = probe.get();
                if (answer != null)
                {
                    return answer;
                }
                final long remainingNs = deadlineNs - System.nanoTime();
                if (remainingNs <= 0)
                {
                    return null;
                }
                changed.awaitNanos(Math.min(remainingNs, RECHECK_NS));
            }
        }
        finally
        {
            changeLock.unlock();
        }
    }

    void ignore(final long guid)
    {
        ignored.add(guid);
    }

    boolean isIgnored(final EndpointRecord record)
    {
        return ignored.covers(record);
    }

    /** The record of a discovered entity (local ones included), or null when unknown or ignored. */
    EndpointRecord discovered(final long guid)
    {
        final EndpointRecord record = discovered.get(guid);
        return record == null || ignored.covers(record) ? null : record;
    }

    /** The record of a discovered entity, ignored or not, or null. */
    EndpointRecord anyRecord(final long guid)
    {
        return discovered.get(guid);
    }

    /** The discovered record of {@code kind} behind {@code handle}; PreconditionNotMet naming {@code owner} if none. */
    EndpointRecord recordOf(final ServiceEnvironment env, final String owner, final InstanceHandle handle,
        final int kind)
    {
        final EndpointRecord record = anyRecord(HandleImpl.valueOf(handle));
        if (record == null || record.kind() != kind)
        {
            throw DdsExceptions.precondition(env, owner + ": no discovered entity with " + handle);
        }
        return record;
    }

    /** Every discovered record, ignored ones included: a live view. */
    Collection<EndpointRecord> records()
    {
        return discovered.values();
    }

    /** The handles of the discovered, not ignored, entities of one {@code EndpointRecord} kind. */
    Set<InstanceHandle> handles(final ServiceEnvironment env, final int kind)
    {
        final Set<InstanceHandle> handles = new HashSet<>();
        for (final EndpointRecord record : discovered.values())
        {
            if (record.kind() == kind && !ignored.covers(record))
            {
                handles.add(new HandleImpl(env, record.guid()));
            }
        }
        return handles;
    }

    private void handleAnnounce(final EndpointRecord record)
    {
        if (participantClosed.getAsBoolean() || ignored.covers(record))
        {
            return;
        }
        switch (record.kind())
        {
            case EndpointRecord.WRITER -> writerAnnounced(record);
            case EndpointRecord.READER -> readerAnnounced(record);
            case EndpointRecord.TOPIC ->
            {
                for (final TopicImpl<?> topic : registry.topics())
                {
                    topic.onTopicDiscovered(record);
                }
            }
            default ->
            {
            }
        }
        builtinSubscriber.onAnnounce(record);
        final DiscoveryHandler handler = durable;
        if (handler != null)
        {
            handler.onAnnounce(record);
        }
    }

    private void writerAnnounced(final EndpointRecord record)
    {
        for (final DataReaderImpl<?> reader : registry.readers())
        {
            reader.onWriterDiscovered(record);
        }
        if (record.participantGuid() == participantGuid)
        {
            matchLocalWriter(record);
        }
    }

    private void readerAnnounced(final EndpointRecord record)
    {
        for (final DataWriterImpl<?> writer : registry.writers())
        {
            writer.onReaderDiscovered(record);
        }
        if (record.participantGuid() == participantGuid)
        {
            matchLocalReader(record);
        }
    }

    /** A local writer's own record is back: it meets every reader discovered before it was enabled. */
    private void matchLocalWriter(final EndpointRecord writerRecord)
    {
        for (final DataWriterImpl<?> writer : registry.writers())
        {
            if (writer.guid() == writerRecord.guid())
            {
                for (final EndpointRecord record : discovered.values())
                {
                    if (record.isReader() && !ignored.covers(record))
                    {
                        writer.onReaderDiscovered(record);
                    }
                }
            }
        }
    }

    /** A local reader's own record is back: it meets every writer discovered before it was enabled. */
    private void matchLocalReader(final EndpointRecord readerRecord)
    {
        for (final DataReaderImpl<?> reader : registry.readers())
        {
            if (reader.guid() == readerRecord.guid())
            {
                for (final EndpointRecord record : discovered.values())
                {
                    if (record.isWriter() && !ignored.covers(record))
                    {
                        reader.onWriterDiscovered(record);
                    }
                }
            }
        }
    }

    private void handleRetract(final EndpointRecord record, final boolean participantFailed)
    {
        if (participantClosed.getAsBoolean())
        {
            return;
        }
        final DiscoveryHandler handler = durable;
        if (handler != null)
        {
            handler.onRetract(record.guid(), participantFailed);
        }
        if (record.isWriter())
        {
            for (final DataReaderImpl<?> reader : registry.readers())
            {
                reader.onWriterGone(record.guid(), participantFailed);
            }
        }
        else if (record.isReader())
        {
            for (final DataWriterImpl<?> writer : registry.writers())
            {
                writer.onReaderGone(record.guid());
            }
        }
        builtinSubscriber.onRetract(record);
        if (participantFailed && record.kind() == EndpointRecord.PARTICIPANT)
        {
            // Once per failed participant (its own record), not once per entity it had.
            LOG.warn("domain {}: participant {} failed; its entities are gone", domainId,
                String.format("%016x", record.participantGuid()));
        }
    }

    /** Stops the discovery thread, waiting up to 5 s for the queued work. */
    void close()
    {
        thread.shutdown();
        try
        {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
