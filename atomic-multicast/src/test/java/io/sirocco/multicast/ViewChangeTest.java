package io.sirocco.multicast;

import io.sirocco.multicast.fault.FaultPoint;
import io.sirocco.multicast.fault.InjectedCrash;
import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.smc.SpindleOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** Failure handling in one JVM over the local transport: crash (halt) mid-stream, graceful leave, join. */
class ViewChangeTest
{
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}, victim {1}")
    @org.junit.jupiter.params.provider.CsvSource({"local, 2", "local, 0", "tcp, 2"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void crashMidStreamInstallsNewViewAndSurvivorsAgree(final String transport, final int victim) throws Exception
    {
        // Victim 0 is the contact, rank 0: the leader and every subgroup's shard leader, so the next lowest rank
        // must run the view change and the ragged trim.
        final SpindleOptions opts = SpindleOptions.ALL_ON;
        try (TestCluster c = new TestCluster(4, transport, opts,
            i -> List.of(SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(8)), i -> Role.WRITER_READER,
            TestCluster.CRASH_SUSPICION_MS))
        {
            for (final Group g : c.groups)
            {
                assertThat(g.view().members()).hasSize(4);
            }
            final List<Integer> survivors = new ArrayList<>(List.of(0, 1, 2, 3));
            survivors.remove(Integer.valueOf(victim));
            final int[] counts = {100_000, 100_000, 100_000, 100_000};
            final List<Thread> senders = SendersUntilClosed.start(c.groups, "a", counts);
            awaitCount(c.recorders.get(survivors.get(0)), 300);
            c.groups.get(victim).halt();
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline
                && survivors.stream().anyMatch(s -> c.groups.get(s).view().members().size() != 3))
            {
                Thread.sleep(5);
            }
            final Group first = c.groups.get(survivors.get(0));
            assertThat(first.view().members()).hasSize(3);
            assertThat(first.view().rankOf(c.groups.get(victim).memberId())).isEqualTo(-1);
            // Let the survivors deliver some messages in the new view, then stop and compare.
            final long base = c.recorders.get(survivors.get(0)).count;
            awaitCount(c.recorders.get(survivors.get(0)), base + 200);
            SendersUntilClosed.stop(senders);
            c.assertHealthy();
            awaitStable(c, survivors);
            final List<TestCluster.Delivery> d0 = c.recorders.get(survivors.get(0)).list();
            for (final int s : survivors)
            {
                assertThat(c.recorders.get(s).list()).as("survivor %d", s).isEqualTo(d0);
            }
            // The crashed member delivered a prefix of what the survivors delivered (never more).
            final List<TestCluster.Delivery> crashed = c.recorders.get(victim).list();
            assertThat(d0.subList(0, Math.min(crashed.size(), d0.size()))).isEqualTo(crashed);
            c.groups.remove(victim);
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void leaveAndJoinChangeTheView() throws Exception
    {
        try (TestCluster c = new TestCluster(3, "local", SpindleOptions.ALL_ON,
            i -> List.of(SubgroupSpec.of("a", DeliveryMode.ORDERED)), i -> Role.WRITER_READER))
        {
            final Group leaving = c.groups.remove(1);
            leaving.close();
            awaitViewSize(c.groups, 2);
            final TestCluster.Recorder rec = new TestCluster.Recorder();
            final GroupConfig cfg = GroupConfig.defaults(c.groupName).withTransport("local").withMemberId(999)
                .withIdle(50, 10, 50_000).withFailureDetection(10, TestCluster.QUIET_SUSPICION_MS);
            final Group joiner = Group.join(cfg, List.of(new Group.SubgroupRegistration(
                SubgroupSpec.of("a", DeliveryMode.ORDERED), Role.WRITER_READER, rec)), null,
                java.time.Duration.ofSeconds(30));
            c.groups.add(joiner);
            c.recorders.add(rec);
            awaitViewSize(c.groups, 3);
            final SlotClaim claim = new SlotClaim();
            assertThat(joiner.subgroup("a").claim(32, claim, 10_000_000_000L)).isEqualTo(ClaimResult.OK);
            Senders.fill(claim.buffer(), 32, Senders.word(7, 0));
            claim.commit();
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (System.nanoTime() < deadline && (c.recorders.get(0).count < 1 || rec.count < 1))
            {
                Thread.sleep(2);
            }
            assertThat(c.recorders.get(0).list()).isEqualTo(rec.list()).hasSize(1);
        }
    }

    static void awaitViewSize(final List<Group> groups, final int size) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && groups.stream().anyMatch(g -> g.view().members().size() != size))
        {
            Thread.sleep(5);
        }
        for (final Group g : groups)
        {
            assertThat(g.view().members()).as("view of %d", g.memberId()).hasSize(size);
        }
    }

    static void awaitCount(final TestCluster.Recorder r, final long n) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && r.count < n)
        {
            Thread.sleep(2);
        }
        assertThat(r.count).isGreaterThanOrEqualTo(n);
    }

    /**
     * Makes leader's predicate thread crash ({@link InjectedCrash}) the first time it reaches point.
     *
     * @return where it crashed: null until it did.
     */
    static AtomicReference<FaultPoint> crashOnceAt(final Group leader, final FaultPoint point)
    {
        final AtomicReference<FaultPoint> hit = new AtomicReference<>();
        leader.faultInjector((p, viewId, subgroup) ->
        {
            if (p == point && hit.compareAndSet(null, p))
            {
                throw new InjectedCrash(p, leader.memberId());
            }
        });
        return hit;
    }

    /**
     * The start of a takeover test: every member of the cluster sends on subgroup "a" until stopped
     * ({@link SendersUntilClosed#stop}) and, once member 1 delivered 300 messages, victim halts.
     *
     * @return the sender threads.
     */
    static List<Thread> sendThenHalt(final TestCluster c, final Group victim) throws InterruptedException
    {
        final int[] counts = new int[c.groups.size()];
        Arrays.fill(counts, 100_000);
        final List<Thread> senders = SendersUntilClosed.start(c.groups, "a", counts);
        awaitCount(c.recorders.get(1), 300);
        victim.halt();
        return senders;
    }

    /**
     * Waits, up to {@code timeoutSeconds}, until every survivor is in a view of exactly as many members as there are
     * survivors and none is excluded (the end of a takeover; {@link #assertSurvivorViews} then says what was wrong).
     */
    static void awaitSurvivorViews(final TestCluster c, final List<Integer> survivors, final long timeoutSeconds)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline && survivors.stream().anyMatch(s ->
            c.groups.get(s).view().members().size() != survivors.size() || c.groups.get(s).exclusion() != null))
        {
            Thread.sleep(5);
        }
    }

    /** Every survivor is not excluded, and its view holds as many members as there are survivors and none of gone. */
    static void assertSurvivorViews(final TestCluster c, final List<Integer> survivors, final Group... gone)
    {
        for (final int s : survivors)
        {
            final Group g = c.groups.get(s);
            assertThat(g.exclusion()).as("survivor %d is not excluded", s).isNull();
            final View v = g.view();
            assertThat(v.members()).as("view of survivor %d", s).hasSize(survivors.size());
            for (final Group x : gone)
            {
                assertThat(v.rankOf(x.memberId())).as("member %d in the view of survivor %d", x.memberId(), s)
                    .isEqualTo(-1);
            }
        }
    }

    /**
     * The end of a takeover test whose members 0 and 4 crashed: drops them from the cluster, checks the survivors are
     * healthy and stable, and asserts every survivor delivered the first survivor's sequence.
     *
     * @return the first survivor's delivered sequence.
     */
    static List<TestCluster.Delivery> dropCrashedAndAssertSurvivorsAgree(final TestCluster c,
        final List<Integer> survivors) throws InterruptedException
    {
        c.groups.remove(4);
        c.groups.remove(0);
        c.assertHealthy();
        awaitStable(c, survivors);
        final int first = survivors.get(0);
        final List<TestCluster.Delivery> expected = c.recorders.get(first).list();
        for (final int s : survivors.subList(1, survivors.size()))
        {
            assertThat(c.recorders.get(s).list()).as("survivor %d vs %d", s, first).isEqualTo(expected);
        }
        return expected;
    }

    /**
     * The end of a takeover test whose members 0 (the leader) and 4 crashed: the survivors keep delivering in the new
     * view; then, senders stopped, they agree ({@link #dropCrashedAndAssertSurvivorsAgree}), and each crashed member
     * delivered a prefix of their sequence.
     */
    static void assertSurvivorsGoOnAndAgree(final TestCluster c, final List<Integer> survivors,
        final List<Thread> senders) throws InterruptedException
    {
        final long before = c.recorders.get(1).count;
        awaitCount(c.recorders.get(1), before + 200);
        SendersUntilClosed.stop(senders);
        final List<TestCluster.Delivery> d1 = dropCrashedAndAssertSurvivorsAgree(c, survivors);
        for (final int crashed : new int[] {0, 4})
        {
            final List<TestCluster.Delivery> mine = c.recorders.get(crashed).list();
            assertThat(mine.size()).as("member %d delivered no more than the survivors", crashed)
                .isLessThanOrEqualTo(d1.size());
            assertThat(d1.subList(0, mine.size())).as("member %d delivered a prefix", crashed).isEqualTo(mine);
        }
    }

    /** Waits until the given members' delivery counts stop changing and agree. */
    static void awaitStable(final TestCluster c, final List<Integer> members) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline)
        {
            final Set<Long> counts = new HashSet<>();
            for (final int m : members)
            {
                counts.add(c.recorders.get(m).count);
            }
            if (counts.size() == 1)
            {
                Thread.sleep(50);
                final Set<Long> again = new HashSet<>();
                for (final int m : members)
                {
                    again.add(c.recorders.get(m).count);
                }
                if (again.equals(counts))
                {
                    return;
                }
            }
            Thread.sleep(5);
        }
    }

    /** Senders that run until stopped (then give up their claim loop). */
    static final class SendersUntilClosed
    {
        static volatile boolean stop;

        static List<Thread> start(final List<Group> groups, final String sg, final int[] counts)
        {
            stop = false;
            final List<Thread> ts = new ArrayList<>();
            for (int s = 0; s < groups.size(); s++)
            {
                final Group g = groups.get(s);
                final int no = s;
                ts.add(Thread.ofPlatform().start(() ->
                {
                    final SlotClaim claim = new SlotClaim();
                    for (long n = 0; n < counts[no] && !stop; )
                    {
                        final int rc = g.subgroup(sg).claim(64, claim, 100_000_000L);
                        if (rc == ClaimResult.CLOSED)
                        {
                            return;
                        }
                        if (rc == ClaimResult.OK)
                        {
                            Senders.fill(claim.buffer(), 64, Senders.word(no, n++));
                            claim.commit();
                        }
                    }
                }));
            }
            return ts;
        }

        static void stop(final List<Thread> ts) throws InterruptedException
        {
            stop = true;
            for (final Thread t : ts)
            {
                t.join(30_000);
            }
        }
    }
}
