package io.sirocco.pubsub.rtps.wire;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** Every nanosecond time survives the trip through an RTPS Time_t exactly (ddsperf reads its lowest bit). */
class RtpsTimeTest
{
    @Property(tries = 10_000)
    void nanosecondsRoundTrip(@ForAll @LongRange(min = 0, max = 4_000_000_000L * 1_000_000_000L) final long ns)
    {
        assertThat(RtpsTime.toNanos(RtpsTime.fromNanos(ns))).isEqualTo(ns);
    }
}
