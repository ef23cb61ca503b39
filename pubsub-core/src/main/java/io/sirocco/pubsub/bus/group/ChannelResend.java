package io.sirocco.pubsub.bus.group;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.multicast.Subgroup;
import io.sirocco.multicast.model.SlotClaim;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The re-send of what a view change trimmed from a RELIABLE topic channel, once per channel and sending engine. The
 * channel's {@link UnconfirmedMessages} hold the messages of every writer of the topic in this participant, so the
 * re-send is the channel's, not a writer's: when each writer re-sent on its own, the first took every writer's trimmed
 * messages and re-sent them while a second writer, finding nothing left to take, sent a new sample into the new view
 * first; the readers, which drop duplicates by writer sequence number, then dropped the second writer's re-sent
 * samples as old ones (issue 23). Here a writer that sees a new engine waits for the channel's one re-send into it.
 *
 * <p>Concurrency: {@code lock} serializes the re-sends of the channel's writers (each calls under its own send lock;
 * no lock is taken under this one but a claim's sender lock, released by the claim's commit or abort) and guards
 * {@code resentEngine}. A writer on the predicate thread does not wait for the lock (its timeout is 0): only that
 * thread makes the room the holder's re-send may wait for.
 */
final class ChannelResend
{
    private static final Logger LOG = LoggerFactory.getLogger(ChannelResend.class);

    private final ReentrantLock lock = new ReentrantLock();
    /** Under {@code lock}: the sending engine the trimmed messages were last re-sent into (engines never come back). */
    private Object resentEngine;

    /**
     * Re-sends, in order, what the channel's earlier views did not deliver to every member, into {@code engine},
     * unless a writer of the channel already did.
     *
     * @param claim     the calling writer's claim.
     * @param timeoutNs how long the re-send may wait for the lock and for room.
     * @return whether everything trimmed is re-sent into {@code engine}; false leaves the rest for the next attempt.
     */
    boolean resendInto(final String channelName, final UnconfirmedMessages unconfirmed, final Subgroup subgroup,
        final Object engine, final SlotClaim claim, final long timeoutNs)
    {
        try
        {
            if (!lock.tryLock(timeoutNs, TimeUnit.NANOSECONDS))
            {
                return false;
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
        try
        {
            if (resentEngine == engine)
            {
                return true;
            }
            final List<byte[]> trimmed = unconfirmed.takeAll();
            if (!trimmed.isEmpty())
            {
                LOG.debug("topic subgroup {}: re-sending {} message(s) removed by a view change", channelName,
                    trimmed.size());
            }
            for (int i = 0; i < trimmed.size(); i++)
            {
                if (!ViewBoundClaim.resend(subgroup, engine, trimmed.get(i), claim, unconfirmed, timeoutNs))
                {
                    unconfirmed.restore(trimmed.subList(i, trimmed.size()));
                    return false;
                }
            }
            resentEngine = engine;
            return true;
        }
        finally
        {
            lock.unlock();
        }
    }
}
