package io.sirocco.transport.nio;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
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
    void aPreemptedEmptyPollEndsTheSpinButAShortOneDoesNot()
    {
        final SelectorSpinWindow w = new SelectorSpinWindow(WINDOW, 0);
        w.onWork(100);
        w.onWork(200);
        w.onEmptyPoll(SelectorSpinWindow.PREEMPTED_NS);
        assertThat(w.shouldSpin(300)).isTrue();
        w.onEmptyPoll(SelectorSpinWindow.PREEMPTED_NS + 1);
        assertThat(w.shouldSpin(300)).isFalse();
        w.onWork(400); // work back within the window arms it again
        assertThat(w.shouldSpin(401)).isTrue();
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
        final Arbitrary<Event> work = Arbitraries.longs().between(0, 3 * WINDOW).map(gap -> new Event(true, gap));
        final Arbitrary<Event> empty = Arbitraries.longs().between(0, 3 * SelectorSpinWindow.PREEMPTED_NS)
            .map(d -> new Event(false, d));
        return Arbitraries.oneOf(work, empty).list().ofMaxSize(60);
    }

    /**
     * Whatever the traffic: the selector spins at a time only if the last work is less than a window old, that work
     * came less than a window after the work before it, and no empty poll since took longer than the preemption bound.
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
        for (final Event e : events)
        {
            if (e.work())
            {
                now += e.ns();
                gapBeforeLastWork = now - lastWork;
                lastWork = now;
                preemptedSince = false;
                w.onWork(now);
            }
            else
            {
                w.onEmptyPoll(e.ns());
                now += e.ns();
                preemptedSince |= e.ns() > SelectorSpinWindow.PREEMPTED_NS;
            }
        }
        final long at = now + probe;
        final boolean expected = gapBeforeLastWork < WINDOW && at - lastWork < WINDOW && !preemptedSince;
        assertThat(w.shouldSpin(at)).isEqualTo(expected);
    }
}
