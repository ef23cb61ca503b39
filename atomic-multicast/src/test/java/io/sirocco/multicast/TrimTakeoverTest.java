package io.sirocco.multicast;

import io.sirocco.multicast.fault.FaultPoint;
import io.sirocco.multicast.fault.InjectedCrash;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader, which is also the subgroup's shard leader, crashes in the middle of the ragged trim of a view change:
 * five members stream ORDERED messages, member 4 halts (the view change starts, led by rank 0), and rank 0 is crashed
 * by a fault injector right after it pushed its trim values (before {@code TRIM_READY}), or right after
 * {@code TRIM_READY} (before it delivered up to the trim). The three survivors must take over, end in a view without
 * both, and have delivered one identical sequence; each crashed member delivered a prefix of it.
 */
class TrimTakeoverTest
{
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TrimTakeoverTest.class);

    @ParameterizedTest(name = "crash at {0}")
    @EnumSource(value = FaultPoint.class, names = {"TRIM_VALUES_PUSHED", "TRIM_READY_PUSHED"})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shardLeaderCrashMidTrimSurvivorsAgree(final FaultPoint point) throws Exception
    {
        // A false suspicion (a loaded machine stalls every member of this JVM at once) can start a view change before
        // member 4 halts, or exclude members, so the leader never reaches the fault point: that run did not test the
        // scenario and is repeated in a new cluster. A run that did reach it must satisfy every assertion.
        for (int attempt = 1; ; attempt++)
        {
            if (runScenario(point, attempt == 3))
            {
                return;
            }
            LOG.warn("crash at {}: attempt {} disturbed by a false suspicion before the fault point; again", point,
                attempt);
        }
    }

    /**
     * @param last whether this is the last try: then a run the leader's fault point was not reached in fails.
     * @return true if the scenario ran and every assertion held; false if a false suspicion kept the leader from
     * reaching the fault point (never when {@code last}).
     */
    private static boolean runScenario(final FaultPoint point, final boolean last) throws Exception
    {
        try (TestCluster c = new TestCluster(5, "local", SpindleOptions.ALL_ON,
            i -> List.of(SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(8)), i -> Role.WRITER_READER,
            TestCluster.CRASH_SUSPICION_MS))
        {
            final Group leader = c.groups.get(0);
            final Group halted = c.groups.get(4);
            assertThat(leader.view().rankOf(leader.memberId())).as("member 0 leads view 1").isZero();
            final AtomicReference<FaultPoint> hit = ViewChangeTest.crashOnceAt(leader, point);
            final List<Thread> senders = ViewChangeTest.sendThenHalt(c, halted);

            final List<Integer> survivors = List.of(1, 2, 3);
            final long deadline = System.nanoTime() + 120_000_000_000L;
            while (System.nanoTime() < deadline
                && survivors.stream().anyMatch(s -> c.groups.get(s).view().members().size() != 3))
            {
                if (!last && hit.get() == null && falselySuspected(c, survivors))
                {
                    ViewChangeTest.SendersUntilClosed.stop(senders);
                    return false;
                }
                Thread.sleep(5);
            }
            assertThat(hit.get()).as("the leader reached the fault point and crashed there").isEqualTo(point);
            assertThat(leader.predicateEngine().failure()).isInstanceOf(InjectedCrash.class);
            leader.halt();
            ViewChangeTest.assertSurvivorViews(c, survivors, leader, halted);
            ViewChangeTest.assertSurvivorsGoOnAndAgree(c, survivors, senders);
            return true;
        }
    }

    /**
     * Called while the leader has not reached the fault point: whether a member that is not halted was excluded, or
     * a survivor's view lost a member other than 4 (the leader included): a false suspicion changed the scenario (the survivors' agreement is what ViewChangeTest and the other tests check).
     */
    private static boolean falselySuspected(final TestCluster c, final List<Integer> survivors)
    {
        for (final int s : survivors)
        {
            final Group g = c.groups.get(s);
            if (g.exclusion() != null)
            {
                return true;
            }
            if (g.view().rankOf(c.groups.get(0).memberId()) == -1)
            {
                // The leader left the view without reaching the fault point: it was suspected before it led a trim.
                return true;
            }
            for (final int other : survivors)
            {
                if (g.view().rankOf(c.groups.get(other).memberId()) == -1)
                {
                    return true;
                }
            }
        }
        return c.groups.get(0).exclusion() != null;
    }
}
