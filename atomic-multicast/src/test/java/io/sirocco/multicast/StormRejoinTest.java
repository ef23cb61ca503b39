package io.sirocco.multicast;

import io.sirocco.multicast.smc.SpindleOptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A storm of false suspicions in which every member of a group excludes itself (seen on a host at load 47): all
 * members are alive, so they must come back together by themselves through the shared registry (in-JVM, or the
 * {@code /dev/shm} one): the lowest live member founds a group, the others join it, and multicast works again.
 *
 * <p>The storm is made deterministic by pausing every member's heartbeat at once (the members keep running, as
 * members starved of CPU past the suspicion timeout look to each other): each suspects both others, which is no
 * majority of three, so each excludes itself. The heartbeats resume once all three were excluded. Before the fix no
 * member formed a group again: on these registries only a member still in a view took excluded members back.
 */
class StormRejoinTest
{
    private static final SubgroupSpec SPEC = SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(16);
    private static final int PER_SENDER = 40;

    /** Counts one member's exclusions and records every view it installed (after a rejoin too). */
    private static final class Events implements MembershipListener
    {
        final AtomicInteger exclusions = new AtomicInteger();
        final List<View> installed = new CopyOnWriteArrayList<>();

        @Override
        public void onViewInstalled(final View view, final List<Long> joined, final List<Long> left)
        {
            installed.add(view);
        }

        @Override
        public void onExcluded(final String reason)
        {
            exclusions.incrementAndGet();
        }
    }

    @ParameterizedTest(name = "transport and registry {0}")
    @ValueSource(strings = {"local", "shm"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void everyMemberExcludedThenTheGroupReformsAndDelivers(final String transport) throws Exception
    {
        try (TestCluster c = new TestCluster(3, transport, SpindleOptions.ALL_ON, i -> List.of(SPEC),
            i -> Role.WRITER_READER, TestCluster.CRASH_SUSPICION_MS))
        {
            final List<Events> events = new ArrayList<>();
            for (final Group g : c.groups)
            {
                final Events e = new Events();
                e.installed.add(g.view());
                g.addMembershipListener(e);
                events.add(e);
            }
            final long firstViewId = c.groups.getFirst().view().viewId();

            c.groups.forEach(g -> g.pauseHeartbeats(true));
            await("every member excluded itself", () -> events.stream().allMatch(e -> e.exclusions.get() > 0));
            c.groups.forEach(g -> g.pauseHeartbeats(false));

            await("all three members back in one view", () -> c.groups.stream().allMatch(g -> g.exclusion() == null
                && g.view().members().size() == 3 && g.view().viewId() == c.groups.getFirst().view().viewId()));
            final View view = c.groups.getFirst().view();
            assertThat(view.viewId()).as("a view formed after the storm").isGreaterThan(firstViewId);
            for (final Group g : c.groups)
            {
                assertThat(g.view().encode()).as("view of member %d", g.memberId()).isEqualTo(view.encode());
            }
            assertNoSplitBrain(events);

            // Multicast works again: every member sends, every member delivers all of it in one identical order.
            final List<Thread> senders = Senders.start(c.groups, "a", new int[] {PER_SENDER, PER_SENDER, PER_SENDER},
                64, 0, 7);
            for (final Thread t : senders)
            {
                t.join(TimeUnit.SECONDS.toMillis(90));
                assertThat(t.isAlive()).as("sender %s finished", t.getName()).isFalse();
            }
            for (final TestCluster.Recorder r : c.recorders)
            {
                ViewChangeTest.awaitCount(r, 3 * PER_SENDER);
            }
            final List<TestCluster.Delivery> first = c.recorders.getFirst().list();
            assertThat(first).hasSize(3 * PER_SENDER);
            assertThat(first.stream().map(d -> d.firstWord()).distinct().count()).as("no duplicate")
                .isEqualTo(3L * PER_SENDER);
            for (final TestCluster.Recorder r : c.recorders)
            {
                assertThat(r.list()).as("same sequence everywhere").isEqualTo(first);
            }
        }
    }

    /** Two members never installed different views under one view id (two groups sharing a registry). */
    private static void assertNoSplitBrain(final List<Events> events)
    {
        final Map<Long, View> byId = new HashMap<>();
        for (final Events e : events)
        {
            for (final View v : e.installed)
            {
                final View other = byId.putIfAbsent(v.viewId(), v);
                assertThat((other == null ? v : other).encode()).as("view %d as every member installed it",
                    v.viewId()).isEqualTo(v.encode());
            }
        }
    }

    private static void await(final String what, final BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("timed out after 60 s waiting for: " + what);
            }
            Thread.sleep(5);
        }
    }
}
