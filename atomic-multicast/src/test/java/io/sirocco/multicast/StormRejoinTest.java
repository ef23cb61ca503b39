package io.sirocco.multicast;

import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
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
 * <p>The storm is made deterministic by a fault hook that makes every member suspect every other member in its next
 * pass ({@code Group.suspectEveryoneOnce}, as a heartbeat timeout of all peers at once would): each suspects both
 * others, which is no majority of three, so each excludes itself (pausing the heartbeats instead, tried first, let the
 * first member to time out remove one peer before the others timed out: a different storm every run, up to 50 s of
 * churn). Before the fix no member formed a group again: on these registries only a member still in a view took
 * excluded members back.
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
            stormThenReform(c, c.groups, () -> c.groups.forEach(Group::suspectEveryoneOnce));
        }
    }

    /**
     * The same storm right after a fourth member, in this JVM, halts (its predicate thread stops, its process, this JVM,
     * lives on): it stays in the last installed view without an out mark, and must not keep the three others from
     * re-forming the group without it.
     */
    @ParameterizedTest(name = "transport and registry {0}")
    @ValueSource(strings = {"local", "shm"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aHaltedMemberOfThisJvmDoesNotKeepTheOthersFromReforming(final String transport) throws Exception
    {
        try (TestCluster c = new TestCluster(4, transport, SpindleOptions.ALL_ON, i -> List.of(SPEC),
            i -> Role.WRITER_READER, TestCluster.CRASH_SUSPICION_MS))
        {
            final Group halted = c.groups.get(3);
            final List<Group> live = c.groups.subList(0, 3);
            stormThenReform(c, live, () ->
            {
                halted.halt();
                live.forEach(Group::suspectEveryoneOnce);
            });
            assertThat(live.getFirst().view().rankOf(halted.memberId())).isEqualTo(-1);
        }
    }

    /**
     * A founder took the group for dead and re-formed it under the next view id while this group, alive after all, was
     * finishing a change to that same id (possible when a leader dies right after publishing a view, before the
     * members it named noticed): the view id is already held by another group when the survivors install. They must
     * not overwrite it (the other group runs that view's table): they exclude themselves and join the group that runs.
     * Here the other group's view is a stand-in published under id 2 before member 102 halts, naming a member that no
     * longer runs; the survivors' change to view 2 must not install, and they re-form and deliver.
     */
    @ParameterizedTest(name = "transport and registry {0}")
    @ValueSource(strings = {"local", "shm"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aViewIdAnotherGroupHoldsIsNotInstalledOverIt(final String transport) throws Exception
    {
        try (TestCluster c = new TestCluster(3, transport, SpindleOptions.ALL_ON, i -> List.of(SPEC),
            i -> Role.WRITER_READER, TestCluster.CRASH_SUSPICION_MS))
        {
            final io.sirocco.multicast.view.MembershipRegistry registry = "local".equals(transport)
                ? io.sirocco.multicast.view.LocalRegistry.forGroup(c.groupName)
                : new io.sirocco.multicast.view.ShmRegistry(c.groupName);
            assertThat(c.groups.getFirst().view().viewId()).isEqualTo(1);
            final View other = new View(2, List.of(new Member(999, Member.localHost(), ProcessHandle.current().pid(),
                "", 0, List.of(new Member.Registration(SPEC, Role.WRITER_READER)), "")));
            registry.publish("v2", other);
            final Group halted = c.groups.get(2);
            final List<Group> live = c.groups.subList(0, 2);
            final List<Events> events = stormThenReform(c, live, halted::halt);
            assertThat(registry.read("v2").map(View::encode)).as("the other group's view 2 stands")
                .contains(other.encode());
            for (final Events e : events)
            {
                assertThat(e.installed).as("no survivor installed a view 2").noneMatch(v -> v.viewId() == 2);
            }
        }
    }

    /**
     * Runs {@code storm}, waits until every member of {@code live} excluded itself, then asserts they are back in one
     * view of their own and deliver one identical sequence.
     *
     * @return what each member of {@code live} saw.
     */
    private static List<Events> stormThenReform(final TestCluster c, final List<Group> live, final Runnable storm)
        throws Exception
    {
        final List<Events> events = new ArrayList<>();
        for (final Group g : live)
        {
            final Events e = new Events();
            e.installed.add(g.view());
            g.addMembershipListener(e);
            events.add(e);
        }
        final long firstViewId = live.getFirst().view().viewId();

        storm.run();
        await("every member excluded itself", () -> events.stream().allMatch(e -> e.exclusions.get() > 0));

        await("the members back in one view", () -> live.stream().allMatch(g -> g.exclusion() == null
            && g.view().members().size() == live.size() && g.view().viewId() == live.getFirst().view().viewId()));
        final View view = live.getFirst().view();
        assertThat(view.viewId()).as("a view formed after the storm").isGreaterThan(firstViewId);
        for (final Group g : live)
        {
            assertThat(g.view().encode()).as("view of member %d", g.memberId()).isEqualTo(view.encode());
        }
        assertNoSplitBrain(events);

        // Multicast works again: every member sends, every member delivers all of it in one identical order.
        final int[] counts = new int[live.size()];
        java.util.Arrays.fill(counts, PER_SENDER);
        final List<Thread> senders = Senders.start(live, "a", counts, 64, 0, 7);
        for (final Thread t : senders)
        {
            t.join(TimeUnit.SECONDS.toMillis(90));
            assertThat(t.isAlive()).as("sender %s finished", t.getName()).isFalse();
        }
        final int total = live.size() * PER_SENDER;
        for (int i = 0; i < live.size(); i++)
        {
            ViewChangeTest.awaitCount(c.recorders.get(i), total);
        }
        final List<TestCluster.Delivery> first = c.recorders.getFirst().list();
        assertThat(first).hasSize(total);
        assertThat(first.stream().map(d -> d.firstWord()).distinct().count()).as("no duplicate").isEqualTo(total);
        for (int i = 0; i < live.size(); i++)
        {
            assertThat(c.recorders.get(i).list()).as("same sequence everywhere").isEqualTo(first);
        }
        return events;
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

    /** The stacks of the members' predicate threads, to tell a stuck member from a waiting one after a timeout. */
    private static String predicateThreads()
    {
        final StringBuilder sb = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, stack) ->
        {
            if (t.getName().startsWith("sirocco-mcast-"))
            {
                sb.append("\n").append(t.getName()).append(' ').append(t.getState());
                for (int i = 0; i < Math.min(stack.length, 12); i++)
                {
                    sb.append("\n    at ").append(stack[i]);
                }
            }
        });
        return sb.toString();
    }

    private static void await(final String what, final BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("timed out after 60 s waiting for: " + what + predicateThreads());
            }
            Thread.sleep(5);
        }
    }
}
