package io.sirocco.multicast;

import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import io.sirocco.multicast.smc.SubgroupStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class NullSendTest
{
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void stoppedSenderDoesNotStallTheOthersAndNullsStopWithTraffic() throws Exception
    {
        // Every technique on, unless the removal script switched null-sends off (then this test must fail).
        try (TestCluster c = new TestCluster(3, "local", SpindleTechniquesTest.optionsUnderTest(),
            i -> List.of(SubgroupSpec.of("n", DeliveryMode.ORDERED).withWindow(16)), i -> Role.WRITER_READER))
        {
            final int[] counts = {5, 300, 300};
            for (final Thread t : Senders.start(c.groups, "n", counts, 64, 0, 1))
            {
                t.join(30_000);
            }
            Senders.awaitDelivered(c.recorders, 605);
            final List<TestCluster.Delivery> first = c.recorders.get(0).list();
            assertThat(first).hasSize(605);
            assertThat(c.recorders.get(1).list()).isEqualTo(first);
            assertThat(c.recorders.get(2).list()).isEqualTo(first);
            MulticastPropertiesTest.assertPerSenderFifoComplete(first, counts, c);
            final long nulls = totalNulls(c);
            assertThat(nulls).as("the stopped sender filled its place with nulls").isGreaterThan(0);
            // Quiescence: with no traffic the null count must not move while the predicate threads go idle.
            final long parks = c.groups.get(0).predicateEngine().idleParks();
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (c.groups.get(0).predicateEngine().idleParks() < parks + 200 && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertThat(c.groups.get(0).predicateEngine().idleParks()).isGreaterThanOrEqualTo(parks + 200);
            assertThat(totalNulls(c)).as("no nulls without traffic").isEqualTo(nulls);
            c.assertHealthy();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void idleGroupSendsNoNulls() throws Exception
    {
        try (TestCluster c = new TestCluster(3, "local", SpindleOptions.ALL_ON,
            i -> List.of(SubgroupSpec.of("n", DeliveryMode.ORDERED)), i -> Role.WRITER_READER))
        {
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (c.groups.get(2).predicateEngine().idleParks() < 200 && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertThat(totalNulls(c)).isZero();
            assertThat(c.recorders.get(0).count).isZero();
        }
    }

    static long totalNulls(final TestCluster c)
    {
        long n = 0;
        for (final Group g : c.groups)
        {
            final SubgroupStats s = g.stats();
            n += s.nullsSent;
        }
        return n;
    }
}
