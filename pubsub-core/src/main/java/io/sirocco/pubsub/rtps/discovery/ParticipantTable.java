package io.sirocco.pubsub.rtps.discovery;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The participants SPDP found, each with its lease deadline: refreshed by every announcement and renewed by any other
 * message from the participant (as Cyclone does: under loss, one lost announcement must not drop a participant that
 * keeps talking), dropped when the lease runs out or the participant says it is gone.
 *
 * <p>Threads: one writer, the RTPS agent (refresh, remove, expire; listeners are called there); any thread reads a
 * snapshot through {@link #participants()} (a ConcurrentHashMap's weakly consistent view) and adds listeners.
 */
public final class ParticipantTable
{
    private static final Logger LOG = LoggerFactory.getLogger(ParticipantTable.class);

    private final Map<GuidPrefix, Entry> entries = new ConcurrentHashMap<>();
    private final List<ParticipantListener> listeners = new CopyOnWriteArrayList<>();
    private final int domainId;
    private final AtomicLong version = new AtomicLong();

    public ParticipantTable(final int domainId)
    {
        this.domainId = domainId;
    }

    public void addListener(final ParticipantListener listener)
    {
        listeners.add(listener);
    }

    /** An announcement of {@code p} at {@code nowNs}: new participants are logged and reported. */
    public void refresh(final DiscoveredParticipant p, final long nowNs)
    {
        final Entry previous = entries.put(p.prefix(), new Entry(p, nowNs + p.leaseDurationNs()));
        if (previous == null)
        {
            version.incrementAndGet();
            LOG.info("domain {}: RTPS discovered {}", domainId, p);
            for (final ParticipantListener l : listeners)
            {
                l.onDiscovered(p);
            }
        }
    }

    /** A message from {@code prefix} at {@code nowNs}: renews its lease, if it is known. */
    public void renew(final GuidPrefix prefix, final long nowNs)
    {
        final Entry e = entries.get(prefix);
        if (e != null)
        {
            e.deadlineNs = Math.max(e.deadlineNs, nowNs + e.participant.leaseDurationNs());
        }
    }

    /** The participant said it is gone (a disposed or unregistered SPDP sample). */
    public void remove(final GuidPrefix prefix, final String why)
    {
        final Entry gone = entries.remove(prefix);
        if (gone != null)
        {
            lost(gone.participant, why);
        }
    }

    /** Drops every participant whose lease ran out before {@code nowNs}. */
    public void expire(final long nowNs)
    {
        for (final Entry e : entries.values())
        {
            if (e.deadlineNs - nowNs < 0 && entries.remove(e.participant.prefix(), e))
            {
                lost(e.participant, "lease expired");
            }
        }
    }

    private void lost(final DiscoveredParticipant p, final String why)
    {
        version.incrementAndGet();
        LOG.info("domain {}: RTPS lost participant {} ({})", domainId, p.prefix(), why);
        for (final ParticipantListener l : listeners)
        {
            l.onLost(p, why);
        }
    }

    /**
     * Bumped when a participant is found or lost (not by the announcements that refresh a known one): a reader of the
     * table recomputes what it derived only when this moved.
     */
    public long version()
    {
        return version.get();
    }

    /** The live participant with {@code prefix}, or null. */
    public DiscoveredParticipant get(final GuidPrefix prefix)
    {
        final Entry e = entries.get(prefix);
        return e == null ? null : e.participant;
    }

    public boolean contains(final GuidPrefix prefix)
    {
        return entries.containsKey(prefix);
    }

    /** A snapshot of the live participants. */
    public Collection<DiscoveredParticipant> participants()
    {
        return entries.values().stream().map(Entry::participant).toList();
    }

    /** A participant and its lease deadline (written and read by the RTPS agent only). */
    private static final class Entry
    {
        final DiscoveredParticipant participant;
        long deadlineNs;

        Entry(final DiscoveredParticipant participant, final long deadlineNs)
        {
            this.participant = participant;
            this.deadlineNs = deadlineNs;
        }

        DiscoveredParticipant participant()
        {
            return participant;
        }
    }
}
