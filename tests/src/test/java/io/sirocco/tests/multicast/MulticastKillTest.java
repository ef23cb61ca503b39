package io.sirocco.tests.multicast;

import io.sirocco.examples.cli.mcast.McastMemberParams;
import io.sirocco.examples.cli.mcast.McastMemberResult;
import io.sirocco.multicast.view.ShmRegistry;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three member processes, all senders, ORDERED; the last one is SIGKILLed mid-stream. The survivors must install a
 * view without it and must have delivered the identical sequence (same count, same digest over (view, subgroup,
 * sender, index)): every message was delivered by every survivor or by none.
 */
class MulticastKillTest
{
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void sigkillMidStreamSurvivorsAgree(final String transport) throws Exception
    {
        final String group = "kill" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        // tcp between three JVMs on this loaded 2-core machine moves ~10^4 messages/s, shm ~10^5: size the stream so
        // the kill lands mid-stream and the run stays short.
        final long messages = "tcp".equals(transport) ? 40_000 : 400_000;
        final McastMemberParams base = new McastMemberParams(group, 0, 3, transport, "all", 256, 100, messages,
            true, true, 1, "all", 0, "one", 5, 1000, "");
        final List<McastMemberResult> results = new ArrayList<>();
        try
        {
            final long killedAt = LocalMcastCluster.run(base, 1000, 150, results);
            assertThat(killedAt).isPositive();
        }
        finally
        {
            ShmRegistry.destroy(group);
        }
        assertThat(results).hasSize(2);
        final McastMemberResult a = results.get(0);
        final McastMemberResult b = results.get(1);
        for (final McastMemberResult r : results)
        {
            assertThat(r.exclusions()).as("member %d stayed in the group while alive (put out and rejoined empty: "
                + "a heartbeat gap longer than the suspicion timeout)", r.index()).isZero();
        }
        assertThat(a.finalViewSize()).as("new view installed without the killed member").isEqualTo(2);
        assertThat(b.finalViewSize()).isEqualTo(2);
        assertThat(a.viewInstalledEpochMs()).isPositive();
        assertThat(a.delivered()).as("survivors delivered messages").isPositive();
        assertThat(a.delivered()).as("the kill happened mid-stream").isLessThan(3 * base.messages());
        assertThat(a.digest()).as("member finished (non-zero digest)").isNotZero();
        assertThat(b.delivered()).as("same number delivered").isEqualTo(a.delivered());
        assertThat(b.digest()).as("identical delivered sequences").isEqualTo(a.digest());
    }
}
