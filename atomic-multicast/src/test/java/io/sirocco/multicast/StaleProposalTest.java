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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A member whose registry replica lags (as a network replica may: the proposal travels on another connection than
 * the SST) must not install a stale proposal. Proposal numbers restart in every view, so the second view change's
 * {@code p256} replaces the first one's; the lagging member's first read of it returns the previous view's proposal.
 * It must wait for the current one and end in the same view as the others.
 */
class StaleProposalTest
{
    /** Serves one member: writes go to the shared store; a proposal is first read as the value this member saw last. */
    private static final class LaggingRegistry extends ForwardingRegistry
    {
        private final LocalRegistry shared;
        private final Map<String, View> seen = new HashMap<>();
        volatile int staleReads;

        LaggingRegistry(final LocalRegistry shared)
        {
            super(shared);
            this.shared = shared;
        }

        @Override
        public synchronized Optional<View> read(final String key)
        {
            final Optional<View> current = shared.read(key);
            final View before = seen.get(key);
            current.ifPresent(v -> seen.put(key, v));
            if (key.startsWith("p") && before != null && current.isPresent() && before != current.get())
            {
                staleReads++;
                return Optional.of(before);
            }
            return current;
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aLaggingReplicaWaitsForTheCurrentProposal() throws Exception
    {
        final String group = "sp" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final LocalRegistry shared = new LocalRegistry();
        final LaggingRegistry lagging = new LaggingRegistry(shared);
        final List<Group> groups = new ArrayList<>();
        final ExecutorService pool = Executors.newFixedThreadPool(3);
        try
        {
            final List<Future<Group>> fs = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                // tcp: every view gets fresh tables (the local transport would hand a re-opened view its old copies).
                final GroupConfig cfg = GroupConfig.defaults(group).withTransport("tcp").withMemberId(400 + i)
                    .withContact(i == 0, 3).withIdle(50, 10, 50_000)
                    .withFailureDetection(10, TestCluster.QUIET_SUSPICION_MS)
                    .withEndpoint("127.0.0.1:" + TestCluster.freePort());
                final MembershipRegistry registry = i == 2 ? lagging : shared;
                final TestCluster.Recorder rec = new TestCluster.Recorder();
                fs.add(pool.submit(() -> Group.join(cfg, registry, List.of(new Group.SubgroupRegistration(
                    SubgroupSpec.of("a", DeliveryMode.ORDERED), Role.WRITER_READER, rec)), null,
                    Duration.ofSeconds(30))));
            }
            for (final Future<Group> f : fs)
            {
                groups.add(f.get());
            }
            // Two registration changes: two view changes whose leader (rank 0) both propose under p256.
            for (final String name : List.of("b", "c"))
            {
                final long before = groups.get(2).view().viewId();
                groups.get(0).register(new Group.SubgroupRegistration(SubgroupSpec.of(name, DeliveryMode.ORDERED),
                    Role.WRITER_READER, new TestCluster.Recorder()));
                final long deadline = System.nanoTime() + 60_000_000_000L;
                while (System.nanoTime() < deadline && groups.stream().anyMatch(g -> g.view().viewId() <= before
                    || g.view().subgroups().stream().noneMatch(s -> s.name().equals(name))))
                {
                    Thread.sleep(5);
                }
            }
            assertThat(lagging.staleReads).as("the lagging member was shown an older view's proposal").isPositive();
            final View v0 = groups.get(0).view();
            for (final Group g : groups)
            {
                assertThat(g.exclusion()).as("member %d excluded", g.memberId()).isNull();
                assertThat(g.view().viewId()).as("view id of member %d", g.memberId()).isEqualTo(v0.viewId());
                assertThat(g.view().subgroups()).extracting(View.SubgroupInfo::name).containsExactly("a", "b", "c");
            }
        }
        finally
        {
            pool.shutdown();
            groups.forEach(Group::close);
        }
    }
}
