package io.sirocco.multicast.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The event-driven idle gate ({@link PredicateEngine#EVENT_DRIVEN_IDLE_GATE_PROP}): while the group is event-driven,
 * an idle engine thread parks after its first idle pass instead of spinning its {@code spinPasses} (each of which takes
 * the pass lock that the receiving thread's inline passes need), and a ring still wakes it.
 */
@Timeout(60)
class EventDrivenIdleGateTest
{
    /** So many spins that an engine thread honouring them would not park within the test's wait. */
    private static final int HUGE_SPINS = Integer.MAX_VALUE / 4;

    private static void awaitTrue(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean())
        {
            assertThat(System.nanoTime() - deadline).as("waiting for: %s", what).isNegative();
            LockSupport.parkNanos(1_000_000L);
        }
    }

    @Test
    void shouldParkAfterTheFirstIdlePassWhileEventDrivenAndStillServeARing()
    {
        try (PredicateEngine engine = new PredicateEngine("idle-gate-test", HUGE_SPINS, 0, 1_000_000))
        {
            engine.eventDriven(true);
            final AtomicInteger work = new AtomicInteger();
            final AtomicInteger served = new AtomicInteger();
            engine.register(this, () ->
            {
                final int w = work.getAndSet(0);
                served.addAndGet(w);
                return w > 0;
            });
            engine.start();
            awaitTrue("an event-driven idle engine thread parks without spinning " + HUGE_SPINS + " passes first",
                () -> engine.idleParks() > 0);
            // Few passes, not spins: it parked after the first idle ones (the parks double up to the 1 ms bound).
            assertThat(engine.passes()).isLessThan(HUGE_SPINS / 1000);
            work.incrementAndGet();
            engine.wake();
            awaitTrue("a ring wakes the gated engine thread", () -> served.get() > 0);
        }
    }
}
