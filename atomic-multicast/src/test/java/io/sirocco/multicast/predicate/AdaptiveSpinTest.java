package io.sirocco.multicast.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The spin controller of the predicate thread: the limit stays within [0, maxSpins]; a partner sharing the core
 * (stretches that end after a quick switch) drives it to 0 within log2(maxSpins)+1 stretches; yields that come back
 * at once, or that ran a hog for its slice, bring it back to maxSpins; off (threshold 0) it never moves.
 */
class AdaptiveSpinTest
{
    private static final long SWITCH_NS = 1_500;
    private static final int RETURNED = 1 << AdaptiveSpin.RETURNED;
    private static final int PARTNER = 1 << AdaptiveSpin.PARTNER;
    private static final int HOG = 1 << AdaptiveSpin.HOG;

    @Property
    void limitStaysWithinZeroAndMax(@ForAll @IntRange(min = 0, max = 5_000) final int maxSpins,
        @ForAll @Size(max = 200) final List<@IntRange(min = 0, max = 7) Integer> stretches)
    {
        final AdaptiveSpin spin = new AdaptiveSpin(maxSpins, SWITCH_NS);
        for (final int yields : stretches)
        {
            spin.stretchEnded(yields);
            assertThat(spin.spins()).isBetween(0, maxSpins);
            assertThat(spin.limit()).isEqualTo(spin.spins());
        }
    }

    @Property
    void aPartnerOnTheSameCoreDrivesTheSpinsToZeroAndFreeYieldsBringThemBack(
        @ForAll @IntRange(min = 1, max = 5_000) final int maxSpins, @ForAll final boolean withReturnedYields,
        @ForAll final boolean backBySpinning)
    {
        final AdaptiveSpin spin = new AdaptiveSpin(maxSpins, SWITCH_NS);
        final int steps = 32 - Integer.numberOfLeadingZeros(maxSpins) + 1;
        for (int i = 0; i < steps; i++)
        {
            spin.stretchEnded(withReturnedYields ? PARTNER | RETURNED : PARTNER);
        }
        assertThat(spin.spins()).as("spins after %d same-core stretches", steps).isZero();
        spin.stretchEnded(PARTNER);
        assertThat(spin.spins()).isZero();
        for (int i = 0; i < steps; i++)
        {
            // Ended while spinning (no yield at all) or after yields that came straight back.
            spin.stretchEnded(backBySpinning ? 0 : RETURNED);
        }
        assertThat(spin.spins()).isEqualTo(maxSpins);
    }

    @Property
    void aHogsSliceNeverLowersTheSpins(@ForAll @IntRange(min = 0, max = 5_000) final int maxSpins,
        @ForAll @IntRange(min = 0, max = 7) final int others)
    {
        final AdaptiveSpin spin = new AdaptiveSpin(maxSpins, SWITCH_NS);
        spin.stretchEnded(HOG | others);
        assertThat(spin.spins()).isEqualTo(maxSpins);
    }

    @Property
    void offItAlwaysSpinsTheConfiguredPasses(@ForAll @IntRange(min = 0, max = 5_000) final int maxSpins,
        @ForAll @Size(max = 50) final List<@IntRange(min = 0, max = 7) Integer> stretches,
        @ForAll @LongRange(min = 0, max = 10_000_000) final long yieldNs)
    {
        final AdaptiveSpin spin = new AdaptiveSpin(maxSpins, 0);
        assertThat(spin.enabled()).isFalse();
        assertThat(spin.classify(yieldNs)).isEqualTo(AdaptiveSpin.RETURNED);
        for (final int yields : stretches)
        {
            spin.stretchEnded(yields);
            assertThat(spin.spins()).isEqualTo(maxSpins);
        }
    }

    @Test
    void turningItOffRestoresTheConfiguredSpinsAtTheNextStretch()
    {
        final AdaptiveSpin spin = new AdaptiveSpin(50, SWITCH_NS);
        for (int i = 0; i < 10; i++)
        {
            spin.stretchEnded(PARTNER);
        }
        assertThat(spin.spins()).isZero();
        spin.switchNs(0);
        spin.stretchEnded(PARTNER);
        assertThat(spin.spins()).isEqualTo(50);
    }

    @Test
    void classifiesYieldsByDuration()
    {
        final AdaptiveSpin spin = new AdaptiveSpin(50, SWITCH_NS);
        assertThat(spin.classify(500)).isEqualTo(AdaptiveSpin.RETURNED);
        assertThat(spin.classify(SWITCH_NS)).isEqualTo(AdaptiveSpin.RETURNED);
        assertThat(spin.classify(3_000)).isEqualTo(AdaptiveSpin.PARTNER);
        assertThat(spin.classify(SWITCH_NS * AdaptiveSpin.HOG_FACTOR)).isEqualTo(AdaptiveSpin.PARTNER);
        assertThat(spin.classify(750_000)).isEqualTo(AdaptiveSpin.HOG);
    }

    @Test
    void rejectsNegativeSettingsNamingTheThread()
    {
        assertThatThrownBy(() -> new AdaptiveSpin(-1, SWITCH_NS)).isInstanceOf(IllegalArgumentException.class);
        try (PredicateEngine engine = new PredicateEngine("adaptive-negative", 10, 0, 1_000))
        {
            assertThatThrownBy(() -> engine.adaptiveSpinNs(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("adaptive-negative");
        }
    }
}
