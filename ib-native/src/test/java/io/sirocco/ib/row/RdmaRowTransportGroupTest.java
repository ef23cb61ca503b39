package io.sirocco.ib.row;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.Group;
import io.sirocco.multicast.GroupConfig;
import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import io.sirocco.multicast.view.ShmRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The atomic-multicast protocol (SST, SMC, predicates, view installation and view change) running on the real
 * {@link RdmaRowTransportProvider} set-up (control exchange over messaging-transport, loopback here), the real
 * {@link RdmaRowTransport} and {@link PushPlanner}, with only the verbs replaced by {@link FakeRdmaFabric}
 * ({@code rdma-fake}): three members in this JVM.
 */
final class RdmaRowTransportGroupTest
{
    private record Delivery(long sender, long index, long seq, long word)
    {
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void threeMembersDeliverTheSameOrderOverThePlanner() throws Exception
    {
        final int members = 3;
        final int perMember = 60;
        final String group = "ibf" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final List<ConcurrentLinkedQueue<Delivery>> delivered = new ArrayList<>();
        final List<Group> groups = new ArrayList<>();
        try
        {
            groups.addAll(join(group, members, 2000, delivered));
            final long firstView = groups.get(0).view().viewId();

            final SlotClaim claim = new SlotClaim();
            for (int n = 0; n < perMember; n++)
            {
                for (final Group g : groups)
                {
                    assertThat(g.subgroup("a").claim(16, claim, 10_000_000_000L)).isEqualTo(ClaimResult.OK);
                    final MemorySegment buffer = claim.buffer();
                    buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, n);
                    buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, n);
                    claim.commit();
                }
            }
            awaitTrue(() -> delivered.stream().allMatch(d -> d.size() >= members * perMember), 60);

            final List<Delivery> first = new ArrayList<>(delivered.get(0));
            assertThat(first).hasSize(members * perMember);
            for (int i = 1; i < members; i++)
            {
                assertThat(new ArrayList<>(delivered.get(i))).isEqualTo(first);
            }
            // each sender's payloads arrive complete and in its send order (indices may skip: null-sends take some)
            for (final long sender : first.stream().map(Delivery::sender).distinct().toList())
            {
                assertThat(first.stream().filter(d -> d.sender() == sender).map(Delivery::word).toList())
                    .isEqualTo(java.util.stream.LongStream.range(0, perMember).boxed().toList());
            }
            // no suspicion was raised: every member is still in the first view, with all three members
            for (final Group g : groups)
            {
                assertThat(g.view().viewId()).isEqualTo(firstView);
                assertThat(g.view().members()).hasSize(members);
            }
        }
        finally
        {
            groups.forEach(Group::close);
            ShmRegistry.destroy(group);
        }
    }

    /**
     * Member 0's writes to member 2 start failing (error completions, as when member 2's port dies). The heartbeat
     * timeout is set far beyond the test's bound, so only the transport's suspicion report can explain a view
     * change: member 0 must suspect member 2 through the row-transport suspicion callback, and the survivors must
     * install a view without it while member 2 learns it was excluded. (Member 2 keeps writing to member 0 without
     * error until member 0's old table closes, so member 2 alone can't explain the change either.)
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anErrorCompletionMakesTheViewManagerSuspectThatMember() throws Exception
    {
        final String group = "ibs" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final List<Group> groups = new ArrayList<>();
        try
        {
            groups.addAll(join(group, 3, 600_000, new ArrayList<>()));
            final long victim = groups.get(2).memberId();
            final long firstView = groups.get(0).view().viewId();

            FakeRdmaRowTransportProvider.FABRIC.failWrites(group, groups.get(0).memberId(), victim);

            awaitTrue(() -> groups.get(0).view().members().stream().noneMatch(m -> m.memberId() == victim)
                && groups.get(1).view().members().stream().noneMatch(m -> m.memberId() == victim), 60);
            for (final Group survivor : groups.subList(0, 2))
            {
                assertThat(survivor.view().viewId()).isGreaterThan(firstView);
                assertThat(survivor.view().members()).extracting(Member::memberId)
                    .containsExactly(groups.get(0).memberId(), groups.get(1).memberId());
            }
            // the victim learns it is out: from a survivor's suspicion, or because the survivors' old tables are gone
            // (their registrations closed) so its own writes fail and it finds itself in a minority
            awaitTrue(() -> null != groups.get(2).exclusion(), 60);
            assertThat(groups.get(2).exclusion()).isNotBlank();
        }
        finally
        {
            groups.forEach(Group::close);
            ShmRegistry.destroy(group);
        }
    }

    private static List<Group> join(final String group, final int members, final long suspicionMs,
        final List<ConcurrentLinkedQueue<Delivery>> delivered) throws Exception
    {
        final long idBase = 1000 + ThreadLocalRandom.current().nextInt(60_000);
        final ExecutorService pool = Executors.newFixedThreadPool(members);
        try
        {
            final List<Future<Group>> joins = new ArrayList<>();
            for (int i = 0; i < members; i++)
            {
                final ConcurrentLinkedQueue<Delivery> mine = new ConcurrentLinkedQueue<>();
                delivered.add(mine);
                final DeliveryHandler handler = (senderId, senderRank, index, seq, payload, length) ->
                    mine.add(new Delivery(senderId, index, seq, payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)));
                // the endpoint names the control endpoint's address; the loopback control transport ignores it
                final GroupConfig config = GroupConfig.defaults(group).withTransport("rdma-fake").withRegistry("shm")
                    .withMemberId(idBase + i).withContact(i == 0, members).withSpindle(SpindleOptions.ALL_ON)
                    .withIdle(50, 10, 50_000).withFailureDetection(100, suspicionMs)
                    .withEndpoint("127.0.0.1:" + (20_000 + i));
                final List<Group.SubgroupRegistration> registrations = List.of(new Group.SubgroupRegistration(
                    SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(4), Role.WRITER_READER, handler));
                joins.add(pool.submit(() -> Group.join(config, registrations, null, Duration.ofSeconds(60))));
            }
            final List<Group> groups = new ArrayList<>();
            for (final Future<Group> join : joins)
            {
                groups.add(join.get(90, TimeUnit.SECONDS));
            }
            return groups;
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private static void awaitTrue(final BooleanSupplier condition, final int seconds) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
    }
}
