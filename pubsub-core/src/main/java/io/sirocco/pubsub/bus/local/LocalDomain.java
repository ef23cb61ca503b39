package io.sirocco.pubsub.bus.local;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.pubsub.bus.DiscoveryHandler;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.bus.ReaderQueue;

/**
 * One DDS domain inside this JVM: the members (participants), every announced record, and the reader windows of
 * every topic. {@code lock} orders membership and discovery so that a joining member replays exactly the records
 * announced before it and sees every later one; the data path only reads the copy-on-write reader lists.
 */
final class LocalDomain
{
    private static final Map<Integer, LocalDomain> DOMAINS = new ConcurrentHashMap<>();

    private final int domainId;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Long, DiscoveryHandler> members = new LinkedHashMap<>();
    private final Map<Long, EndpointRecord> records = new LinkedHashMap<>();
    private final Map<String, CopyOnWriteArrayList<ReaderQueue>> readersByTopic = new ConcurrentHashMap<>();

    private LocalDomain(final int domainId)
    {
        this.domainId = domainId;
    }

    static LocalDomain of(final int domainId)
    {
        return DOMAINS.computeIfAbsent(domainId, LocalDomain::new);
    }

    int domainId()
    {
        return domainId;
    }

    void join(final long participantGuid, final DiscoveryHandler handler)
    {
        lock.lock();
        try
        {
            members.put(participantGuid, handler);
            for (final EndpointRecord record : records.values())
            {
                handler.onAnnounce(record);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    void leave(final long participantGuid)
    {
        lock.lock();
        try
        {
            final List<Long> owned = new ArrayList<>();
            for (final EndpointRecord record : records.values())
            {
                if (record.participantGuid() == participantGuid)
                {
                    owned.add(record.guid());
                }
            }
            for (final Long guid : owned.reversed())
            {
                retract(guid);
            }
            members.remove(participantGuid);
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Tells every member, the record's own participant last. The owner's discovery thread may act on its own record
     * at once: a writer matches the readers it knows, replays its TRANSIENT_LOCAL history with the end-of-history mark
     * and lets {@code write} go on. A member told after that could have the replay and the first samples delivered
     * to its reader before it knew the writer; the reader drops them (no matched writer) and then waits for an
     * end-of-history mark that already went by, losing the writer's whole stream. Told last, the owner acts only
     * once every other member knows the record ({@code onAnnounce} records it synchronously).
     */
    void announce(final EndpointRecord record)
    {
        lock.lock();
        try
        {
            records.put(record.guid(), record);
            DiscoveryHandler owner = null;
            for (final Map.Entry<Long, DiscoveryHandler> member : members.entrySet())
            {
                if (member.getKey() == record.participantGuid())
                {
                    owner = member.getValue();
                }
                else
                {
                    member.getValue().onAnnounce(record);
                }
            }
            if (owner != null)
            {
                owner.onAnnounce(record);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    void retract(final long guid)
    {
        lock.lock();
        try
        {
            if (records.remove(guid) != null)
            {
                for (final DiscoveryHandler handler : members.values())
                {
                    handler.onRetract(guid, false);
                }
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    List<ReaderQueue> readers(final String topicName)
    {
        return readersByTopic.computeIfAbsent(topicName, t -> new CopyOnWriteArrayList<>());
    }

    void addReader(final ReaderQueue queue)
    {
        readers(queue.topicName()).add(queue);
    }

    void removeReader(final ReaderQueue queue)
    {
        readers(queue.topicName()).remove(queue);
    }
}
