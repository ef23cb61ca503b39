package io.sirocco.multicast.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The predicate engine's sleep on an {@link IdleWait} bell: a ring (not the engine's own doorbell) wakes it, work that
 * lands between arming and sleeping is found by the pass after arming, and a bell that cannot sleep falls back to the
 * timed park, which {@link PredicateEngine#wake()} still ends. Every park bound is 60 s, so within the test's 20 s
 * waits only the mechanism under test can get the work done.
 */
@Timeout(60)
class IdleWaitEngineTest
{
    private static final long LONG_NS = TimeUnit.SECONDS.toNanos(60);

    private final String previous = System.getProperty(PredicateEngine.EVENT_DRIVEN_PARK_PROP);

    @AfterEach
    void restore()
    {
        if (previous == null)
        {
            System.clearProperty(PredicateEngine.EVENT_DRIVEN_PARK_PROP);
        }
        else
        {
            System.setProperty(PredicateEngine.EVENT_DRIVEN_PARK_PROP, previous);
        }
    }

    private static PredicateEngine engine(final String name)
    {
        System.setProperty(PredicateEngine.EVENT_DRIVEN_PARK_PROP, Long.toString(LONG_NS));
        return new PredicateEngine(name, 5, 0, LONG_NS);
    }

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
    void shouldBeWokenByARingOfItsBell()
    {
        final TestBell bell = new TestBell();
        final AtomicBoolean work = new AtomicBoolean();
        final AtomicInteger done = new AtomicInteger();
        try (PredicateEngine e = engine("bell-ring"))
        {
            e.idleWait(bell);
            e.register(this, () -> work.getAndSet(false) && done.incrementAndGet() > 0);
            e.start();
            awaitTrue("the engine asleep on the bell", () -> bell.sleeping);
            work.set(true);
            bell.ring();
            awaitTrue("the work after the ring", () -> done.get() == 1);
        }
    }

    @Test
    void shouldFindWorkThatLandedBetweenArmingAndSleeping()
    {
        final TestBell bell = new TestBell();
        final AtomicBoolean work = new AtomicBoolean();
        final AtomicInteger done = new AtomicInteger();
        final AtomicInteger arms = new AtomicInteger();
        // A push that lands right after the engine armed, without a ring (the pusher read the bell before the arm).
        bell.onArm = () ->
        {
            if (arms.incrementAndGet() == 1)
            {
                work.set(true);
            }
        };
        try (PredicateEngine e = engine("bell-race"))
        {
            e.idleWait(bell);
            e.register(this, () -> work.getAndSet(false) && done.incrementAndGet() > 0);
            e.start();
            awaitTrue("the work found by the pass after arming", () -> done.get() == 1);
        }
    }

    @Test
    void shouldFallBackToTheTimedParkWhenTheBellCannotSleep()
    {
        final TestBell bell = new TestBell();
        bell.canSleep = false;
        final AtomicBoolean work = new AtomicBoolean();
        final AtomicInteger done = new AtomicInteger();
        try (PredicateEngine e = engine("bell-fallback"))
        {
            e.idleWait(bell);
            e.register(this, () -> work.getAndSet(false) && done.incrementAndGet() > 0);
            e.start();
            awaitTrue("the engine parked", () -> e.isParked() && bell.awaits.get() > 0);
            final long parks = e.idleParks();
            work.set(true);
            e.wake();
            awaitTrue("the work after wake()", () -> done.get() == 1);
            // It did park (not spin through failed sleeps): a handful of parks, not millions, while idle for 200 ms.
            LockSupport.parkNanos(200_000_000L);
            assertThat(e.idleParks() - parks).isLessThan(1_000);
        }
    }

    /** An in-JVM {@link IdleWait} with the same protocol as the shm bell. */
    private static final class TestBell implements IdleWait
    {
        final AtomicInteger value = new AtomicInteger();
        final AtomicInteger awaits = new AtomicInteger();
        volatile boolean armed;
        volatile boolean sleeping;
        volatile Thread sleeper;
        volatile boolean canSleep = true;
        volatile Runnable onArm = () -> { };

        @Override
        public int arm()
        {
            armed = true;
            VarHandle.fullFence();
            final int v = value.get();
            onArm.run();
            return v;
        }

        @Override
        public boolean await(final int token, final long timeoutNs)
        {
            awaits.incrementAndGet();
            if (!canSleep)
            {
                return false;
            }
            sleeper = Thread.currentThread();
            sleeping = true;
            final long end = System.nanoTime() + timeoutNs;
            while (value.get() == token && System.nanoTime() - end < 0)
            {
                LockSupport.parkNanos(this, end - System.nanoTime());
            }
            sleeping = false;
            return true;
        }

        @Override
        public void disarm()
        {
            armed = false;
        }

        @Override
        public void ring()
        {
            VarHandle.fullFence();
            if (armed)
            {
                armed = false;
                value.incrementAndGet();
                final Thread t = sleeper;
                if (t != null)
                {
                    LockSupport.unpark(t);
                }
            }
        }
    }
}
