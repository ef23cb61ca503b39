package io.sirocco.multicast.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Passes run inline by other threads ({@link PredicateEngine#tryRunInline()}): engine-only triggers never run on them,
 * a nested call runs nothing, and work announced while another thread holds the pass is served when that pass ends,
 * not when a long park of the engine thread ends.
 */
@Timeout(60)
class InlinePassTest
{
    private static void awaitTrue(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean())
        {
            assertThat(System.nanoTime() - deadline).as("waiting for: %s", what).isNegative();
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
    }

    @Test
    void shouldRunOnlyInlineSafeTriggersOnTheCallingThreadAndNothingWhenNested() throws Exception
    {
        try (PredicateEngine engine = new PredicateEngine("inline-test", 10, 0, 1_000_000))
        {
            final Set<Thread> engineOnly = ConcurrentHashMap.newKeySet();
            final Set<Thread> inlineSafe = ConcurrentHashMap.newKeySet();
            final AtomicBoolean nestedRan = new AtomicBoolean(true);
            final AtomicBoolean nestedAnswer = new AtomicBoolean();
            engine.registerEngineOnly(this, () ->
            {
                engineOnly.add(Thread.currentThread());
                return false;
            });
            engine.register(this, () ->
            {
                inlineSafe.add(Thread.currentThread());
                if (Thread.currentThread() != engine.thread())
                {
                    // A nested call from inside a pass runs nothing and reports that the pass covers it.
                    nestedAnswer.set(engine.tryRunInline());
                    nestedRan.set(engine.onEngineThread());
                }
                return false;
            });
            engine.start();
            final Thread me = Thread.currentThread();
            awaitTrue("an inline pass on the test thread", () -> engine.tryRunInline() && inlineSafe.contains(me));
            awaitTrue("the engine thread ran its own trigger", () -> engineOnly.contains(engine.thread()));
            assertThat(engineOnly).containsOnly(engine.thread());
            assertThat(nestedAnswer).isTrue();
            assertThat(nestedRan).as("an inline pass holder counts as on the engine thread").isTrue();
            assertThat(engine.onEngineThread()).isFalse();
            assertThat(engine.inlinePasses()).isZero(); // the trigger never reported progress
        }
    }

    @Test
    void shouldServeWorkAnnouncedWhileAnotherThreadHeldThePass() throws Exception
    {
        // The engine thread parks up to a minute: only the pending re-check can serve the second item promptly.
        try (PredicateEngine engine = new PredicateEngine("inline-pending-test", 0, 0, TimeUnit.SECONDS.toNanos(60)))
        {
            engine.eventDriven(true);
            final AtomicInteger work = new AtomicInteger();
            final AtomicInteger served = new AtomicInteger();
            final CountDownLatch entered = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            final AtomicBoolean blockOnce = new AtomicBoolean(true);
            engine.register(this, () ->
            {
                served.addAndGet(work.getAndSet(0));
                if (served.get() > 0 && blockOnce.compareAndSet(true, false))
                {
                    entered.countDown();
                    try
                    {
                        release.await(30, TimeUnit.SECONDS);
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                    }
                }
                // Never reports progress: a holder passes again only because of the announcement.
                return false;
            });
            engine.start();
            work.incrementAndGet();
            final Thread holder = Thread.ofPlatform().start(engine::tryRunInline);
            // Whoever holds the pass (the helper, or the engine thread) blocks inside the trigger.
            assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
            work.incrementAndGet();
            assertThat(engine.tryRunInline()).as("the pass is held by the blocked trigger").isFalse();
            release.countDown();
            awaitTrue("the second item served", () -> served.get() == 2);
            holder.join(20_000);
        }
    }

    @Test
    void shouldServeWorkRungInsideAnInlinePassInTheSameRunOnTheSameThread() throws Exception
    {
        // A listener's answer committed inside an inline pass rings the doorbell: the run that rang must pass again
        // and send it itself, not leave it to the (parked, up to a minute) engine thread.
        try (PredicateEngine engine = new PredicateEngine("inline-ring-test", 0, 0, TimeUnit.SECONDS.toNanos(60)))
        {
            engine.eventDriven(true);
            final Thread me = Thread.currentThread();
            final AtomicInteger work = new AtomicInteger();
            final AtomicInteger served = new AtomicInteger();
            final Set<Thread> servedBy = ConcurrentHashMap.newKeySet();
            final AtomicBoolean commitOnce = new AtomicBoolean(true);
            final AtomicBoolean committed = new AtomicBoolean();
            // Registered first: in the pass that commits, the send has already run and sees nothing.
            engine.register(this, () ->
            {
                final int w = work.getAndSet(0);
                if (w == 0)
                {
                    return false;
                }
                served.addAndGet(w);
                servedBy.add(Thread.currentThread());
                return true;
            });
            // The delivery whose listener commits an answer: the commit is not this trigger's own progress.
            engine.register(this, () ->
            {
                if (Thread.currentThread() == me && commitOnce.compareAndSet(true, false))
                {
                    work.incrementAndGet();
                    engine.wake();
                    committed.set(true);
                }
                return false;
            });
            engine.start();
            // The engine thread may hold the pass at first: retry until the test thread ran the committing pass.
            awaitTrue("the test thread ran the committing pass", () -> engine.tryRunInline() && committed.get());
            assertThat(served).as("served before the inline run returned").hasValue(1);
            assertThat(servedBy).as("by the thread that rang, in the same run").containsOnly(me);
        }
    }

    @Test
    void shouldBracketAllPassesOfOneInlineRunWithTheRunHooksUnderThePassLock() throws Exception
    {
        try (PredicateEngine engine = new PredicateEngine("inline-run-test", 0, 0, TimeUnit.SECONDS.toNanos(60)))
        {
            engine.eventDriven(true);
            final Thread me = Thread.currentThread();
            final AtomicInteger inRun = new AtomicInteger(); // begins minus ends seen on the test thread
            final AtomicInteger begins = new AtomicInteger();
            final AtomicInteger ends = new AtomicInteger();
            final AtomicInteger passesInRun = new AtomicInteger();
            final AtomicInteger passesOutsideRun = new AtomicInteger();
            final AtomicBoolean hooksHeldLock = new AtomicBoolean(true);
            final AtomicInteger progressLeft = new AtomicInteger();
            engine.inlineRun(new InlineRun()
            {
                @Override
                public void begin()
                {
                    if (Thread.currentThread() == me)
                    {
                        hooksHeldLock.compareAndSet(true, engine.onEngineThread());
                        begins.incrementAndGet();
                        inRun.incrementAndGet();
                    }
                }

                @Override
                public void end()
                {
                    if (Thread.currentThread() == me)
                    {
                        hooksHeldLock.compareAndSet(true, engine.onEngineThread());
                        ends.incrementAndGet();
                        inRun.decrementAndGet();
                    }
                }
            });
            engine.register(this, () ->
            {
                if (Thread.currentThread() == me)
                {
                    (inRun.get() == 1 ? passesInRun : passesOutsideRun).incrementAndGet();
                }
                // Progress twice: the inline run passes three times.
                return progressLeft.getAndUpdate(v -> Math.max(0, v - 1)) > 0;
            });
            engine.start();
            awaitTrue("an inline run of three passes on the test thread", () ->
            {
                progressLeft.set(2);
                passesInRun.set(0);
                begins.set(0);
                ends.set(0);
                return engine.tryRunInline() && passesInRun.get() >= 3;
            });
            assertThat(passesOutsideRun).as("every inline pass runs between begin and end").hasValue(0);
            assertThat(inRun).as("every begin is ended").hasValue(0);
            assertThat(ends.get()).as("one end per run, not per pass").isEqualTo(begins.get()).isLessThan(passesInRun.get());
            assertThat(hooksHeldLock).as("the hooks run under the pass lock").isTrue();
        }
    }
}
