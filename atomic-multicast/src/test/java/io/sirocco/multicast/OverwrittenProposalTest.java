package io.sirocco.multicast;

import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.view.ForwardingRegistry;
import io.sirocco.multicast.view.LocalRegistry;
import io.sirocco.multicast.view.MembershipRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A member that reaches the install of a committed view after the others installed it and the leader of the new view
 * already proposed the next one must install the committed view and stay in the group. Proposal numbers restart in
 * every view, so the next view's first proposal ({@code p256}) replaces the committed one under the same key; the
 * late member then found a later view there and waited for its own proposal, which never came back, silent in the new
 * view until the others suspected the live member (SimultaneousStartTest: four processes started together, the last
 * joiner excluded while the others' reader registrations made back-to-back view changes).
 *
 * <p>Deterministic: the late member's registry answers its install-time read of the committed proposal with "not there
 * yet" until the leader has overwritten the key (the member read late), then with what the key holds.
 */
class OverwrittenProposalTest
{
    /** The view whose proposal the late member reads late (view 1 to view 2: the first registration change). */
    private static final long LATE_VIEW = 2;

    /** Serves the late member: after its first read of view 2's proposal (the acknowledgement), hides it. */
    private static final class LateReader extends ForwardingRegistry
    {
        private boolean acknowledged;
        volatile int hiddenReads;
        volatile int overwrittenReads;

        LateReader(final MembershipRegistry shared)
        {
            super(shared);
        }

        @Override
        public synchronized Optional<View> read(final String key)
        {
            final Optional<View> current = delegate.read(key);
            if (!key.startsWith("p") || current.isEmpty())
            {
                return current;
            }
            if (current.get().viewId() == LATE_VIEW)
            {
                if (!acknowledged)
                {
                    acknowledged = true;
                    return current;
                }
                hiddenReads++;
                return Optional.empty();
            }
            if (current.get().viewId() > LATE_VIEW && hiddenReads > 0)
            {
                overwrittenReads++;
            }
            return current;
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aMemberLateToInstallFindsTheViewTheOthersInstalled() throws Exception
    {
        final String group = "op" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final LocalRegistry shared = new LocalRegistry();
        final LateReader late = new LateReader(shared);
        final List<Group> groups = new ArrayList<>();
        final ConcurrentLinkedQueue<String> exclusions = new ConcurrentLinkedQueue<>();
        final ExecutorService pool = Executors.newFixedThreadPool(3);
        try
        {
            final List<Future<Group>> fs = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                // tcp: every view gets fresh tables (the local transport would hand a re-opened view its old copies).
                final GroupConfig cfg = GroupConfig.defaults(group).withTransport("tcp").withMemberId(500 + i)
                    .withContact(i == 0, 3).withIdle(50, 10, 50_000)
                    .withFailureDetection(10, TestCluster.QUIET_SUSPICION_MS)
                    .withEndpoint("127.0.0.1:" + TestCluster.freePort());
                final MembershipRegistry registry = i == 2 ? late : shared;
                final MembershipListener listener = new MembershipListener()
                {
                    @Override
                    public void onViewInstalled(final View view, final List<Long> joined, final List<Long> left)
                    {
                    }

                    @Override
                    public void onExcluded(final String reason)
                    {
                        exclusions.add(cfg.memberId() + ": " + reason);
                    }
                };
                fs.add(pool.submit(() -> Group.join(cfg, registry, List.of(new Group.SubgroupRegistration(
                    SubgroupSpec.of("a", DeliveryMode.ORDERED), Role.WRITER_READER, new TestCluster.Recorder())),
                    listener, Duration.ofSeconds(30))));
            }
            for (final Future<Group> f : fs)
            {
                groups.add(f.get());
            }
            assertThat(groups.get(0).view().viewId()).as("the three formed view 1 together").isEqualTo(1);
            // View 1 to 2 (the leader proposes p256); once the leader installed it, view 2 to 3 (p256 again).
            groups.get(0).register(new Group.SubgroupRegistration(SubgroupSpec.of("b", DeliveryMode.ORDERED),
                Role.WRITER_READER, new TestCluster.Recorder()));
            awaitView(groups.subList(0, 1), LATE_VIEW, "b");
            groups.get(1).register(new Group.SubgroupRegistration(SubgroupSpec.of("c", DeliveryMode.ORDERED),
                Role.WRITER_READER, new TestCluster.Recorder()));
            awaitView(groups, LATE_VIEW + 1, "c");

            assertThat(late.hiddenReads).as("the late member missed view 2's proposal at its install").isPositive();
            assertThat(late.overwrittenReads).as("and then found view 3's under the same key").isPositive();
            assertThat(exclusions).as("members excluded").isEmpty();
            final View v0 = groups.get(0).view();
            for (final Group g : groups)
            {
                assertThat(g.view().viewId()).as("view id of member %d", g.memberId()).isEqualTo(v0.viewId());
                assertThat(g.view().members()).as("members of the view of member %d", g.memberId()).hasSize(3);
                assertThat(g.view().subgroups()).extracting(View.SubgroupInfo::name).containsExactly("a", "b", "c");
            }
        }
        finally
        {
            pool.shutdown();
            groups.forEach(Group::close);
        }
    }

    /** Waits (bounded) until every group is past {@code viewId - 1} in a view that has subgroup {@code name}. */
    private static void awaitView(final List<Group> groups, final long viewId, final String name)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && groups.stream().anyMatch(g -> g.view().viewId() < viewId
            || g.view().subgroups().stream().noneMatch(s -> s.name().equals(name))))
        {
            Thread.sleep(5);
        }
    }
}
