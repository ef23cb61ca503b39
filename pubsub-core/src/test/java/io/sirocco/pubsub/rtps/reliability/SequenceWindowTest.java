package io.sirocco.pubsub.rtps.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The settled-numbers window slides past settled runs, across word boundaries and past its width. */
class SequenceWindowTest
{
    @Test
    void slidesPastSettledRuns()
    {
        final SequenceWindow w = new SequenceWindow();
        assertThat(w.settle(3)).isTrue();
        assertThat(w.settle(3)).as("duplicate").isFalse();
        assertThat(w.base()).isEqualTo(1);
        assertThat(w.settle(1)).isTrue();
        assertThat(w.base()).isEqualTo(2);
        assertThat(w.settle(2)).isTrue();
        assertThat(w.base()).as("1..3 settled").isEqualTo(4);
        assertThat(w.settle(4 + 255)).as("last bit of the window").isTrue();
        assertThat(w.settle(4 + 256)).as("beyond the window").isFalse();
        w.settleBelow(4 + 70);
        assertThat(w.base()).isEqualTo(74);
        assertThat(w.isSettled(4 + 255)).as("kept across a 70-bit shift").isTrue();
        assertThat(w.isSettled(75)).isFalse();
        w.settleBelow(4 + 255);
        assertThat(w.base()).as("slides past the settled 259").isEqualTo(260);
        w.settleBelow(10_000);
        assertThat(w.base()).isEqualTo(10_000);
        assertThat(w.isSettled(10_000)).isFalse();
    }
}
