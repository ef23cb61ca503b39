package io.sirocco.pubsub.bus.group;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RELIABLE topic subgroups: this member's messages already delivered to every member of their view, kept for members
 * that left the view without closing their readers (excluded after a false suspicion, a partition, or a crash; the
 * writer cannot tell which) until they come back, as an RTPS writer keeps a silent reader's unacknowledged samples.
 * A falsely excluded member's readers then get, re-sent with their original sequence numbers before anything new,
 * what was written while they were out (issue 23); their duplicate filters drop what they already took.
 *
 * <p>Even with nobody away, the last {@link #lookback} confirmed messages stay: a member confirms a message when it
 * received it, and a process frozen just then is excluded before it hands the message to its readers, so what a
 * returning member may miss starts up to a window or two before its exclusion.
 *
 * <p>Bounds: at most {@value #MAX_KEPT} messages and {@value #MAX_BYTES} bytes while someone is away (the oldest go
 * first, with a warning: the returning readers see those sequence numbers missing), and a member that stays away
 * longer than {@value #AWAY_MS} ms is given up (a crashed process never comes back under its member id).
 *
 * <p>Not thread-safe: guarded by the owning {@link UnconfirmedMessages}' monitor.
 */
final class RetainedMessages
{
    private static final Logger LOG = LoggerFactory.getLogger(RetainedMessages.class);
    /** The most messages kept while a member is away. */
    static final int MAX_KEPT = 65_536;
    /** The most bytes kept while a member is away. */
    static final long MAX_BYTES = 64L << 20;
    /** The most bytes of the look-back tail kept while nobody is away. */
    static final long MAX_LOOKBACK_BYTES = 16L << 20;
    /** How long a member that left may stay away and still get what it missed. */
    static final long AWAY_MS = 120_000;

    private final String channelName;
    private final int lookback;
    private final ArrayDeque<byte[]> kept = new ArrayDeque<>();
    /** Members away, by member id: when they left and the first kept message they may miss. */
    private final Map<Long, Away> away = new LinkedHashMap<>();
    /** The confirmation index of {@code kept}'s first message, and of the next message confirmed. */
    private long firstIndex;
    private long nextIndex;
    /** The lowest {@link Away#fromIndex} of the members away (recomputed when one leaves or returns). */
    private long keepFrom;
    private long bytes;
    /** Messages dropped for lack of room since a member went away (0 while nobody is). */
    private long dropped;

    /** A member away: since when (System.nanoTime()), and the confirmation index its re-send starts at. */
    private record Away(long sinceNs, long fromIndex)
    {
    }

    /** @param lookback how many confirmed messages stay even while nobody is away. */
    RetainedMessages(final String channelName, final int lookback)
    {
        this.channelName = channelName;
        this.lookback = lookback;
    }

    boolean anyAway()
    {
        return !away.isEmpty();
    }

    /** A message was confirmed: kept; the messages that fall out of the bounds go to {@code pool}. */
    void confirmed(final byte[] message, final ArrayDeque<byte[]> pool)
    {
        kept.addLast(message);
        nextIndex++;
        bytes += message.length;
        final boolean anyAway = !away.isEmpty();
        final int maxCount = anyAway ? MAX_KEPT : lookback;
        final long maxBytes = anyAway ? MAX_BYTES : MAX_LOOKBACK_BYTES;
        final long from = anyAway ? keepFrom : nextIndex - lookback;
        while (kept.size() > maxCount || (bytes > maxBytes && kept.size() > 1) || (firstIndex < from))
        {
            final byte[] out = kept.pollFirst();
            final boolean needed = firstIndex >= from;
            firstIndex++;
            bytes -= out.length;
            pool.addLast(out);
            if (anyAway && needed && dropped++ == 0)
            {
                LOG.warn("topic subgroup {}: more than {} messages ({} MiB) written while member(s) {} are out of the "
                    + "view; the oldest are dropped: those members' readers miss them when they come back",
                    channelName, MAX_KEPT, MAX_BYTES >> 20, away.keySet());
            }
        }
    }

    /** A member left the view while it still had a reader of the topic (predicate thread, at the view install). */
    void left(final long member, final long nowNs)
    {
        if (away.isEmpty())
        {
            dropped = 0;
        }
        away.putIfAbsent(member, new Away(nowNs, Math.max(firstIndex, nextIndex - lookback)));
        recomputeKeepFrom();
        LOG.debug("topic subgroup {}: member {} left with a reader; {} sent message(s) kept for its return",
            channelName, member, kept.size());
    }

    /**
     * A member is back in the view: copies of every message kept, oldest first, if it was away (else none); forgets
     * the members away for longer than {@value #AWAY_MS} ms.
     */
    List<byte[]> returned(final long member, final long nowNs)
    {
        final Away back = away.remove(member);
        expire(nowNs);
        if (back == null)
        {
            return List.of();
        }
        final List<byte[]> copies = new ArrayList<>();
        long index = firstIndex;
        for (final byte[] message : kept)
        {
            if (index++ >= back.fromIndex())
            {
                copies.add(message.clone());
            }
        }
        LOG.info("topic subgroup {}: member {} is back after {} ms; re-sending the {} message(s) kept for it{}",
            channelName, member, TimeUnit.NANOSECONDS.toMillis(nowNs - back.sinceNs()), copies.size(),
            dropped == 0 ? "" : " (" + dropped + " older one(s) were dropped for lack of room)");
        return copies;
    }

    /** Gives up the members away for longer than {@value #AWAY_MS} ms. */
    void expire(final long nowNs)
    {
        final Iterator<Map.Entry<Long, Away>> it = away.entrySet().iterator();
        while (it.hasNext())
        {
            final Map.Entry<Long, Away> entry = it.next();
            if (nowNs - entry.getValue().sinceNs() > TimeUnit.MILLISECONDS.toNanos(AWAY_MS))
            {
                it.remove();
                LOG.info("topic subgroup {}: member {} stayed out of the view for more than {} ms; the messages kept "
                    + "for it are released", channelName, entry.getKey(), AWAY_MS);
            }
        }
        recomputeKeepFrom();
    }

    private void recomputeKeepFrom()
    {
        long from = nextIndex;
        for (final Away a : away.values())
        {
            from = Math.min(from, a.fromIndex());
        }
        keepFrom = from;
    }
}
