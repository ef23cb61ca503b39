package io.sirocco.pubsub.bus.group;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import io.sirocco.multicast.model.View;
import io.sirocco.pubsub.bus.DiscoveryHandler;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.bus.RecordCodec;

/**
 * The endpoint records of a domain as this member knows them: its own ({@code local}, re-announced after each view
 * change), the remote ones handed to the DDS layer ({@code forwarded}), and those waiting for the installed view to
 * hold their data path ({@code pending}). A record is handed to the DDS layer only once the view has its member in
 * the endpoint's subgroups (and this member too, when it has a channel there), so "matched" means the data path
 * exists. Every change of the known writers is published to the {@link WriterDirectory}.
 *
 * <p>Concurrency: this object's monitor is the group bus's record lock; every method takes it, and the bus and
 * {@link WriterRetirement} hold it around compound steps. {@link DiscoveryHandler} upcalls run under it.
 */
final class EndpointRecords
{
    private final long memberId;
    private final DiscoveryHandler discovery;
    private final WriterDirectory writers;
    private final Predicate<String> hasLocalChannel;
    private final BooleanSupplier closed;
    private final Map<Long, EndpointRecord> local = new LinkedHashMap<>();
    private final Map<Long, EndpointRecord> pending = new LinkedHashMap<>();
    private final Map<Long, EndpointRecord> forwarded = new HashMap<>();
    private volatile View view;

    /**
     * @param hasLocalChannel whether this member has a channel of the named topic subgroup.
     * @param closed          whether the bus is closed (then nothing more is handed to the DDS layer).
     */
    EndpointRecords(final long memberId, final DiscoveryHandler discovery, final WriterDirectory writers,
        final Predicate<String> hasLocalChannel, final BooleanSupplier closed)
    {
        this.memberId = memberId;
        this.discovery = discovery;
        this.writers = writers;
        this.hasLocalChannel = hasLocalChannel;
        this.closed = closed;
    }

    View view()
    {
        return view;
    }

    synchronized void view(final View installed)
    {
        view = installed;
    }

    synchronized void putLocal(final EndpointRecord record)
    {
        local.put(record.guid(), record);
    }

    synchronized void removeLocal(final long guid)
    {
        local.remove(guid);
    }

    synchronized List<Long> localGuids()
    {
        return new ArrayList<>(local.keySet());
    }

    /** This member's records, encoded for re-announcement. */
    synchronized List<byte[]> localAnnouncements()
    {
        final List<byte[]> mine = new ArrayList<>();
        for (final EndpointRecord record : local.values())
        {
            mine.add(RecordCodec.announce(record));
        }
        return mine;
    }

    synchronized EndpointRecord forwarded(final long guid)
    {
        return forwarded.get(guid);
    }

    /** The GUIDs of the forwarded records of the given members. */
    synchronized List<Long> forwardedOf(final List<Long> members)
    {
        final List<Long> guids = new ArrayList<>();
        for (final EndpointRecord record : forwarded.values())
        {
            if (members.contains(SubgroupNames.memberOf(record.participantGuid())))
            {
                guids.add(record.guid());
            }
        }
        return guids;
    }

    /** The GUIDs of the forwarded records of other participants than {@code participantGuid}. */
    synchronized List<Long> remoteGuids(final long participantGuid)
    {
        final List<Long> guids = new ArrayList<>();
        for (final EndpointRecord record : forwarded.values())
        {
            if (record.participantGuid() != participantGuid)
            {
                guids.add(record.guid());
            }
        }
        return guids;
    }

    synchronized List<EndpointRecord> pendingRecords()
    {
        return new ArrayList<>(pending.values());
    }

    synchronized void dropPendingOf(final List<Long> members)
    {
        pending.values().removeIf(record -> members.contains(SubgroupNames.memberOf(record.participantGuid())));
    }

    synchronized void clearPending()
    {
        pending.clear();
    }

    /** Whether the data path for this record's endpoint exists in the installed view. */
    private boolean ready(final EndpointRecord record)
    {
        final View v = view;
        if (v == null)
        {
            return false;
        }
        for (final String name : SubgroupNames.channelsOf(record))
        {
            if (!SubgroupNames.inSubgroup(v, name, SubgroupNames.memberOf(record.participantGuid())))
            {
                return false;
            }
            if (hasLocalChannel.test(name) && !SubgroupNames.inSubgroup(v, name, memberId))
            {
                return false;
            }
        }
        return true;
    }

    /** @return whether a writer's record was handed to the DDS layer (its held samples may go now). */
    synchronized boolean offer(final EndpointRecord record)
    {
        if (closed.getAsBoolean())
        {
            return false;
        }
        final EndpointRecord known = forwarded.get(record.guid());
        if (known != null && Arrays.equals(RecordCodec.announce(known), RecordCodec.announce(record)))
        {
            return false;
        }
        if (ready(record))
        {
            pending.remove(record.guid());
            forwarded.put(record.guid(), record);
            discovery.onAnnounce(record);
            if (record.isWriter() && known == null)
            {
                publishWriters();
                return true;
            }
        }
        else
        {
            pending.put(record.guid(), record);
        }
        return false;
    }

    /**
     * @param failed the entity's member left the view, or this member was excluded: the entity did not close, and if
     *               its member comes back (a rejoin after a false suspicion), its samples in the new view, the re-sent
     *               ones first, may arrive before its re-announced record. It is therefore not retired: its samples
     *               are held until the record is handed to the DDS layer again (a reader drops the samples of a
     *               writer it does not know, silently). A closed entity's GUID never comes back: it is retired, and
     *               samples of it still on their way are delivered as they always were.
     */
    synchronized void retract(final long guid, final boolean failed)
    {
        pending.remove(guid);
        if (!failed)
        {
            writers.retire(guid);
        }
        final EndpointRecord removed = forwarded.remove(guid);
        if (removed != null)
        {
            if (removed.isWriter())
            {
                publishWriters();
            }
            discovery.onRetract(guid, failed);
        }
        writers.bump();
    }

    /** Publishes the sorted writer GUIDs of {@code forwarded}. */
    private void publishWriters()
    {
        writers.publishKnown(forwarded.values().stream().filter(EndpointRecord::isWriter)
            .mapToLong(EndpointRecord::guid).sorted().toArray());
    }
}
