package io.sirocco.pubsub.bus.group;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.multicast.Subgroup;
import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.SlotClaim;

/**
 * Claims a slot of a topic subgroup in one view's engine only, never in a later one. {@link Subgroup#claim} waits
 * across view changes and exclusions and claims in whatever view comes next: a RELIABLE writer blocked there while
 * its member was excluded placed its next sample in the rejoin's view ahead of the re-send of what the old view did
 * not deliver, and the readers, which drop duplicates by writer sequence number, then dropped every re-sent sample as
 * an old one (issue 23: the samples a publisher re-sent after a rejoin never reached a reader that stayed). Here the
 * wait ends when the engine is replaced, so that the writer re-sends into the new view first.
 *
 * <p>The engine is known only as the identity {@link Subgroup#sendingEngine()} returns (pubsub uses the public face of
 * multicast only): a claim counts when that engine was the sending one both before and after it; engines never come
 * back, so the claim was made in it. A claim that a view change overtook is aborted (delivered to nobody).
 *
 * <p>Stateless; called under the writer's send lock.
 */
final class ViewBoundClaim
{
    private ViewBoundClaim()
    {
    }

    /**
     * @return {@link ClaimResult#OK} (the calling thread then holds the engine's sender lock until the claim's commit
     *     or abort); {@link ClaimResult#VIEW_CHANGING} at once when {@code engine} is no longer the subgroup's sending
     *     engine; else the last code when {@code timeoutNs} passed, or a code that retrying cannot change.
     */
    static int claim(final Subgroup subgroup, final Object engine, final int length, final SlotClaim claim,
        final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        long parkNs = 1_000;
        int spins = 0;
        while (true)
        {
            if (subgroup.sendingEngine() != engine)
            {
                return ClaimResult.VIEW_CHANGING;
            }
            final int rc = subgroup.tryClaim(length, claim);
            if (rc == ClaimResult.OK && subgroup.sendingEngine() != engine)
            {
                claim.abort();
                return ClaimResult.VIEW_CHANGING;
            }
            if (rc == ClaimResult.OK || (rc != ClaimResult.BACK_PRESSURED && rc != ClaimResult.VIEW_CHANGING))
            {
                return rc;
            }
            if (System.nanoTime() - deadlineNs >= 0)
            {
                return rc;
            }
            if (++spins < 100)
            {
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(parkNs);
                parkNs = Math.min(parkNs << 1, 100_000);
            }
        }
    }

    /**
     * Sends an encoded RELIABLE message again (a re-send, or one kept while no view made this member a sender) in
     * {@code engine}, remembered as unconfirmed; false when it could not be claimed there.
     */
    static boolean resend(final Subgroup subgroup, final Object engine, final byte[] message,
        final SlotClaim claim, final UnconfirmedMessages unconfirmed, final long timeoutNs)
    {
        if (claim(subgroup, engine, message.length, claim, timeoutNs) != ClaimResult.OK)
        {
            return false;
        }
        MemorySegment.copy(message, 0, claim.buffer(), ValueLayout.JAVA_BYTE, 0, message.length);
        unconfirmed.remember(claim.buffer(), message.length);
        claim.commit();
        return true;
    }
}
