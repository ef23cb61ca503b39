package io.sirocco.transport.nio;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The selector's spin rule, driven with explicit times (no clock, no threads). */
class SelectorSpinWindowTest
{
    private static final long WINDOW = 1_000_000;

    @Test
    void requestResponseTrafficKeepsTheWindowArmedUntilItCloses()
    {
        final SelectorSpinWindow w = new SelectorSpinWindow(WINDOW, 0);
        w.onWork(10_000_000); // first work after a long idle: not armed
        assertThat(w.shouldSpin(10_000_001)).isFalse();
        w.onWork(10_020_000); // the answer came 20 µs later: armed
        assertThat(w.shouldSpin(10_020_001)).isTrue();
        assertThat(w.shouldSpin(10_020_000 + WINDOW - 1)).isTrue();
        assertThat(w.shouldSpin(10_020_000 + WINDOW)).isFalse();
    }

    @Test
    void heartbeatOnlyTrafficNeverSpins()
    {
        final SelectorSpinWindow w = new SelectorSpinWindow(WINDOW, 0);
        for (long t = 5_000_000; t < 100_000_000; t += 5_000_000)
        {
            w.onWork(t);
            assertThat(w.shouldSpin(t + 1)).isFalse();
        }
    }

    @Test
    void aPreemptedEmptyPollEndsTheSpinForOneWorkButAShortOneDoesNot()
    {
        final SelectorSpinWindow w = new SelectorSpinWindow(WINDOW, 0);
        w.onWork(100);
        w.onWork(200);
        w.onEmptyPoll(SelectorSpinWindow.PREEMPTED_NS);
        assertThat(w.shouldSpin(300)).isTrue();
        w.onEmptyPoll(SelectorSpinWindow.PREEMPTED_NS + 1);
        assertThat(w.shouldSpin(300)).isFalse();
        w.onWork(400); // the next work within the window arms it again
        assertThat(w.shouldSpin(401)).isTrue();
    }

    @Test
    void aStalledEmptyPollHoldsTheSpinOffForRearmWorks()
    {
        final SelectorSpinWindow w = new SelectorSpinWindow(WINDOW, 0);
        w.onWork(100);
        w.onWork(200);
        w.onEmptyPoll(SelectorSpinWindow.STALLED_NS);
        w.onWork(300); // a stall at the bound is only a preemption
        assertThat(w.shouldSpin(301)).isTrue();
        w.onEmptyPoll(SelectorSpinWindow.STALLED_NS + 1);
        assertThat(w.shouldSpin(301)).isFalse();
        long t = 400;
        for (int i = 0; i < SelectorSpinWindow.REARM_WORKS; i++, t += 100)
        {
            w.onWork(t); // the next works within the window: still blocking
            assertThat(w.shouldSpin(t + 1)).isFalse();
        }
        w.onWork(t); // then it spins again
        assertThat(w.shouldSpin(t + 1)).isTrue();
    }

    @Test
    void aZeroWindowNeverSpinsAndANegativeOneIsRejected()
    {
        final SelectorSpinWindow w = new SelectorSpinWindow(0, 0);
        w.onWork(0);
        w.onWork(0);
        assertThat(w.shouldSpin(0)).isFalse();
        assertThatThrownBy(() -> new SelectorSpinWindow(-1, 0)).hasMessageContaining("-1");
    }

    /** One event of the selector loop: work found at a gap after the previous event, or an empty poll's duration. */
    record Event(boolean work, long ns) { }

    @Provide
    Arbitrary<List<Event>> events()
    {
        // Mostly request/response gaps, some longer ones, short empty polls and now and then a preempted one, so that
        // both long armed runs and re-arming after a preemption are generated.
        final Arbitrary<Event> quick = Arbitraries.longs().between(0, WINDOW - 1).map(gap -> new Event(true, gap));
        final Arbitrary<Event> slow = Arbitraries.longs().between(WINDOW, 3 * WINDOW).map(gap -> new Event(true, gap));
        final Arbitrary<Event> empty = Arbitraries.longs().between(0, SelectorSpinWindow.PREEMPTED_NS)
            .map(d -> new Event(false, d));
        final Arbitrary<Event> preempted = Arbitraries.longs()
            .between(SelectorSpinWindow.PREEMPTED_NS + 1, 3 * SelectorSpinWindow.STALLED_NS)
            .map(d -> new Event(false, d));
        return Arbitraries.frequencyOf(
            Tuple.of(40, quick), Tuple.of(4, slow),
            Tuple.of(20, empty), Tuple.of(1, preempted)).list().ofMaxSize(400);
    }

    /**
     * Whatever the traffic: the selector spins at a time only if the last work is less than a window old, that work
     * came less than a window after the work before it, no empty poll since took longer than the preemption bound, and
     * more than REARM_WORKS works within the window came since the last empty poll longer than the stall bound.
     */
    @Property(tries = 500)
    void spinsOnlyInsideAnArmedUncontendedWindow(@ForAll("events") final List<Event> events,
        @ForAll @LongRange(min = 0, max = 3 * WINDOW) final long probe)
    {
        final SelectorSpinWindow w = new SelectorSpinWindow(WINDOW, 0);
        long now = 0;
        long lastWork = 0;
        long gapBeforeLastWork = Long.MAX_VALUE;
        boolean preemptedSince = false;
        int quickWorksSinceStall = Integer.MAX_VALUE;
        for (final Event e : events)
        {
            if (e.work())
            {
                now += e.ns();
                gapBeforeLastWork = now - lastWork;
                lastWork = now;
                preemptedSince = false;
                if (gapBeforeLastWork < WINDOW && quickWorksSinceStall != Integer.MAX_VALUE)
                {
                    quickWorksSinceStall++;
                }
                w.onWork(now);
            }
            else
            {
                w.onEmptyPoll(e.ns());
                now += e.ns();
                preemptedSince |= e.ns() > SelectorSpinWindow.PREEMPTED_NS;
                if (e.ns() > SelectorSpinWindow.STALLED_NS)
                {
                    quickWorksSinceStall = 0;
                }
            }
        }
        final long at = now + probe;
        final boolean expected = gapBeforeLastWork < WINDOW && at - lastWork < WINDOW && !preemptedSince &&
            quickWorksSinceStall > SelectorSpinWindow.REARM_WORKS;
        assertThat(w.shouldSpin(at)).isEqualTo(expected);
        // the generator must reach both answers often enough for the property to say something
        Statistics.collect(expected);
        Statistics.coverage(checker -> {
            checker.check(true).percentage(p -> p > 5);
            checker.check(false).percentage(p -> p > 5);
        });
    }
}
