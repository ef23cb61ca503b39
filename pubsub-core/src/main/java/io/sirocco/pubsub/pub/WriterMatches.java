package io.sirocco.pubsub.pub;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.status.MatchedCounts;
import io.sirocco.pubsub.topic.builtin.SubscriptionDataImpl;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.status.PublicationMatchedStatus;
import org.omg.dds.topic.SubscriptionBuiltinTopicData;

/**
 * A DataWriter's matched readers and its PUBLICATION_MATCHED counts, which change together: the set behind
 * {@code getMatchedSubscriptions} and {@code getMatchedSubscriptionData} and the counts behind
 * {@code getPublicationMatchedStatus} are updated in one critical section, so a handle the status names as the last
 * matched reader is already in the set when the status can be read.
 *
 * The matched readers' content filters ({@link ReaderFilters}) change with the set, in the same critical section.
 *
 * <p>Threads: the discovery thread adds and removes; any thread reads. Everything is guarded by the writer's
 * {@code statusLock} (passed in), the lock its statuses are taken under; {@link #status} is called with it held.
 */
final class WriterMatches
{
    private final Object statusLock;
    private final Map<Long, EndpointRecord> readers = new LinkedHashMap<>();
    private final MatchedCounts counts = new MatchedCounts();
    private final ReaderFilters<?> filters;

    WriterMatches(final Object statusLock, final ReaderFilters<?> filters)
    {
        this.statusLock = statusLock;
        this.filters = filters;
    }

    /**
     * A compatible reader: matched and counted, unless it already was (then its record, re-announced with new
     * filter parameters, replaces the one known). @return true if it is new.
     */
    boolean add(final EndpointRecord reader)
    {
        synchronized (statusLock)
        {
            final boolean known = readers.put(reader.guid(), reader) != null;
            filters.matched(reader);
            if (known)
            {
                return false;
            }
            counts.matched(reader.guid());
            return true;
        }
    }

    /** A matched reader is gone: unmatched and counted. @return false if it was not matched. */
    boolean remove(final long readerGuid)
    {
        synchronized (statusLock)
        {
            if (readers.remove(readerGuid) == null)
            {
                return false;
            }
            filters.unmatched(readerGuid);
            counts.unmatched(readerGuid);
            return true;
        }
    }

    /** The handles of the matched readers. */
    Set<InstanceHandle> handles(final ServiceEnvironment env)
    {
        synchronized (statusLock)
        {
            final Set<InstanceHandle> handles = new HashSet<>();
            for (final Long readerGuid : readers.keySet())
            {
                handles.add(new HandleImpl(env, readerGuid));
            }
            return handles;
        }
    }

    /** The record of a matched reader, or null. */
    EndpointRecord reader(final long readerGuid)
    {
        synchronized (statusLock)
        {
            return readers.get(readerGuid);
        }
    }

    /** The built-in data of a matched reader (getMatchedSubscriptionData); IllegalArgumentException if none. */
    SubscriptionBuiltinTopicData readerData(final ServiceEnvironment env, final String writer,
        final InstanceHandle handle)
    {
        final EndpointRecord reader = reader(HandleImpl.valueOf(handle));
        if (reader == null)
        {
            throw new IllegalArgumentException(writer + ": " + handle + " is not a matched subscription");
        }
        return new SubscriptionDataImpl(env, reader);
    }

    /** Under {@code statusLock}: the PUBLICATION_MATCHED status, its change counts reset. */
    PublicationMatchedStatus status(final ServiceEnvironment env)
    {
        return counts.publication(env);
    }
}
