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

    void announce(final EndpointRecord record)
    {
        lock.lock();
        try
        {
            records.put(record.guid(), record);
            for (final DiscoveryHandler handler : members.values())
            {
                handler.onAnnounce(record);
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
