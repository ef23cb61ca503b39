package io.sirocco.tests.multicast;

import io.sirocco.examples.cli.mcast.McastMemberParams;
import io.sirocco.examples.cli.mcast.McastMemberResult;
import io.sirocco.multicast.view.ShmRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Four member processes over the {@code mixed} transport, standing for two hosts (two members each: shared memory
 * between the two, tcp to the other pair), all senders, ORDERED. Without a fault every member delivers every message
 * in one identical sequence; with the last member SIGKILLed mid-stream the three survivors install a view without it
 * and agree on what they delivered.
 */
class MixedTransportTest
{
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void twoHostsDeliverOneIdenticalSequenceWithoutLoss() throws Exception
    {
        final String group = "mixed" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final long messages = 5_000;
        final McastMemberParams base = new McastMemberParams(group, 0, 4, "mixed", "all", 256, 100, messages,
            true, true, 1, "all", 0, "one", 5, 2000, "");
        final List<McastMemberResult> results = new ArrayList<>();
        try
        {
            LocalMcastCluster.run(base, 0, 150, results);
        }
        finally
        {
            ShmRegistry.destroy(group);
        }
        assertThat(results).hasSize(4);
        for (final McastMemberResult r : results)
        {
            assertThat(r.finalViewSize()).isEqualTo(4);
            assertThat(r.delivered()).as("member %d delivered every message", r.index()).isEqualTo(4 * messages);
            assertThat(r.digest()).as("member %d delivered the same sequence as member 0", r.index())
                .isNotZero().isEqualTo(results.get(0).digest());
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void sigkillOnOneHostSurvivorsOnBothHostsAgree() throws Exception
    {
        final String group = "mixk" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final long messages = 40_000;
        final McastMemberParams base = new McastMemberParams(group, 0, 4, "mixed", "all", 256, 100, messages,
            true, true, 1, "all", 0, "one", 5, 2000, "");
        final List<McastMemberResult> results = new ArrayList<>();
        try
        {
            assertThat(LocalMcastCluster.run(base, 1000, 150, results)).isPositive();
        }
        finally
        {
            ShmRegistry.destroy(group);
        }
        assertThat(results).hasSize(3);
        for (final McastMemberResult r : results)
        {
            assertThat(r.exclusions()).as("member %d stayed in the group while alive (put out and rejoined empty: "
                + "a heartbeat gap longer than the suspicion timeout)", r.index()).isZero();
            assertThat(r.finalViewSize()).as("new view without the killed member").isEqualTo(3);
            assertThat(r.delivered()).as("the kill happened mid-stream").isPositive().isLessThan(4 * messages);
            assertThat(r.delivered()).isEqualTo(results.get(0).delivered());
            assertThat(r.digest()).as("member %d agrees with member 0", r.index()).isNotZero()
                .isEqualTo(results.get(0).digest());
        }
    }
}
