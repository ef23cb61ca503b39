package io.sirocco.pubsub.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class DurationAndTimeTest
{
    @Test
    void durationsSaturateAtInfinityAndNeverGoNegative()
    {
        final DurationImpl second = DurationImpl.of(null, 1, TimeUnit.SECONDS);
        assertThat(second.getDuration(TimeUnit.MILLISECONDS)).isEqualTo(1000);
        assertThat(second.add(Long.MAX_VALUE, TimeUnit.NANOSECONDS).isInfinite()).isTrue();
        assertThat(second.getRemainder(TimeUnit.SECONDS, TimeUnit.MILLISECONDS)).isZero();
        assertThat(DurationImpl.of(null, 1500, TimeUnit.MILLISECONDS).getRemainder(TimeUnit.SECONDS,
            TimeUnit.MILLISECONDS)).isEqualTo(500);
        assertThatThrownBy(() -> second.subtract(2, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class);
        assertThat(second.compareTo(new DurationImpl(null, DurationImpl.INFINITE_NS))).isNegative();
    }

    @Test
    void timesAreModifiableAndInvalidBelowZero()
    {
        final TimeImpl time = new TimeImpl(null, 5_000_000_000L);
        time.add(1, TimeUnit.SECONDS);
        assertThat(time.getTime(TimeUnit.SECONDS)).isEqualTo(6);
        assertThat(new TimeImpl(null, TimeImpl.INVALID_NS).isValid()).isFalse();
        assertThat(time.immutableCopy()).isEqualTo(time);
    }

    @Test
    void statusBitsMapBothWays()
    {
        assertThat(StatusKinds.set(StatusKinds.ALL)).hasSize(13);
        assertThat(StatusKinds.mask(StatusKinds.set(StatusKinds.SAMPLE_LOST | StatusKinds.DATA_AVAILABLE)))
            .isEqualTo(StatusKinds.SAMPLE_LOST | StatusKinds.DATA_AVAILABLE);
    }
}
