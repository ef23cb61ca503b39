package io.sirocco.multicast.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The predicate thread's hot window: an idle engine with a window still parks once the window ran out (it never
 * spins or yields forever, with or without yield passes, with or without adaptive spins), and new work after a park
 * is still picked up.
 */
@Timeout(60)
class HotWindowTest
{
    private static void awaitTrue(final String what, final java.util.function.BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean())
        {
            assertThat(System.nanoTime() - deadline).as("waiting for: %s", what).isNegative();
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
    }

    @Test
    void shouldParkAfterTheWindowAndStillRunNewWork()
    {
        for (final int variant : new int[] {0, 1, 2, 3})
        {
            final int yields = (variant & 1) == 0 ? 0 : 5;
            final long adaptiveNs = (variant & 2) == 0 ? 0 : 1_500;
            try (PredicateEngine engine = new PredicateEngine("hot-window-test", 10, yields, 1_000_000))
            {
                engine.spinWindowNs(TimeUnit.MICROSECONDS.toNanos(200));
                engine.adaptiveSpinNs(adaptiveNs);
                final AtomicBoolean work = new AtomicBoolean();
                final AtomicLong done = new AtomicLong();
                engine.register(this, () ->
                {
                    if (work.getAndSet(false))
                    {
                        done.incrementAndGet();
                        return true;
                    }
                    return false;
                });
                engine.start();
                for (int round = 1; round <= 3; round++)
                {
                    final long parksBefore = engine.idleParks();
                    awaitTrue("a park after the hot window (yields " + yields + ")",
                        () -> engine.idleParks() > parksBefore);
                    assertThat(engine.currentSpins()).isBetween(0, 10);
                    work.set(true);
                    engine.wake();
                    final long expected = round;
                    awaitTrue("the work of round " + round, () -> done.get() == expected);
                }
                assertThat(engine.failure()).isNull();
            }
        }
    }

    @Test
    void shouldRejectANegativeWindowNamingTheThread()
    {
        try (PredicateEngine engine = new PredicateEngine("hot-window-negative", 10, 0, 1_000))
        {
            assertThatThrownBy(() -> engine.spinWindowNs(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hot-window-negative");
        }
    }
}
