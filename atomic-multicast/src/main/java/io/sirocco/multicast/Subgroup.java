package io.sirocco.multicast;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.smc.SubgroupEngine;

import java.util.concurrent.locks.LockSupport;

/**
 * This member's handle on a named subgroup; stable across views (each view rebuilds the engine underneath).
 *
 * <p><b>Sending</b> (writers): {@link #tryClaim} or {@link #claim} a slot, build the message in place in
 * {@link SlotClaim#buffer()}, then {@link SlotClaim#commit()}. The calling thread performs no I/O; the predicate thread
 * publishes. Between claim and commit the thread holds the subgroup's sender lock: keep it short. Messages claimed in
 * a view that ends before they are delivered everywhere are dropped by the view change (the ragged trim), as in
 * Derecho: a sender that must not lose them resends after {@link MembershipListener#onViewInstalled}.
 *
 * <p><b>Receiving</b>: the {@link DeliveryHandler} given at registration, on the predicate thread.
 */
public final class Subgroup
{
    private final String name;
    private final Role role;
    private final DeliveryHandler handler;
    private volatile SubgroupEngine engine;
    private volatile boolean closed;
    private volatile boolean persistenceHold;

    Subgroup(final String name, final Role role, final DeliveryHandler handler)
    {
        this.name = name;
        this.role = role;
        this.handler = handler;
    }

    public String name()
    {
        return name;
    }

    public Role role()
    {
        return role;
    }

    DeliveryHandler handler()
    {
        return handler;
    }

    void engine(final SubgroupEngine e)
    {
        if (e != null)
        {
            e.holdForPersistence(persistenceHold);
        }
        engine = e;
    }

    void close()
    {
        closed = true;
        engine = null;
    }

    /**
     * Non-blocking claim of a slot for {@code length} bytes.
     *
     * @param length message length.
     * @param claim  receives the slot on success.
     * @return {@link ClaimResult#OK} or a negative reason.
     */
    public int tryClaim(final int length, final SlotClaim claim)
    {
        if (closed)
        {
            return ClaimResult.CLOSED;
        }
        if (!role.sends())
        {
            return ClaimResult.NOT_A_WRITER;
        }
        final SubgroupEngine e = engine;
        return e == null ? ClaimResult.VIEW_CHANGING : e.tryClaim(length, claim);
    }

    /**
     * Blocking claim: retries while back-pressured or while the view changes, up to {@code timeoutNs} (DDS
     * {@code max_blocking_time}); spins briefly, then parks in growing steps up to 100 µs.
     *
     * @param length    message length.
     * @param claim     receives the slot on success.
     * @param timeoutNs how long to wait.
     * @return {@link ClaimResult#OK}, the last retryable code on timeout, or a non-retryable code at once.
     */
    public int claim(final int length, final SlotClaim claim, final long timeoutNs)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        long parkNs = 1_000;
        int spins = 0;
        while (true)
        {
            final int rc = tryClaim(length, claim);
            if (rc == ClaimResult.OK || (rc != ClaimResult.BACK_PRESSURED && rc != ClaimResult.VIEW_CHANGING))
            {
                return rc;
            }
            if (System.nanoTime() - deadline >= 0)
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

    /** The persistence hook: this member made durable every message it delivered with {@code seq < count}. */
    public void persisted(final long count)
    {
        final SubgroupEngine e = engine;
        if (e != null)
        {
            e.persisted(count);
        }
    }

    /**
     * With a hold, a view change waits (after the ragged trim) until every live member reported through
     * {@link #persisted(long)} that it persisted everything it delivered.
     */
    public void holdViewChangeForPersistence(final boolean hold)
    {
        persistenceHold = hold;
        final SubgroupEngine e = engine;
        if (e != null)
        {
            e.holdForPersistence(hold);
        }
    }

    /** @return the engine of the current view, or null while none (internal, for benchmarks and tests). */
    public SubgroupEngine currentEngine()
    {
        return engine;
    }
}
