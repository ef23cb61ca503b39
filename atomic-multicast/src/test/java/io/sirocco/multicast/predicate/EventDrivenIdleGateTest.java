package io.sirocco.multicast.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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

    @Test
    void shouldParkAfterTheFirstIdlePassWhileEventDrivenAndStillServeARing() throws Exception
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
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (engine.idleParks() == 0)
            {
                assertThat(System.nanoTime() - deadline)
                    .as("an event-driven idle engine thread parks without spinning %d passes first", HUGE_SPINS)
                    .isNegative();
                Thread.sleep(1);
            }
            // Few passes, not spins: it parked after the first idle ones (the parks double up to the 1 ms bound).
            assertThat(engine.passes()).isLessThan(HUGE_SPINS / 1000);
            work.incrementAndGet();
            engine.wake();
            final long served1 = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (served.get() == 0)
            {
                assertThat(System.nanoTime() - served1).as("a ring wakes the gated engine thread").isNegative();
                Thread.sleep(1);
            }
        }
    }
}
