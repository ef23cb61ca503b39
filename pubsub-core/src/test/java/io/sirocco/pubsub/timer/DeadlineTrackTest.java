package io.sirocco.pubsub.timer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Each whole period without an update is one miss (DDS 1.4 §2.2.3.7), counted once; an update starts a new one. */
class DeadlineTrackTest
{
    private static final long PERIOD = 100;

    @Test
    void countsEveryWholePeriodWithoutAnUpdateOnce()
    {
        final DeadlineTrack track = new DeadlineTrack();
        track.updated(1_000);
        assertThat(track.dueNs(PERIOD)).isEqualTo(1_100);
        assertThat(track.missed(1_050, PERIOD)).isZero();
        assertThat(track.missed(1_100, PERIOD)).isEqualTo(1);
        assertThat(track.missed(1_150, PERIOD)).as("the same period is not counted twice").isZero();
        assertThat(track.dueNs(PERIOD)).isEqualTo(1_200);
        assertThat(track.missed(1_420, PERIOD)).as("periods ending at 1200, 1300 and 1400").isEqualTo(3);
        assertThat(track.dueNs(PERIOD)).isEqualTo(1_500);
    }

    @Test
    void anUpdateStartsANewPeriod()
    {
        final DeadlineTrack track = new DeadlineTrack();
        track.updated(1_000);
        assertThat(track.missed(1_130, PERIOD)).isEqualTo(1);
        track.updated(1_160);
        assertThat(track.dueNs(PERIOD)).isEqualTo(1_260);
        assertThat(track.missed(1_250, PERIOD)).isZero();
        assertThat(track.missed(1_260, PERIOD)).isEqualTo(1);
    }

    @Test
    void aShorterPeriodAppliesFromTheLastUpdate()
    {
        final DeadlineTrack track = new DeadlineTrack();
        track.updated(1_000);
        assertThat(track.missed(1_050, 1_000)).isZero();
        assertThat(track.missed(1_050, 40)).as("a period of 40 ended at 1040").isEqualTo(1);
        assertThat(track.dueNs(40)).isEqualTo(1_080);
    }
}
